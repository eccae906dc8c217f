package dev.lomicontrol.terminal;

import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.terminal.screen.Screen;
import dev.lomicontrol.terminal.screen.ScreenSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One shell in a real PTY, observed by a dedicated reader thread that blocks on the PTY (an idle
 * terminal costs no CPU). Output goes to a raw ring, a normalized text ring and the screen
 * emulator; OSC 133 marks drive the prompt state and settle command runs. Input needs the current
 * lease. Reads keep working after the shell exited. Leases, writes and reads are {@link TerminalLeases},
 * {@link TerminalWrites} and {@link TerminalReads}, sharing this terminal's one monitor ({@link TerminalState}).
 */
public final class Terminal {

    static final int MAX_COMMAND_BYTES = 16 * 1024;
    static final int MAX_INPUT_BYTES = 64 * 1024;
    static final int MAX_PAGE_BYTES = 65536;
    private static final Duration HANGUP_GRACE = Duration.ofSeconds(1);
    private static final Duration KILL_WAIT = Duration.ofSeconds(5);
    private static final Logger log = LoggerFactory.getLogger(Terminal.class);

    private final String id;
    private final String profile;
    private final Path startDirectory;
    private final PtyChannel channel;
    private final Screen screen;
    private final PtyReader reader;
    private final CountDownLatch finished = new CountDownLatch(1);
    private final ChangeListeners changes;

    /** The monitor and all it guards; the parts below share it. */
    private final TerminalState state;

    private final Object lock;
    private final TerminalLeases leases;
    private final TerminalWrites writes;
    private final TerminalReads reads;
    private final TerminalHolds holds;

    Terminal(
            String id,
            String profile,
            Path cwd,
            PtyChannel channel,
            Screen screen,
            int ringBytes,
            Supplier<String> ids) {
        this.id = id;
        this.profile = profile;
        this.startDirectory = cwd;
        this.channel = channel;
        this.screen = screen;
        this.state = new TerminalState(ringBytes);
        this.lock = state.lock;
        this.leases = new TerminalLeases(state, ids);
        this.writes = new TerminalWrites(this, state, channel, ids);
        this.reads = new TerminalReads(this, state);
        this.holds = new TerminalHolds(this, state, channel, java.time.Clock.systemUTC());
        this.changes = new ChangeListeners(id);
        this.reader = new PtyReader(id, channel, screen, this::received, this::ended);
    }

    void startReading() {
        reader.start();
    }

    long bytesWritten() {
        return channel.bytesWritten();
    }

    Thread readerThread() {
        return reader.thread();
    }

    /** The terminalSessionId: random 32 lower-case hex. */
    public String id() {
        return id;
    }

    /** "bash" or "zsh". */
    public String profile() {
        return profile;
    }

    /** The shell's process id. */
    public long shellPid() {
        return channel.pid();
    }

    /** The shell's current directory while it runs (read from /proc), else the directory it started in. */
    public Path cwd() {
        try {
            if (isAlive()) {
                return Files.readSymbolicLink(Path.of("/proc", Long.toString(channel.shellPid()), "cwd"));
            }
        } catch (IOException | UnsupportedOperationException e) { // not Linux, or the shell just exited
        }
        return startDirectory;
    }

    /** False once the shell's exit has been observed. */
    public boolean isAlive() {
        synchronized (lock) {
            return !state.exited;
        }
    }

    /** The shell's exit status once it exited (128 + signal number when a signal ended it). */
    public OptionalInt exitCode() {
        synchronized (lock) {
            return state.exited ? OptionalInt.of(state.exitCode) : OptionalInt.empty();
        }
    }

    /** The prompt state now (see {@link PromptState}); only READY lets {@link #run} proceed. */
    public PromptState prompt() {
        synchronized (lock) {
            return state.shell.prompt();
        }
    }

    /** Whether the application turned bracketed paste on (CSI ? 2004 h); {@link #run} then wraps the command. */
    public boolean bracketedPaste() {
        synchronized (lock) {
            return state.shell.bracketedPaste();
        }
    }

    /** The newest command run, if any. */
    public Optional<CommandRun> latest() {
        synchronized (lock) {
            return state.shell.latest();
        }
    }

