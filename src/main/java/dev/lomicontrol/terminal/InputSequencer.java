package dev.lomicontrol.terminal;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.Deque;
import org.jspecify.annotations.Nullable;

/**
 * The ordered-input bookkeeping of one terminal: the last sequence number and the last
 * {@value #RETAINED} acknowledgements with their payload digests. Not thread-safe: the terminal
 * guards it.
 */
final class InputSequencer {

    static final int RETAINED = 64;

    private record Entry(long sequence, byte[] digest, String state) {}

    private final Deque<Entry> acks = new ArrayDeque<>();
    private long last;

    long next() {
        return last + 1;
    }

    /**
     * The stored acknowledgement when {@code sequence} repeats an earlier identical send, or null
     * when it is the next new sequence.
     *
     * @throws LomiException REVISION_CONFLICT for a number other than the next one (or a repeat),
     *     IDEMPOTENCY_CONFLICT for a repeat with another payload, CURSOR_EXPIRED for a repeat older
     *     than the retained acknowledgements
     */
    @Nullable
    InputAck check(long sequence, byte[] digest) {
        if (sequence == next()) {
            return null;
        }
        if (sequence < 1 || sequence > last) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    "inputSequence " + sequence + " is out of order: the next inputSequence is " + next());
        }
        for (Entry entry : acks) {
            if (entry.sequence() == sequence) {
                if (!MessageDigest.isEqual(entry.digest(), digest)) {
                    throw new LomiException(
                            ErrorCode.IDEMPOTENCY_CONFLICT,
                            "inputSequence " + sequence + " was already used for a different payload");
                }
                return new InputAck(sequence, entry.state(), true, next());
            }
        }
        throw new LomiException(
                ErrorCode.CURSOR_EXPIRED,
                "inputSequence " + sequence + " is older than the last " + RETAINED
                        + " acknowledgements; the next inputSequence is " + next());
    }

    /** Consumes the next sequence number for a send whose bytes are about to be written. */
    long accept(byte[] digest) {
        last++;
        acks.addLast(new Entry(last, digest, InputAck.DISPATCHED));
        if (acks.size() > RETAINED) {
            acks.removeFirst();
        }
        return last;
    }

    /** Records that the write of the newest sequence failed part-way (writes happen in sequence order). */
    void outcomeUnknown(long sequence) {
        Entry newest = acks.peekLast();
        if (newest != null && newest.sequence() == sequence) {
            acks.removeLast();
            acks.addLast(new Entry(sequence, newest.digest(), InputAck.OUTCOME_UNKNOWN));
        }
    }

    static byte[] digest(byte[] payload) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(payload);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }
}
