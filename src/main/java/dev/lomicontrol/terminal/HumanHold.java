package dev.lomicontrol.terminal;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.time.Instant;

/**
 * The admin holding one terminal's input (the console's {@code terminal attach}): while it is held,
 * an agent's input, command run and interrupt are refused with {@link ErrorCode#TARGET_BUSY}
 * ({@link #REFUSAL}), checked at the moment of writing; the agent's lease, its input sequence and
 * the ledger are untouched, so the same lease works again once the hold is released. One hold at a
 * time; {@link #close} releases it (idempotent). Made by {@link Terminal#holdForHuman}.
 */
public final class HumanHold implements AutoCloseable {

    /** What an agent is told while the admin holds the input. */
    public static final String REFUSAL =
            "the admin holds this terminal's input (console terminal attach); call again after they detach";

    private final TerminalHolds holds;
    private final String holder;
    private final Instant since;

    HumanHold(TerminalHolds holds, String holder, Instant since) {
        this.holds = holds;
        this.holder = holder;
        this.since = since;
    }

    /** Who holds it, as the console named it (e.g. {@code "console pid 1234"}). */
    public String holder() {
        return holder;
    }

    public Instant since() {
        return since;
    }

    /** Whether this is still the terminal's hold. */
    public boolean isHeld() {
        return holds.current().filter(h -> h == this).isPresent();
    }

    /**
     * Types {@code keys} (1..64 KiB, any bytes) into the shell, in order with every other write; the
     * prompt is not ready until the next command boundary, as after any input.
     *
     * @throws LomiException CONTROL_REVOKED once this hold was released; TARGET_NOT_FOUND after the
     *     shell exited; OUTCOME_UNKNOWN when the PTY write failed
     */
    public void type(byte[] keys) {
        holds.type(this, keys);
    }

    /** Resizes the PTY and the screen (1..1024 each) for the holder; CONTROL_REVOKED once released. */
    public void resize(int columns, int rows) {
        holds.resize(this, columns, rows);
    }

    /** Releases the hold if it is still this one; agents may type again. */
    @Override
    public void close() {
        holds.release(this);
    }

    @Override
    public String toString() {
        return "HumanHold[" + holder + " since " + since + "]";
    }
}
