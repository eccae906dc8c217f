package dev.lomicontrol.ledger;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Ledger limits and SQLite settings ({@code lomi.ledger.*}; shipped defaults in
 * {@code config/application.properties}).
 *
 * @param receiptCap    receipts kept before new work is refused with RESOURCE_EXHAUSTED
 * @param epochCap      retry epochs kept before {@code lomi_connect} is refused
 * @param epochLifetime how long a retry epoch accepts reservations
 * @param busyTimeout   SQLite busy timeout (guards against other processes, e.g. an offline backup)
 * @param maxPageCount  SQLite {@code max_page_count}: the store's size ceiling in pages
 * @param maxBatch      most reservations/transitions committed together by the group-commit writer
 * @param readers       reader connections
 */
@ConfigurationProperties("lomi.ledger")
public record LedgerProperties(
        @DefaultValue("4096") int receiptCap,
        @DefaultValue("4096") int epochCap,
        @DefaultValue("24h") Duration epochLifetime,
        @DefaultValue("2s") Duration busyTimeout,
        @DefaultValue("16384") long maxPageCount,
        @DefaultValue("64") int maxBatch,
        @DefaultValue("4") int readers) {

    public static LedgerProperties defaults() {
        return new LedgerProperties(4096, 4096, Duration.ofHours(24), Duration.ofSeconds(2), 16384, 64, 4);
    }

    public LedgerProperties withCaps(int receipts, int epochs) {
        return new LedgerProperties(receipts, epochs, epochLifetime, busyTimeout, maxPageCount, maxBatch, readers);
    }

    public LedgerProperties withMaxPageCount(long pages) {
        return new LedgerProperties(receiptCap, epochCap, epochLifetime, busyTimeout, pages, maxBatch, readers);
    }
}
