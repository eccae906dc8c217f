package dev.lomicontrol.terminal;

import dev.lomicontrol.core.SequenceReceipts;
import org.jspecify.annotations.Nullable;

/**
 * The ordered-input bookkeeping of one terminal: {@link SequenceReceipts} keeping the last
 * {@value #RETAINED} acknowledgements. Not thread-safe: the terminal guards it.
 */
final class InputSequencer {

    static final int RETAINED = 64;

    private final SequenceReceipts receipts = new SequenceReceipts(RETAINED);

    long next() {
        return receipts.next();
    }

    /**
     * The stored acknowledgement when {@code sequence} repeats an earlier identical send, or null
     * when it is the next new sequence; the failures of {@link SequenceReceipts#check}.
     */
    @Nullable
    InputAck check(long sequence, byte[] digest) {
        SequenceReceipts.Receipt stored = receipts.check(sequence, digest);
        return stored == null ? null : new InputAck(stored.sequence(), stored.state(), true, stored.next());
    }

    /** Consumes the next sequence number for a send whose bytes are about to be written. */
    long accept(byte[] digest) {
        return receipts.accept(digest);
    }

    /** Records that the write of the newest sequence failed part-way (writes happen in sequence order). */
    void outcomeUnknown(long sequence) {
        receipts.outcomeUnknown(sequence);
    }

    static byte[] digest(byte[] payload) {
        return SequenceReceipts.digest(payload);
    }
}
