package dev.lomicontrol.ledger;

/**
 * How full one of the ledger's caps (receipts or retry epochs) is. The admin is warned from 80 %
 * and again from 95 %; at the cap new work (or a new connection's epoch) is refused with
 * RESOURCE_EXHAUSTED.
 */
public enum CapLevel {
    BELOW_80("below 80 %"),
    FROM_80("80 % or more"),
    FROM_95("95 % or more"),
    FULL("at the cap");

    private final String words;

    CapLevel(String words) {
        this.words = words;
    }

    /** The level of {@code count} rows against {@code cap} (exact integer thresholds: 80 % of 4096 is reached at 3277). */
    public static CapLevel of(long count, long cap) {
        if (count >= cap) {
            return FULL;
        }
        if (count * 100 >= cap * 95L) {
            return FROM_95;
        }
        return count * 100 >= cap * 80L ? FROM_80 : BELOW_80;
    }

    public String words() {
        return words;
    }

    /** Whether the admin should be told (80 % and above). */
    public boolean warns() {
        return this != BELOW_80;
    }
}
