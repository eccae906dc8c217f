package dev.lomicontrol.episodes;

import dev.lomicontrol.core.SessionId;
import java.time.Instant;
import java.util.Optional;

/**
 * A snapshot of one execution episode. {@code holder} is present only while attached;
 * {@code detachedSince} only while detached; {@code closedAt} and {@code closeReason} only once
 * closed. {@code attachments} counts the sessions that have carried it.
 */
public record Episode(
        EpisodeId id,
        ExternalId externalId,
        EpisodeState state,
        Optional<SessionId> holder,
        Instant openedAt,
        Instant lastActivity,
        int attachments,
        Optional<Instant> detachedSince,
        Optional<Instant> closedAt,
        Optional<CloseReason> closeReason) {

    /** Whether {@code session} holds this episode now. */
    public boolean heldBy(SessionId session) {
        return holder.filter(session::equals).isPresent();
    }
}
