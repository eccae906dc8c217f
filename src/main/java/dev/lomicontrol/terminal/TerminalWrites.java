package dev.lomicontrol.terminal;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.util.function.Supplier;

/**
 * Writing to one terminal's shell for the lease holder: a command line at a ready prompt, a Ctrl+C
 * for the latest run, ordered input. Each holds the PTY's write lock for the whole call and decides
 * under the terminal's monitor (lease, prompt, sequence) before it writes outside it; a run's
 * outcome decided meanwhile completes after both are let go. While the admin holds the input
 * ({@link HumanHold}) each is refused with TARGET_BUSY before it writes anything. {@link Terminal}'s write methods are
 * these.
 */
final class TerminalWrites {

    private final Terminal terminal;
    private final TerminalState state;
    private final PtyChannel channel;
    private final Supplier<String> ids;

    TerminalWrites(Terminal terminal, TerminalState state, PtyChannel channel, Supplier<String> ids) {
        this.terminal = terminal;
        this.state = state;
        this.channel = channel;
        this.ids = ids;
    }

    /** See {@link Terminal#run}. */
    CommandRun run(String leaseId, String command) {
        byte[] line = CommandText.validate(command);
        CommandRun run;
        byte[] bytes;
        channel.lock();
        try {
            synchronized (state.lock) {
                state.shell.requireLease(leaseId);
                TerminalHolds.refuseAgents(state);
                state.shell.requireReadyForRun();
                run = new CommandRun(terminal, ids.get(), command, state.output.textEnd());
                state.shell.remember(run);
                state.shell.input();
                bytes = CommandText.frame(line, state.shell.bracketedPaste());
            }
            try {
                channel.write(bytes);
            } catch (PtyChannel.WriteFailure e) {
                Runnable lost = run.settle(new RunOutcome.Lost("the command could not be written: " + e.getMessage()
                        + " after " + e.written + " of " + bytes.length + " bytes"));
                if (lost != null) {
                    lost.run();
                }
            }
        } finally {
            channel.unlock();
            state.runDeferred();
        }
        return run;
    }

    /** See {@link Terminal#interrupt}. */
    void interrupt(CommandRun run, String leaseId) {
        channel.lock();
        try {
            synchronized (state.lock) {
                state.shell.requireLease(leaseId);
                TerminalHolds.refuseAgents(state);
                if (state.shell.latest().orElse(null) != run || !run.startedObserved() || run.completed()) {
                    throw new LomiException(
                            ErrorCode.TARGET_BUSY,
                            "only the latest command, started and not completed, can be interrupted");
                }
                run.markInterruptSent();
            }
            try {
                channel.write(new byte[] {0x03});
            } catch (PtyChannel.WriteFailure e) {
                throw new LomiException(
                        ErrorCode.OUTCOME_UNKNOWN, "the interrupt could not be written: " + e.getMessage());
            }
        } finally {
            channel.unlock();
        }
    }

    /** See {@link Terminal#input}. */
    InputAck input(String leaseId, long inputSequence, byte[] payload) {
        CommandText.validateInput(payload);
        byte[] digest = InputSequencer.digest(payload);
        channel.lock();
        try {
            long sequence;
            synchronized (state.lock) {
                state.shell.requireLease(leaseId);
                TerminalHolds.refuseAgents(state);
                InputAck stored = state.inputs.check(inputSequence, digest);
                if (stored != null) {
                    return stored;
                }
                sequence = state.inputs.accept(digest);
                state.shell.input();
            }
            try {
                channel.write(payload);
                synchronized (state.lock) {
                    return new InputAck(sequence, InputAck.DISPATCHED, false, state.inputs.next());
                }
            } catch (PtyChannel.WriteFailure e) {
                synchronized (state.lock) {
                    state.inputs.outcomeUnknown(sequence);
                    return new InputAck(sequence, InputAck.OUTCOME_UNKNOWN, false, state.inputs.next());
                }
            }
        } finally {
            channel.unlock();
        }
    }

    /** See {@link Terminal#nextInputSequence}. */
    long nextInputSequence() {
        synchronized (state.lock) {
            return state.inputs.next();
        }
    }
}
