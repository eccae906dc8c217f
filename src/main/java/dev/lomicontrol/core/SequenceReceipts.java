package dev.lomicontrol.core;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.Deque;
import org.jspecify.annotations.Nullable;

/**
 * The ordered-input bookkeeping of one input channel (a terminal, or an Android device under one
 * generation and lease): the last sequence number and the last {@code retained} receipts with their
 * payload digests, so that a resent input is acknowledged from its receipt and never sent twice. Not
 * thread-safe: the channel guards it and sends in sequence order.
 */
public final class SequenceReceipts {

    /** All of the input was handed to its target. */
    public static final String DISPATCHED = "dispatched";

    /** The send failed part-way or at an unknown point; some of it may have reached the target. */
    public static final String OUTCOME_UNKNOWN = "outcome_unknown";

    /**
     * One stored receipt.
     *
     * @param sequence the sequence number it acknowledges
     * @param state {@link #DISPATCHED} or {@link #OUTCOME_UNKNOWN}
     * @param next the number the next new input must carry
     */
    public record Receipt(long sequence, String state, long next) {}

    private record Entry(long sequence, byte[] digest, String state) {}

    private final int retained;
    private final Deque<Entry> entries = new ArrayDeque<>();
    private long last;

    public SequenceReceipts(int retained) {
        if (retained < 1) {
            throw new IllegalArgumentException("at least one receipt must be retained");
        }
        this.retained = retained;
    }

    public long next() {
        return last + 1;
    }

    /**
     * The stored receipt when {@code sequence} repeats an earlier identical send, or null when it is
     * the next new sequence.
     *
     * @throws LomiException REVISION_CONFLICT for a number other than the next one (or a repeat),
     *     IDEMPOTENCY_CONFLICT for a repeat with another payload, CURSOR_EXPIRED for a repeat older
     *     than the retained receipts
     */
    @Nullable
    public Receipt check(long sequence, byte[] digest) {
        if (sequence == next()) {
            return null;
        }
        if (sequence < 1 || sequence > last) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    "inputSequence " + sequence + " is out of order: the next inputSequence is " + next());
        }
        for (Entry entry : entries) {
            if (entry.sequence() == sequence) {
                if (!MessageDigest.isEqual(entry.digest(), digest)) {
                    throw new LomiException(
                            ErrorCode.IDEMPOTENCY_CONFLICT,
                            "inputSequence " + sequence + " was already used for a different payload");
                }
                return new Receipt(sequence, entry.state(), next());
            }
        }
        throw new LomiException(
                ErrorCode.CURSOR_EXPIRED,
                "inputSequence " + sequence + " is older than the last " + retained
                        + " acknowledgements; the next inputSequence is " + next());
    }

    /** Consumes the next sequence number for a send that is about to start; its receipt says dispatched. */
    public long accept(byte[] digest) {
        last++;
        entries.addLast(new Entry(last, digest.clone(), DISPATCHED));
        if (entries.size() > retained) {
            entries.removeFirst();
        }
        return last;
    }

    /** Records that the send of the newest sequence failed part-way (sends happen in sequence order). */
    public void outcomeUnknown(long sequence) {
        Entry newest = entries.peekLast();
        if (newest != null && newest.sequence() == sequence) {
            entries.removeLast();
            entries.addLast(new Entry(sequence, newest.digest(), OUTCOME_UNKNOWN));
        }
    }

    /** The SHA-256 of {@code payload}, the digest the receipts compare. */
    public static byte[] digest(byte[] payload) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(payload);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }

    /** The SHA-256 of {@code payload}'s UTF-8 bytes. */
    public static byte[] digest(String payload) {
        return digest(payload.getBytes(StandardCharsets.UTF_8));
    }
}
