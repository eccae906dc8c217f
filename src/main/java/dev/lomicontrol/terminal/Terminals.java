package dev.lomicontrol.terminal;

import com.pty4j.PtyProcess;
import com.pty4j.PtyProcessBuilder;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.terminal.screen.Screen;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.random.RandomGenerator;

/**
 * The terminal engine's entry point: starts shells in real PTYs with the OSC 133 integration,
 * keeps at most {@link TerminalOptions#maxTerminals()} of them (live, or exited and still
 * readable; the oldest exited one makes room first), and ends them all on close.
 */
public final class Terminals implements AutoCloseable {

    static final int MAX_SIZE = 1024;
    private static final Duration HANGUP_GRACE = Duration.ofSeconds(1);
    private static final Duration KILL_WAIT = Duration.ofSeconds(5);

    private final TerminalOptions options;
    private final RandomGenerator random;
    private final Map<String, String> environmentOverrides;
    private final ShellIntegration integration;
    private final TerminalSandbox sandbox;
    private final Map<Path, Integer> placeholderUsers = new java.util.HashMap<>();
    private @org.jspecify.annotations.Nullable Path placeholderRecord;
    private final Map<String, Terminal> terminals = new LinkedHashMap<>();
    private int starting;
    private boolean closed;

    /**
     * Writes the shell integration into {@code options.integrationDirectory()}.
     *
     * @param random source of terminal, lease and run ids (a {@link java.security.SecureRandom} in production)
     * @param sandbox how shells are confined (or the admin's explicit opt-out)
     */
    public Terminals(TerminalOptions options, RandomGenerator random, TerminalSandbox sandbox) {
        this(options, random, sandbox, Map.of());
    }

    /**
     * {@code environmentOverrides} are set in every shell on top of the allow-listed variables it
     * inherits (tests give shells an empty HOME this way).
     */
    public Terminals(
            TerminalOptions options,
            RandomGenerator random,
            TerminalSandbox sandbox,
            Map<String, String> environmentOverrides) {
        this.options = options;
        this.sandbox = sandbox;
        this.random = random;
        this.environmentOverrides = Map.copyOf(environmentOverrides);
        this.integration = new ShellIntegration(options.integrationDirectory());
    }

    /**
     * Keeps the list of the sandbox placeholders this engine creates in {@code record} (a file in
     * the broker's data directory), after first removing the ones an earlier run listed there and
     * left behind because it was killed (security review 2026-12-06, N10). Call it at start, before
     * any terminal starts.
     *
     * @return how many stale placeholders were removed
     */
    public int recordPlaceholdersIn(Path record) {
        synchronized (placeholderUsers) {
            int removed = SandboxPlaceholders.sweep(record);
            placeholderRecord = record;
            return removed;
        }
    }

    /** The file name of the placeholder record in the data directory. */
    public static String placeholderRecordName() {
        return SandboxPlaceholders.FILE;
    }

    private void recordPlaceholders() {
        Path record = placeholderRecord;
        if (record != null) {
            SandboxPlaceholders.write(record, placeholderUsers.keySet());
        }
    }

    /** How shells are confined. */
    public TerminalSandbox sandbox() {
        return sandbox;
    }

    /** The profiles whose shell is installed here: "bash" (always expected), and "zsh" when present. */
    public static List<String> installedProfiles() {
        return ShellIntegration.installed();
    }

    /**
     * Starts a real shell in a PTY with shell integration injected.
     *
     * @throws LomiException INVALID_ARGUMENT for an unknown profile, a cwd that is not a directory or
     *     a size outside 1..1024; UNSUPPORTED_CAPABILITY for a profile not installed;
     *     RESOURCE_EXHAUSTED beyond the cap; APP_CLOSING after {@link #close()}; APP_UNAVAILABLE when
     *     the PTY or the shell cannot be started
     */
    public Terminal start(String profile, Path cwd, int columns, int rows) {
        return start(profile, cwd, cwd, columns, rows, options.ringBytes());
    }