    /** One of the last {@value ShellState#RETAINED_RUNS} runs, by id. */
    public Optional<CommandRun> command(String runId) {
        synchronized (lock) {
            return state.shell.command(runId);
        }
    }

    /** Grants a new lease to {@code holder}, revoking the previous one. CONTROL_REVOKED once the shell exited. */
    public Lease grantLease(String holder) {
        return leases.grant(holder);
    }

    /** The live lease, if any. */
    public Optional<Lease> lease() {
        return leases.current();
    }

    /** Revokes the current lease, whoever holds it; a run in flight settles as lost. */
    public void revokeLease(String reason) {
        leases.revoke(reason);
    }

    /** Revokes the current lease if {@code holder} holds it. */
    public void revokeLeasesOf(String holder, String reason) {
        leases.revokeOf(holder, reason);
    }

    /**
     * Checks a command line as {@link #run} will, before anything is started.
     *
     * @throws LomiException INVALID_ARGUMENT for empty, multi-line, control-character or over-16-KiB text
     */
    public static void validateCommand(String command) {
        CommandText.validate(command);
    }

    /**
     * Types one single-line command and Enter at a ready prompt, as one write (inside bracketed-paste
     * markers when that mode is on). The run settles by the exit code the shell reports, or as lost.
     *
     * @throws LomiException INVALID_ARGUMENT for empty, multi-line, control-character or over-16-KiB
     *     text; CONTROL_REVOKED without the current lease (or after exit); TARGET_BUSY while a run is
     *     in flight or a command runs, or the admin holds the input; PROMPT_STATE_UNKNOWN when the prompt is not ready
     */
    public CommandRun run(String leaseId, String command) {
        return writes.run(leaseId, command);
    }

    /**
     * Writes one Ctrl+C for {@code run}, which must be the latest run, started and not completed.
     * Reports dispatch only; the run settles when the shell reports its exit.
     *
     * @throws LomiException CONTROL_REVOKED without the lease; TARGET_BUSY when the run is not the
     *     latest, not started or already completed, or the admin holds the input
     */
    public void interrupt(CommandRun run, String leaseId) {
        writes.interrupt(run, leaseId);
    }

    /**
     * Writes {@code payload} (1..64 KiB, no NUL) as ordered input number {@code inputSequence}; a
     * repeat of an earlier number with the same payload returns its stored acknowledgement and writes
     * nothing. Any input makes the prompt not ready until the next command boundary.
     *
     * @throws LomiException INVALID_ARGUMENT for a bad payload; CONTROL_REVOKED without the lease;
     *     TARGET_BUSY while the admin holds the input; REVISION_CONFLICT for a number other than the next; IDEMPOTENCY_CONFLICT for a repeat with
     *     another payload; CURSOR_EXPIRED for a repeat older than the last 64 acknowledgements
     */
    public InputAck input(String leaseId, long inputSequence, byte[] payload) {
        return writes.input(leaseId, inputSequence, payload);
    }

    /** The number the next new {@link #input} must carry (1 at first). */
    public long nextInputSequence() {
        return writes.nextInputSequence();
    }

    /** A page of normalized text (escape sequences and control characters removed). */
    public OutputPage readText(long cursor, int maxBytes) {
        return reads.readText(cursor, maxBytes);
    }

    /** A page of the raw PTY bytes (may end inside a UTF-8 character). */
    public OutputPage readRaw(long cursor, int maxBytes) {
        return reads.readRaw(cursor, maxBytes);
    }

    /**
     * A page of the text between the run's start cursor and its end cursor (or the text ring's end
     * while it has none); {@code cursor} -1 means the run's start. {@code end} is true when the page
     * reaches that limit.
     */
    public OutputPage readCommand(CommandRun run, long cursor, int maxBytes) {
        return reads.readCommand(run, cursor, maxBytes);
    }

    /** What the screen shows now. */
    public ScreenSnapshot screen() {
        return screen.snapshot();
    }

    /** Total raw bytes read from the PTY so far. */
    public long streamSequence() {
        return reads.streamSequence();
    }

    /** The end of the text ring now (the cursor a fresh reader would start waiting at). */
    public long textEnd() {
        return reads.textEnd();
    }

