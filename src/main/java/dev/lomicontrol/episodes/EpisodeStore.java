package dev.lomicontrol.episodes;

import dev.lomicontrol.ledger.Ledger;
import java.time.Instant;
import java.util.List;
import org.springframework.data.domain.Limit;
import org.springframework.data.jdbc.core.JdbcAggregateOperations;

/**
 * The durable open/close records of episodes ({@link EpisodeRecord} aggregates of
 * {@link EpisodeRecords}). The writing methods run inside the ledger's single writer
 * ({@code Ledger.write}), so a close, a release and an attach of one board step commit together;
 * the reads run anywhere (a reader connection).
 */
final class EpisodeStore {

    private final EpisodeRecords records;
    private final JdbcAggregateOperations aggregates;

    EpisodeStore(Ledger ledger) {
        this.records = ledger.jdbc().repository(EpisodeRecords.class);
        this.aggregates = ledger.jdbc().aggregates();
    }

    void insert(LiveEpisode episode) {
        aggregates.insert(EpisodeRecord.opened(episode));
    }

    /** Records a new attachment count and the last activity of an open episode. */
    void attached(EpisodeId id, int attachments, Instant lastActivity) {
        records.save(requireOpen(id).attached(attachments, lastActivity));
    }

    /** Records the last activity of an episode, if it is still open. */
    void activity(EpisodeId id, Instant lastActivity) {
        records.findById(id.value())
                .filter(EpisodeRecord::isOpen)
                .ifPresent(open -> records.save(open.active(lastActivity)));
    }

    void close(Episode closed) {
        records.save(requireOpen(closed.id()).closed(closed));
    }

    /** Episodes whose close was never recorded (the broker died): they come back detached. */
    List<LiveEpisode> open() {
        return records.findByClosedAtIsNullOrderByExternalId().stream()
                .map(EpisodeRecord::live)
                .toList();
    }

    /** The {@code limit} most recently closed episodes, newest first. */
    List<Episode> recentlyClosed(int limit) {
        return records.findByClosedAtIsNotNullOrderByClosedAtDescIdAsc(Limit.of(limit)).stream()
                .map(EpisodeRecord::asClosed)
                .toList();
    }

    private EpisodeRecord requireOpen(EpisodeId id) {
        return records.findById(id.value())
                .filter(EpisodeRecord::isOpen)
                .orElseThrow(() -> new IllegalStateException("episode " + id + " is not open in the store"));
    }
}
