package dev.lomicontrol.ledger;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * What an admin needs to keep the ledger healthy: counts against the caps, rows past their
 * retention (kept until purged), the oldest row, the last export, the integrity verdict and the
 * last write refused for a full or read-only store.
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
        Optional<StorageRefusal> lastStorageRefusal) {

    public record LastExport(String path, String sha256, long historyHead, Instant at) {}

    /** The last write refused because the store was full or read-only; {@code recovered} when writes worked since. */
    public record StorageRefusal(Instant at, String detail, boolean recovered) {}

    public boolean atReceiptCap() {
        return receipts >= receiptCap;
    }

    public boolean atEpochCap() {
        return epochs >= epochCap;
    }
}
