package dev.lomicontrol.testing;

import dev.lomicontrol.LomiControl;
import dev.lomicontrol.console.AdminToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The real headless broker ({@code lomi-control serve --headless}) in a child JVM: the one broker
 * driver of the test suite. Its stderr (the broker's log) goes to its own file: readiness, the
 * discovery key and every failure message come from there; its stdout goes to a sibling file
 * {@code LOG.stdout}. {@link #start()} returns once the ledger is open and the control and admin
 * sockets are published; {@link #kill()} is SIGKILL ({@link Process#destroyForcibly()} on Linux: no
 * shutdown hook, no checkpoint), {@link #stop()} SIGTERM and a wait for the clean exit.
 *
 * <p>Console commands against it run in their own child JVM ({@link #console()}, {@link ConsoleRun}).
 */
public final class BrokerChildProcess implements AutoCloseable {

    /** How long a broker may take to come up (or to refuse), and a console command to finish. */
    public static final Duration START = Duration.ofSeconds(120);

    private static final Pattern DISCOVERY_KEY = Pattern.compile("--discovery-key ([0-9a-f]{64})");
    private static final List<String> READY = List.of("ledger open at", "control socket", "admin socket");

    /** A start the broker refused: its exit status and everything it printed on stderr. */
    public record Refusal(int exitCode, String stderr) {}

    private final Path data;
    private final Path log;
    private final Process process;

    private BrokerChildProcess(Path data, Path log, Process process) {
        this.data = data;
        this.log = log;
        this.process = process;
    }

    /** A broker on {@code data} with the defaults: its log beside {@code data}, the machine's HOME, no extra options. */
    public static Launch on(Path data) {
        return new Launch(data);
    }

    /** Starts a broker on {@code data} with the defaults and waits until it is ready. */
    public static BrokerChildProcess start(Path data) throws IOException {
        return on(data).start();
    }

    /** How one broker run is started; every option may be left out. */
    public static final class Launch {

        private final Path data;
        private Path log;
        private final List<String> jvmOptions = new ArrayList<>();
        private final List<String> wrapper = new ArrayList<>();
        private Consumer<Map<String, String>> environment = env -> {};
        private boolean fullJit;
        private boolean dataDirFlag = true;

        private Launch(Path data) {
            this.data = data;
        }

        /** Where the broker's stderr goes (default: a fresh {@code broker-N.err} beside the data directory). */
        public Launch log(Path log) {
            this.log = log;
            return this;
        }

        /** HOME for the broker and its shells (an empty one: the machine's own startup files are slow and vary). */
        public Launch home(Path home) {
            return environment("HOME", home.toString());
        }

        /** An empty HOME ({@code empty-home} beside the data directory), see {@link #home}. */
        public Launch emptyHome() throws IOException {
            return home(Files.createDirectories(data.toAbsolutePath().resolveSibling("empty-home")));
        }

        /** The broker's temp directory, where its per-run runtime directory (sockets, shell integration) lands. */
        public Launch tmpdir(Path tmp) {
            return jvmOptions(List.of("-Djava.io.tmpdir=" + tmp));
        }

        /** More JVM options, e.g. {@code -Dlomi.some.setting=value} or a debug log level. */
        public Launch jvmOptions(List<String> options) {
            jvmOptions.addAll(options);
            return this;
        }

        /** Runs the JVM under a wrapper command, e.g. {@code fiu-run -x -f FILE} (libfiu fault injection). */
        public Launch wrappedIn(List<String> command) {
            wrapper.addAll(command);
            return this;
        }

        public Launch environment(String name, String value) {
            return environment(env -> env.put(name, value));
        }

        /** Changes the broker's environment (it starts as this JVM's). */
        public Launch environment(Consumer<Map<String, String>> change) {
            environment = environment.andThen(change);
            return this;
        }

        /**
         * Starts {@code serve} without {@code --data-dir}, as a user does: the broker finds its data
         * directory (and its log, under {@code $XDG_STATE_HOME}) from the environment, which must
         * resolve to {@code data}.
         */
        public Launch withoutDataDirFlag() {
            dataDirFlag = false;
            return this;
        }

        /** With {@code true}, the child JVM gets the full JIT instead of C1 only (long runs, TLS-heavy work). */
        public Launch fullJit(boolean full) {
            fullJit = full;
            return this;
        }

        /** Starts the broker and returns once it is ready; fails with its log (and kills it) if it exits or stalls first. */
        public BrokerChildProcess start() throws IOException {
            BrokerChildProcess broker = launch();
            try {
                for (String line : READY) {
                    broker.awaitLog(line);
                }
                return broker;
            } catch (RuntimeException | Error e) {
                broker.process.destroyForcibly();
                throw e;
            }
        }

        /** Starts a broker that must refuse to start; fails if it does not exit within {@link #START}. */
        public Refusal refused() throws IOException, InterruptedException {
            BrokerChildProcess broker = launch();
            if (!broker.process.waitFor(START.toSeconds(), TimeUnit.SECONDS)) {
                broker.kill();
                throw new AssertionError("the broker neither started nor refused within " + START.toSeconds() + " s: "
                        + broker.logText());
            }
            return new Refusal(broker.process.exitValue(), broker.logText());
        }

        private BrokerChildProcess launch() throws IOException {
            Path stderr =
                    log != null ? log : data.toAbsolutePath().resolveSibling("broker-" + System.nanoTime() + ".err");
            Files.createDirectories(stderr.toAbsolutePath().getParent());
            ProcessBuilder builder = ChildJvm.builder(
                    jvmOptions,
                    LomiControl.class,
                    dataDirFlag
                            ? List.of("serve", "--data-dir", data.toString(), "--headless")
                            : List.of("serve", "--headless"));
            List<String> command = new ArrayList<>(wrapper);
            command.addAll(builder.command());
            if (fullJit) {
                command.remove(ChildJvm.C1_ONLY);
            }
            builder.command(command).redirectOutput(stdoutOf(stderr).toFile()).redirectError(stderr.toFile());
            environment.accept(builder.environment());
            return new BrokerChildProcess(data, stderr, builder.start());
        }
    }

    public Path data() {
        return data;
    }

    /** The broker's stderr log of this run. */
    public Path log() {
        return log;
    }

    public Path discoveryFile() {
        return data.resolve("agent-control").resolve("discovery.json");
    }

    public Path tokenFile() {
        return AdminToken.file(data.resolve("agent-control"));
    }

    /** The registration key a helper pins (logged at start; stable across restarts of one data directory). */
    public String discoveryKey() {
        return await(DISCOVERY_KEY);
    }

    /** The arguments after {@code --mcp} that pair a helper with this broker. */
    public List<String> helperArgs() {
        return List.of("--discovery-file", discoveryFile().toString(), "--discovery-key", discoveryKey());
    }

    /** Waits until the log holds {@code text}; fails at once with the log if the broker exits first. */
    public void awaitLog(String text) {
        await(Pattern.compile(Pattern.quote(text)));
    }

    /** Waits until the log matches {@code pattern}; answers group 1 (or the whole match without a group). */
    public String await(Pattern pattern) {
        return Eventually.inLog(log, pattern, process, START);
    }

    /** Everything the broker logged so far. */
    public String logText() throws IOException {
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /** The last {@code chars} characters of the log, read byte for byte (for failure messages). */
    public String logTail(int chars) throws IOException {
        String text = Files.exists(log) ? Files.readString(log, StandardCharsets.ISO_8859_1) : "";
        return text.substring(Math.max(0, text.length() - chars));
    }

    /** Everything the broker wrote on stdout (a headless broker writes nothing). */
    public String stdout() throws IOException {
        return Files.readString(stdoutOf(log));
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The exit status of a broker that has exited. */
    public int exitValue() {
        return process.exitValue();
    }

    /** SIGKILL, then waits for the process to be gone; answers the exit status (137 for SIGKILL). */
    public int kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("the broker survived SIGKILL for 30 s");
        }
        return process.exitValue();
    }

    /** SIGTERM and a wait for the clean exit ({@link #stop(Duration)} within 60 s). */
    public boolean stop() throws InterruptedException {
        return stop(Duration.ofSeconds(60));
    }

    /**
     * SIGTERM and a wait for the clean exit (ledger checkpointed and closed, owner lock released);
     * true when it stopped {@code within}, else it is killed and the answer is false.
     */
    public boolean stop(Duration within) throws InterruptedException {
        process.destroy();
        if (process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS)) {
            return true;
        }
        kill();
        return false;
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    /**
     * Adds {@code project} and turns YOLO on through the real console, so helpers are approved without
     * a human; answers this broker (killed if the console fails).
     */
    public BrokerChildProcess withProjectAndYolo(Path project) throws IOException, InterruptedException {
        try {
            console().mergingStderr().ok("project", "add", project.toString());
            console().mergingStderr().ok("yolo", "on", "--confirm");
            return this;
        } catch (IOException | RuntimeException | Error e) {
            kill();
            throw e;
        }
    }

    /** {@code lomi-control console --data-dir DATA …} against this broker's data directory. */
    public ConsoleRun console() {
        return new ConsoleRun(data);
    }

    /** {@code lomi-control console --data-dir DATA …} against whatever broker (or none) owns {@code data}. */
    public static ConsoleRun console(Path data) {
        return new ConsoleRun(data);
    }

    private static Path stdoutOf(Path log) {
        return log.resolveSibling(log.getFileName() + ".stdout");
    }
}
