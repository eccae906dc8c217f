package dev.lomicontrol.terminal;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.time.Duration;

/**
 * Reading one terminal's output: pages of the text and raw rings and of a command run's text, the
 * rings' ends, and the long-poll wait for new text that the reader thread's notify on the terminal's
 * monitor ends. Reads keep working after the shell exited (a page then says so).
 * {@link Terminal}'s read methods are these.
 */
final class TerminalReads {

    private final Terminal terminal;
    private final TerminalState state;

    TerminalReads(Terminal terminal, TerminalState state) {
        this.terminal = terminal;
        this.state = state;
    }

    /** See {@link Terminal#readText}. */
    OutputPage readText(long cursor, int maxBytes) {
        synchronized (state.lock) {
            return state.output.readText(cursor, maxBytes, state.exited);
        }
    }

    /** See {@link Terminal#readRaw}. */
    OutputPage readRaw(long cursor, int maxBytes) {
        synchronized (state.lock) {
            return state.output.readRaw(cursor, maxBytes, state.exited);
        }
    }

    /** See {@link Terminal#readCommand}. */
    OutputPage readCommand(CommandRun run, long cursor, int maxBytes) {
        if (run == null || run.terminal() != terminal) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND, "the command run does not belong to terminal " + terminal.id());
        }
        synchronized (state.lock) {
            return state.output.readCommand(run, cursor, maxBytes, state.exited);
        }
    }

    /** See {@link Terminal#streamSequence}. */
    long streamSequence() {
        synchronized (state.lock) {
            return state.output.rawEnd();
        }
    }

    /** See {@link Terminal#textEnd}. */
    long textEnd() {
        synchronized (state.lock) {
            return state.output.textEnd();
        }
    }

    /** See {@link Terminal#awaitText}. */
    boolean awaitText(long cursor, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (state.lock) {
            while (state.output.textEnd() <= cursor && !state.exited) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                state.lock.wait(Math.max(1, left / 1_000_000));
            }
            return state.output.textEnd() > cursor;
        }
    }
}