    /**
     * As {@link #start(String, Path, int, int)} in the project {@code projectRoot} (the folder the
     * sandbox opens for writing; {@code cwd} lies inside it) with output rings of {@code ringBytes}
     * each (4 KiB..64 MiB; the scrollback setting).
     *
     * @throws LomiException also HOST_UNQUALIFIED when the sandbox is on and bubblewrap is missing or cannot create one
     */
    public Terminal start(String profile, Path projectRoot, Path cwd, int columns, int rows, int ringBytes) {
        if (ringBytes < 4096 || ringBytes > 64 * 1024 * 1024) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "ringBytes must be 4 KiB..64 MiB, not " + ringBytes);
        }
        if (!ShellIntegration.BASH.equals(profile) && !ShellIntegration.ZSH.equals(profile)) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "unknown terminal profile " + profile + "; use bash or zsh");
        }
        Path shell = ShellIntegration.executable(profile)
                .orElseThrow(() -> new LomiException(
                        ErrorCode.UNSUPPORTED_CAPABILITY, profile + " is not installed on this host"));
        if (cwd == null || !Files.isDirectory(cwd)) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "the working directory " + cwd + " is not a directory");
        }
        checkSize(columns, rows);
        sandbox.requireUsable();
        reserveSlot();
        Terminal terminal;
        try {
            terminal =
                    spawn(profile, shell, projectRoot.toAbsolutePath(), cwd.toAbsolutePath(), columns, rows, ringBytes);
        } catch (IOException | RuntimeException e) {
            synchronized (this) {
                starting--;
            }
            throw e instanceof LomiException lomi
                    ? lomi
                    : new LomiException(
                            ErrorCode.APP_UNAVAILABLE,
                            "the " + profile + " shell could not be started: " + e.getMessage(),
                            e);
        }
        boolean refused;
        synchronized (this) {
            starting--;
            refused = closed;
            if (!refused) {
                terminals.put(terminal.id(), terminal);
            }
        }
        if (refused) {
            terminal.kill();
            throw new LomiException(ErrorCode.APP_CLOSING, "the terminal engine is closing");
        }
        return terminal;
    }

    /**
     * Starts a shell as {@link #start(String, Path, Path, int, int, int)} and hands it to {@code place},
     * which records where it shows (a panel, a lease) and answers what the caller needs; when
     * {@code place} fails the shell is killed and the failure rethrown, so no shell runs that nothing
     * shows. lomi_terminal_create and the console's {@code terminal new} both start shells this way.
     */
    public <T> T startPlaced(
            String profile,
            Path projectRoot,
            Path cwd,
            int columns,
            int rows,
            int ringBytes,
            Function<Terminal, T> place) {
        Terminal terminal = start(profile, projectRoot, cwd, columns, rows, ringBytes);
        try {
            return place.apply(terminal);
        } catch (RuntimeException e) {
            terminal.kill();
            throw e;
        }
    }

    /**
     * A shell of {@code profile} can start here: it is installed (else UNSUPPORTED_CAPABILITY naming
     * the installed ones) and the sandbox, when on, is usable (else HOST_UNQUALIFIED).
     */
    public void requireStartable(String profile) {
        if (!installedProfiles().contains(profile)) {
            throw new LomiException(
                    ErrorCode.UNSUPPORTED_CAPABILITY,
                    "the " + profile + " profile is not installed on this host; use "
                            + String.join(" or ", installedProfiles()));
        }
        sandbox.requireUsable();
    }

    private Terminal spawn(String profile, Path shell, Path root, Path cwd, int columns, int rows, int ringBytes)
            throws IOException {
        String id = newId();
        TerminalSandbox.Wrapped wrapped;
        List<Path> placeholders = new java.util.ArrayList<>();
        synchronized (placeholderUsers) {
            // a placeholder another live sandbox created counts this one as a user too, so it outlives both
            wrapped = sandbox.wrap(
                    List.of(integration.command(profile, shell, columns, rows)), root, cwd, integration.directory());
            for (Path entry : wrapped.guarded()) {
                if (wrapped.created().contains(entry) || placeholderUsers.containsKey(entry)) {
                    placeholderUsers.merge(entry, 1, Integer::sum);
                    placeholders.add(entry);
                }
            }
            recordPlaceholders();
        }
        PtyProcess process;
        try {
            Map<String, String> environment = integration.environment(
                    profile, id, environmentOverrides, sandbox.policy().passedVariables());
            // the project's caches (N5); MAVEN_OPTS the admin let through keeps its options, ours come last and win
            wrapped.environment()
                    .forEach((name, value) -> environment.merge(
                            name, value, (passed, own) -> name.equals("MAVEN_OPTS") ? passed + " " + own : own));
            process = new PtyProcessBuilder(wrapped.command().toArray(String[]::new))
                    .setEnvironment(environment)
                    .setDirectory(cwd.toString())
                    .setInitialColumns(columns)
                    .setInitialRows(rows)
                    .setConsole(false)
                    .start();
        } catch (IOException | RuntimeException e) {
            release(placeholders);
            throw e;
        }
        Terminal terminal = new Terminal(
                id,
                profile,
                cwd,
                new PtyChannel(process, sandbox.enabled()),
                new Screen(columns, rows),
                ringBytes,
                this::newId);
        terminal.addExitListener(() -> release(placeholders));
        terminal.startReading();
        return terminal;
    }

    /** A shell that used these placeholders ended: each is removed once no live sandbox uses it. */
    private void release(List<Path> placeholders) {
        List<Path> unused = new java.util.ArrayList<>();
        synchronized (placeholderUsers) {
            for (Path path : placeholders) {
                if (placeholderUsers.merge(path, -1, Integer::sum) <= 0) {
                    placeholderUsers.remove(path);
                    unused.add(path);
                }
            }
            TerminalSandbox.removePlaceholders(unused);
            recordPlaceholders();
        }
    }

    /** Takes a slot, first dropping the oldest exited terminals when at the cap. */
    private synchronized void reserveSlot() {
        if (closed) {
            throw new LomiException(ErrorCode.APP_CLOSING, "the terminal engine is closing");
        }
        Iterator<Terminal> oldestFirst = terminals.values().iterator();
        while (terminals.size() + starting >= options.maxTerminals() && oldestFirst.hasNext()) {
            if (!oldestFirst.next().isAlive()) {
                oldestFirst.remove();
            }
        }
        if (terminals.size() + starting >= options.maxTerminals()) {
            throw new LomiException(
                    ErrorCode.RESOURCE_EXHAUSTED,
                    "at most " + options.maxTerminals() + " terminals may be open at once");
        }
        starting++;
    }

    /** A kept terminal (live, or exited and not yet dropped) by its terminalSessionId. */
    public synchronized Optional<Terminal> find(String terminalSessionId) {
        return Optional.ofNullable(terminals.get(terminalSessionId));
    }

    /** Every terminal kept, oldest first (exited ones included until they make room). */
    public synchronized List<Terminal> all() {
        return List.copyOf(terminals.values());
    }

    /** Ends the terminal's shell (if alive) and forgets it; false when no such terminal is kept. */
    public boolean remove(String terminalSessionId) {
        Terminal terminal;
        synchronized (this) {
            terminal = terminals.remove(terminalSessionId);
        }
        if (terminal == null) {
            return false;
        }
        terminal.kill();
        return true;
    }

    /** Ends every shell: SIGHUP to all, then SIGKILL to those still alive after a short grace. */
    @Override
    public void close() {
        List<Terminal> live;
        synchronized (this) {
            closed = true;
            live = List.copyOf(terminals.values());
        }
        live.forEach(Terminal::hangup);
        try {
            long deadline = System.nanoTime() + HANGUP_GRACE.toNanos();
            for (Terminal terminal : live) {
                terminal.awaitExit(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            }
            live.forEach(Terminal::forceKill);
            for (Terminal terminal : live) {
                terminal.awaitExit(KILL_WAIT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void checkSize(int columns, int rows) {
        if (columns < 1 || columns > MAX_SIZE || rows < 1 || rows > MAX_SIZE) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    "columns and rows must be 1.." + MAX_SIZE + ", not " + columns + "x" + rows);
        }
    }

    private String newId() {
        synchronized (random) {
            return Ids.randomHex(random, 16);
        }
    }
}
