package dev.lomicontrol.episodes;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/**
 * The durable open/close record of one episode (table {@code episode}, V3), a Spring Data JDBC
 * aggregate. Times are epoch milliseconds (UTC); {@code closedAt} and {@code closeReason} are null
 * while it is open. It has no revision: only the board changes it, under its lock, inside the
 * ledger's single writer.
 */
@Table("episode")
record EpisodeRecord(
        @Id String id,
        String externalId,
        long openedAt,
        @Nullable Long closedAt,
        @Nullable String closeReason,
        int attachments,
        long lastActivity) {

    static EpisodeRecord opened(LiveEpisode episode) {
        return new EpisodeRecord(
                episode.id.value(),
                episode.externalId.value(),
                episode.openedAt.toEpochMilli(),
                null,
                null,
                episode.attachments,
                episode.lastActivity.toEpochMilli());
    }

    boolean isOpen() {
        return closedAt == null;
    }

    EpisodeRecord attached(int count, Instant activity) {
        return new EpisodeRecord(id, externalId, openedAt, null, null, count, activity.toEpochMilli());
    }

    EpisodeRecord active(Instant activity) {
        return new EpisodeRecord(id, externalId, openedAt, null, null, attachments, activity.toEpochMilli());
    }

    EpisodeRecord closed(Episode episode) {
        return new EpisodeRecord(
                id,
                externalId,
                openedAt,
                episode.closedAt().orElseThrow().toEpochMilli(),
                episode.closeReason().orElseThrow().wire(),
                episode.attachments(),
                episode.lastActivity().toEpochMilli());
    }

    /** An open record as it comes back after a restart: detached on the board. */
    LiveEpisode live() {
        return new LiveEpisode(
                new EpisodeId(id),
                new ExternalId(externalId),
                Instant.ofEpochMilli(openedAt),
                attachments,
                Instant.ofEpochMilli(lastActivity));
    }

    /** A closed record as the board lists it. */
    Episode asClosed() {
        return new Episode(
                new EpisodeId(id),
                new ExternalId(externalId),
                EpisodeState.CLOSED,
                Optional.empty(),
                Instant.ofEpochMilli(openedAt),
                Instant.ofEpochMilli(lastActivity),
                attachments,
                Optional.empty(),
                Optional.of(Instant.ofEpochMilli(Objects.requireNonNull(closedAt, "a closed episode has closedAt"))),
                Optional.of(
                        CloseReason.fromWire(Objects.requireNonNull(closeReason, "a closed episode has a reason"))));
    }
}
