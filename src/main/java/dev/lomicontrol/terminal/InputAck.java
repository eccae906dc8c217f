package dev.lomicontrol.terminal;

/**
 * The acknowledgement of one ordered input.
 *
 * @param inputSequence the sequence number acknowledged
 * @param state {@code "dispatched"} (all bytes written to the PTY) or {@code "outcome_unknown"} (the
 *     write failed; some bytes may have reached the shell)
 * @param repeated true when this is the stored acknowledgement of an earlier identical send; nothing
 *     was written this time
 * @param nextInputSequence the number the next new input must carry
 */
public record InputAck(long inputSequence, String state, boolean repeated, long nextInputSequence) {

    /** All bytes were written. */
    public static final String DISPATCHED = "dispatched";

    /** The write failed part-way or at an unknown point. */
    public static final String OUTCOME_UNKNOWN = "outcome_unknown";
}
