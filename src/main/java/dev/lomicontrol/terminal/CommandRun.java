package dev.lomicontrol.terminal;

import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * One single-line command sent by {@link Terminal#run}, and what the shell integration reported
 * about it. Observations (started, completed, exit code, end cursor) keep being recorded even after
 * the outcome settled as lost; the outcome itself completes exactly once.
 */
public final class CommandRun {

    private final Terminal terminal;
    private final String id;
    private final String command;
    private final long startCursor;
    private final CompletableFuture<RunOutcome> outcome = new CompletableFuture<>();

    // Written under the terminal's lock; volatile so readers need no lock.
    private volatile boolean startedObserved;
    private volatile long startedCursor = -1;
    private volatile boolean completed;
    private volatile long endCursor = -1;
    private volatile int exitCode;
    private volatile boolean interruptSent;
    private volatile @Nullable RunOutcome settled;

    CommandRun(Terminal terminal, String id, String command, long startCursor) {
        this.terminal = terminal;
        this.id = id;
        this.command = command;
        this.startCursor = startCursor;
    }

    /** Random 32 lower-case hex. */
    public String id() {
        return id;
    }

    /** The command line exactly as given to {@link Terminal#run}. */
    public String command() {
        return command;
    }

    /** The text-ring offset when the command was sent: its echo and output follow. */
    public long startCursor() {
        return startCursor;
    }

    /** The text-ring offset at OSC 133 C, where the command's own output begins. */
    public OptionalLong startedCursor() {
        long at = startedCursor;
        return at < 0 ? OptionalLong.empty() : OptionalLong.of(at);
    }

    /** The text-ring offset at OSC 133 D (set only when the run completed). */
    public OptionalLong endCursor() {
        long at = endCursor;
        return at < 0 ? OptionalLong.empty() : OptionalLong.of(at);
    }

    /** Whether OSC 133 C (command start) was seen for this run. */
    public boolean startedObserved() {
        return startedObserved;
    }

    /** Whether OSC 133 D with an exit code was seen after the start. */
    public boolean completed() {
        return completed;
    }

    /** The exit code the shell reported, once {@link #completed()}. */
    public OptionalInt exitCode() {
        return completed ? OptionalInt.of(exitCode) : OptionalInt.empty();
    }

    /** Whether {@link Terminal#interrupt} wrote a Ctrl+C for this run. */
    public boolean interruptSent() {
        return interruptSent;
    }

    /** Completes exactly once: {@link RunOutcome.Exited} or {@link RunOutcome.Lost}. */
    public CompletableFuture<RunOutcome> outcome() {
        return outcome.copy();
    }

    Terminal terminal() {
        return terminal;
    }

    /** True until the outcome is decided (the future may complete a moment later). */
    boolean inFlight() {
        return settled == null;
    }

    void markStarted(long cursor) {
        startedObserved = true;
        startedCursor = cursor;
    }

    void markCompleted(int code, long cursor) {
        exitCode = code;
        endCursor = cursor;
        completed = true;
    }

    void markInterruptSent() {
        interruptSent = true;
    }

    /**
     * Decides the outcome if it is not decided yet; returns the action that completes the future,
     * to be run outside the terminal's lock, or null when it was already decided.
     */
    @Nullable
    Runnable settle(RunOutcome result) {
        if (settled != null) {
            return null;
        }
        settled = result;
        return () -> outcome.complete(result);
    }
}