    /**
     * Waits until the text ring extends past {@code cursor}, the shell exits, or {@code timeout}
     * passes; returns whether text past {@code cursor} is there. For long-polling reads.
     */
    public boolean awaitText(long cursor, Duration timeout) throws InterruptedException {
        return reads.awaitText(cursor, timeout);
    }

    /**
     * Waits up to {@code timeout} until the shell's exit was observed and handled (lease revoked,
     * run outcomes completed, exit listeners run); returns whether it was.
     */
    public boolean awaitExit(Duration timeout) throws InterruptedException {
        if (Thread.currentThread() == reader.thread()) {
            return !isAlive();
        }
        return finished.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * Resizes the PTY and the screen (1..1024 each). The shell redraws its prompt, and a redraw is
     * not a fresh prompt: the prompt is not {@link PromptState#READY} again until the next command
     * boundary (an input of a lone CR gives one).
     */
    public void resize(int columns, int rows) {
        Terminals.checkSize(columns, rows);
        channel.resize(columns, rows);
        screen.resize(columns, rows);
    }

    /** Runs {@code listener} once when the shell's exit has been observed (at once if it already was). */
    public void addExitListener(Runnable listener) {
        synchronized (lock) {
            if (!state.exited) {
                state.exitListeners.add(listener);
                return;
            }
        }
        listener.run();
    }

    /**
     * Runs {@code listener} after every chunk of output was stored (prompt state and runs updated)
     * and once more when the shell's exit was handled — on the reader thread, so it must not block
     * (it wakes waiting reads). Returns the handle that removes it.
     */
    public Runnable onChange(Runnable listener) {
        return changes.add(listener);
    }

    /**
     * The admin takes the input (console {@code terminal attach}) until the hold is closed: see
     * {@link HumanHold}. TARGET_BUSY while another hold is taken; TARGET_NOT_FOUND after exit.
     */
    public HumanHold holdForHuman(String holder) {
        return holds.take(holder);
    }

    /** The admin's hold on the input, while there is one. */
    public Optional<HumanHold> humanHold() {
        return holds.current();
    }

    /** Ends the shell: SIGHUP, then SIGKILL after a short grace, then SIGKILL to what it started that still lives; returns once the exit was observed (or after ~6 s). */
    public void kill() {
        List<ProcessHandle> descendants = ProcessHandle.of(shellPid())
                .map(shell -> shell.descendants().toList())
                .orElse(List.of());
        hangup();
        try {
            if (!awaitExit(HANGUP_GRACE)) {
                channel.forceKill();
                awaitExit(KILL_WAIT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // a job that ignored the hangup (or was not told) does not outlive its terminal; the handles
        // carry their start time, so a reused pid is never hit
        descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    void hangup() {
        if (isAlive()) {
            channel.hangup();
        }
    }

    void forceKill() {
        if (isAlive()) {
            channel.forceKill();
        }
    }

    /** Stores a chunk of output (reader thread). */
    private void received(byte[] buffer, int length) {
        List<Runnable> actions = null;
        synchronized (lock) {
            state.output.append(buffer, length, state.events);
            lock.notifyAll();
            if (!state.deferred.isEmpty()) {
                actions = state.deferred;
                state.deferred = new ArrayList<>();
            }
        }
        if (actions != null) {
            actions.forEach(Runnable::run);
        }
        changes.changed();
    }

    /** The shell exited (reader thread): the lease dies, a run in flight is lost, listeners run once. */
    private void ended(int code) {
        List<Runnable> listeners;
        synchronized (lock) {
            state.shell.exited(code, state.deferred);
            state.exitCode = code;
            state.exited = true;
            listeners = List.copyOf(state.exitListeners);
            state.exitListeners.clear();
            lock.notifyAll();
        }
        state.runDeferred();
        for (Runnable listener : listeners) {
            try {
                listener.run();
            } catch (RuntimeException e) {
                log.warn("terminal {}: an exit listener failed", id, e);
            }
        }
        finished.countDown();
        changes.changed();
    }

    @Override
    public String toString() {
        return "Terminal[" + id + ", " + profile + ", pid " + shellPid() + "]";
    }
}
