package dev.lomicontrol.episodes;

import dev.lomicontrol.core.SessionId;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One open episode on the in-memory board. Fields other than {@code lastActivity} are read and
 * written only under the board's lock; {@code lastActivity} is volatile so traffic can touch it
 * without the lock.
 */
final class LiveEpisode {

    final EpisodeId id;
    final ExternalId externalId;
    final Instant openedAt;
    int attachments;

    @Nullable
    SessionId holder;

    @Nullable
    Instant detachedSince;

    volatile Instant lastActivity;

    LiveEpisode(EpisodeId id, ExternalId externalId, Instant openedAt, int attachments, Instant lastActivity) {
        this.id = id;
        this.externalId = externalId;
        this.openedAt = openedAt;
        this.attachments = attachments;
        this.lastActivity = lastActivity;
    }

    void attachTo(SessionId session, Instant now) {
        holder = session;
        detachedSince = null;
        lastActivity = now;
    }

    void detach(Instant now) {
        holder = null;
        detachedSince = now;
    }

    boolean detachedLongerThan(Duration grace, Instant now) {
        return holder == null
                && detachedSince != null
                && Duration.between(detachedSince, now).compareTo(grace) > 0;
    }

    Episode snapshot() {
        return new Episode(
                id,
                externalId,
                holder == null ? EpisodeState.DETACHED : EpisodeState.ATTACHED,
                Optional.ofNullable(holder),
                openedAt,
                lastActivity,
                attachments,
                Optional.ofNullable(detachedSince),
                Optional.empty(),
                Optional.empty());
    }

    Episode closed(CloseReason reason, Instant at) {
        return new Episode(
                id,
                externalId,
                EpisodeState.CLOSED,
                Optional.empty(),
                openedAt,
                lastActivity,
                attachments,
                Optional.empty(),
                Optional.of(at),
                Optional.of(reason));
    }
}
