package dev.lomicontrol.ledger.internal;

import dev.lomicontrol.core.OperationId;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * New operation ids in creation order: 16 hex digits of a stamp that grows with every id (the
 * clock in microseconds, or the previous stamp plus one when the clock has not moved on or went
 * back), then 24 hex digits (96 bits) drawn from a generator seeded once from the ledger's random
 * source. Ids made close together therefore sort together, so the receipts they key share the
 * table's newest pages instead of landing on a random page each (ADR 0016). Unique within a run by
 * the stamp; across runs (a clock set back) by the 96 random bits. An id grants nothing: every read
 * and cancel also checks the session. Used only by whoever holds the writer's connection (the writer thread or a caller writing alone), one at a time.
 */
final class OperationIds {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private final SplittableRandom tails;
    private long lastStamp;

    OperationIds(RandomGenerator seed) {
        this.tails = new SplittableRandom(seed.nextLong());
    }

    /** A new id for a receipt created at {@code nowMillis}. */
    OperationId next(long nowMillis) {
        lastStamp = Math.max(lastStamp + 1, Math.multiplyExact(nowMillis, 1000L));
        char[] id = new char[40];
        hex(id, 0, lastStamp, 16);
        hex(id, 16, tails.nextLong(), 16);
        hex(id, 32, tails.nextInt(), 8);
        return new OperationId(new String(id));
    }

    private static void hex(char[] into, int at, long value, int digits) {
        for (int i = digits - 1; i >= 0; i--) {
            into[at + i] = HEX[(int) (value & 0xf)];
            value >>>= 4;
        }
    }
}
