package dev.lomicontrol.terminal;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.time.Clock;
import java.util.Optional;

/**
 * The admin's hold on one terminal's input ({@link HumanHold}), under the terminal's monitor: taking
 * and releasing it, the holder's keys (written under the PTY's write lock like every write, so they
 * never interleave with an agent's) and the check every agent write makes ({@link #refuseAgents}).
 */
final class TerminalHolds {

    private final Terminal terminal;
    private final TerminalState state;
    private final PtyChannel channel;
    private final Clock clock;

    TerminalHolds(Terminal terminal, TerminalState state, PtyChannel channel, Clock clock) {
        this.terminal = terminal;
        this.state = state;
        this.channel = channel;
        this.clock = clock;
    }

    /** See {@link Terminal#holdForHuman}. */
    HumanHold take(String holder) {
        if (holder == null || holder.isBlank()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "a hold needs a holder");
        }
        synchronized (state.lock) {
            if (state.exited) {
                throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "terminal " + terminal.id() + " has exited");
            }
            HumanHold current = state.human;
            if (current != null) {
                throw new LomiException(
                        ErrorCode.TARGET_BUSY,
                        "terminal " + terminal.id() + " is already attached (" + current.holder() + " since "
                                + current.since() + "); detach there first");
            }
            HumanHold hold = new HumanHold(this, holder, clock.instant());
            state.human = hold;
            return hold;
        }
    }

    Optional<HumanHold> current() {
        synchronized (state.lock) {
            return Optional.ofNullable(state.human);
        }
    }

    void release(HumanHold hold) {
        synchronized (state.lock) {
            if (state.human == hold) {
                state.human = null;
            }
        }
    }

    /** Refuses an agent's write while the admin holds the input (call with the monitor held). */
    static void refuseAgents(TerminalState state) {
        if (state.human != null) {
            throw new LomiException(ErrorCode.TARGET_BUSY, HumanHold.REFUSAL);
        }
    }

    void type(HumanHold hold, byte[] keys) {
        if (keys.length == 0 || keys.length > Terminal.MAX_INPUT_BYTES) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "keys must be 1.." + Terminal.MAX_INPUT_BYTES + " bytes");
        }
        channel.lock();
        try {
            synchronized (state.lock) {
                requireHeld(hold);
                state.shell.input();
            }
            try {
                channel.write(keys);
            } catch (PtyChannel.WriteFailure e) {
                throw new LomiException(
                        ErrorCode.OUTCOME_UNKNOWN,
                        "the keys could not be written (" + e.written + " of " + keys.length + " bytes): "
                                + e.getMessage());
            }
        } finally {
            channel.unlock();
        }
    }

    void resize(HumanHold hold, int columns, int rows) {
        synchronized (state.lock) {
            requireHeld(hold);
        }
        terminal.resize(columns, rows);
    }

    private void requireHeld(HumanHold hold) {
        if (state.human != hold) {
            throw new LomiException(
                    ErrorCode.CONTROL_REVOKED, "the hold on terminal " + terminal.id() + " was released");
        }
        if (state.exited) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "terminal " + terminal.id() + " has exited");
        }
    }
}
