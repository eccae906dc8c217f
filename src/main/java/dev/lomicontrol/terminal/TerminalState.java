package dev.lomicontrol.terminal;

import java.util.ArrayList;
import java.util.List;

/**
 * What one {@link Terminal}'s threads share, and the one monitor that guards it: the output rings,
 * the shell's state (prompt, lease, runs), the input sequencer, the exit status and its listeners,
 * and the run outcomes decided under the monitor that must complete outside it. Every field is read
 * and written only while holding {@link #lock}; {@link #runDeferred} is how a caller completes
 * those outcomes after it let go.
 */
final class TerminalState {

    /** The terminal's monitor: the reader thread notifies it when output arrives or the shell exits. */
    final Object lock = new Object();

    // Guarded by lock.
    final TerminalOutput output;
    final ShellState shell = new ShellState();
    final InputSequencer inputs = new InputSequencer();
    final List<Runnable> exitListeners = new ArrayList<>();
    List<Runnable> deferred = new ArrayList<>();
    boolean exited;
    int exitCode;
    /** The admin's hold on the input, if any: agents' writes are refused while it is set. */
    @org.jspecify.annotations.Nullable
    HumanHold human;

    /** What the output scanner reports, applied to {@link #shell} (called with the lock held). */
    final TerminalOutput.Events events = new TerminalOutput.Events() {
        @Override
        public void mark(char kind, int code, long textCursor) {
            shell.mark(kind, code, textCursor, deferred);
        }

        @Override
        public void bracketedPaste(boolean on) {
            shell.bracketedPaste(on);
        }
    };

    TerminalState(int ringBytes) {
        this.output = new TerminalOutput(ringBytes);
    }

    /** Completes run outcomes decided under the lock, outside it. */
    void runDeferred() {
        List<Runnable> actions;
        synchronized (lock) {
            if (deferred.isEmpty()) {
                return;
            }
            actions = deferred;
            deferred = new ArrayList<>();
        }
        actions.forEach(Runnable::run);
    }
}
