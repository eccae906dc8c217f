package dev.lomicontrol.ledger.internal;

import dev.lomicontrol.ledger.CapLevel;
import dev.lomicontrol.ledger.Headroom;
import dev.lomicontrol.ledger.LedgerProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the receipt and epoch counts the writer last saw (for cheap reads on every call) and logs a
 * warning each time a count climbs past 80 %, 95 % or the cap, and when the store opens above 80 %.
 * Updated only from the writer thread; a batch that rolls back may leave the counts one batch off
 * until the next counted write.
 */
public final class CapWatch {

    private static final Logger log = LoggerFactory.getLogger(CapWatch.class);

    private volatile Headroom headroom;

    public CapWatch(LedgerProperties properties) {
        this.headroom = new Headroom(0, properties.receiptCap(), 0, properties.epochCap());
    }

    public Headroom headroom() {
        return headroom;
    }

    /** The counts of a store just opened; warns when either is already past 80 %. */
    void opened(long receipts, long epochs) {
        Headroom now = new Headroom(receipts, headroom.receiptCap(), epochs, headroom.epochCap());
        headroom = now;
        warn("receipts", now.receiptLevel(), receipts, now.receiptCap());
        warn("retry epochs", now.epochLevel(), epochs, now.epochCap());
    }

    void receipts(long count) {
        Headroom before = headroom;
        headroom = new Headroom(count, before.receiptCap(), before.epochs(), before.epochCap());
        crossed("receipts", before.receiptLevel(), headroom.receiptLevel(), count, before.receiptCap());
    }

    void epochs(long count) {
        Headroom before = headroom;
        headroom = new Headroom(before.receipts(), before.receiptCap(), count, before.epochCap());
        crossed("retry epochs", before.epochLevel(), headroom.epochLevel(), count, before.epochCap());
    }

    /** After a purge: both counts again, logged when they dropped below a warning level. */
    void purged(long receipts, long epochs) {
        Headroom before = headroom;
        headroom = new Headroom(receipts, before.receiptCap(), epochs, before.epochCap());
        if (headroom.receiptLevel().compareTo(before.receiptLevel()) < 0
                || headroom.epochLevel().compareTo(before.epochLevel()) < 0) {
            log.info(
                    "ledger: after the purge {} of {} receipts and {} of {} retry epochs are in use",
                    receipts,
                    headroom.receiptCap(),
                    epochs,
                    headroom.epochCap());
        }
    }

    private static void crossed(String what, CapLevel before, CapLevel after, long count, int cap) {
        if (after.compareTo(before) > 0) {
            warn(what, after, count, cap);
        }
    }

    private static void warn(String what, CapLevel level, long count, int cap) {
        if (!level.warns()) {
            return;
        }
        String consequence = level == CapLevel.FULL
                ? (what.equals("receipts")
                        ? "new work is refused with RESOURCE_EXHAUSTED"
                        : "new connections' lomi_connect is refused with RESOURCE_EXHAUSTED")
                : "new work will be refused at the cap";
        log.warn(
                "ledger: {} of {} {} in use ({}): {}; run 'lomi-control console ledger status' for the steps that free rows (docs/OPERATIONS.md)",
                count,
                cap,
                what,
                level.words(),
                consequence);
    }
}
