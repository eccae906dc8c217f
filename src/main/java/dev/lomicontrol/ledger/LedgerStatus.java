package dev.lomicontrol.ledger;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What an admin needs to keep the ledger healthy: counts against the caps, rows past their
 * retention (kept until purged), the oldest row, the last export, the integrity verdict and the
 * last write refused for a full or read-only store, and what the admin's maintenance would free
 * ({@link Reclaim}).
 */
public record LedgerStatus(
        String database,
        String instance,
        long receipts,
        int receiptCap,
        long epochs,
        int epochCap,
        Map<String, Long> byState,
        long expiredReceipts,
        long expiredEpochs,
        long unreconciledOutcomeUnknown,
        Optional<Instant> oldestOperation,
        Optional<LastExport> lastExport,
        long historyHead,
        String integrity,
        boolean writerHealthy,
        long commits,
        Optional<StorageRefusal> lastStorageRefusal,
        Reclaim reclaim) {

    public record LastExport(String path, String sha256, long historyHead, Instant at) {}

    /** The last write refused because the store was full or read-only; {@code recovered} when writes worked since. */
    public record StorageRefusal(Instant at, String detail, boolean recovered) {}

    /**
     * What each maintenance step would free now (issue 19): a purge after a fresh export frees
     * {@code purgeableReceipts} and {@code purgeableEpochs}; recording findings for {@code
     * awaitingFinding} outcome_unknown rows frees those; ending each live session frees what it holds.
     */
    public record Reclaim(
            long purgeableReceipts, long purgeableEpochs, long awaitingFinding, List<LiveHolder> liveSessions) {

        public long liveReceipts() {
            return liveSessions.stream().mapToLong(LiveHolder::receipts).sum();
        }
    }

    /**
     * A live connection of this broker run holding rows no purge may touch: its receipts (of which
     * {@code unfinished} are not settled yet) and its retry epochs. {@code session revoke} ends it.
     */
    public record LiveHolder(String sessionId, long receipts, long unfinished, long epochs) {}

    public CapLevel receiptLevel() {
        return CapLevel.of(receipts, receiptCap);
    }

    public CapLevel epochLevel() {
        return CapLevel.of(epochs, epochCap);
    }

    public boolean atReceiptCap() {
        return receipts >= receiptCap;
    }

    public boolean atEpochCap() {
        return epochs >= epochCap;
    }
}
