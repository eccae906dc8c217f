package dev.lomicontrol.proof.fault;

import dev.lomicontrol.LomiControl;
import dev.lomicontrol.testing.ChildJvm;
import dev.lomicontrol.testing.Eventually;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * One run of the real headless broker ({@code lomi-control serve --headless}) in a child JVM, its
 * stderr in its own log file. A run either comes up (control and admin sockets published) or is
 * refused at start ({@link #refusedStart}); {@code prefix} runs the JVM under a wrapper such as
 * {@code fiu-run -x}.
 */
final class BrokerRun {

    /** A start the broker refused: its exit status and everything it printed on stderr. */
    record Refusal(int exitCode, String stderr) {}

    /** What one {@code lomi-control console} command did. */
    record Console(int exitCode, String output) {}

    private static final Pattern DISCOVERY_KEY = Pattern.compile("--discovery-key ([0-9a-f]{64})");
    private static final long START_SECONDS = 120;

    final Path data;
    final Path log;
    private final Process process;

    private BrokerRun(Path data, Path log, Process process) {
        this.data = data;
        this.log = log;
        this.process = process;
    }

    /** Starts a broker on {@code data} and returns once both of its sockets are published. */
    static BrokerRun start(Path data, Path home, Path log, List<String> prefix) throws Exception {
        BrokerRun broker = launch(data, home, log, prefix);
        broker.await(Pattern.compile("admin socket"));
        broker.await(Pattern.compile("control socket"));
        return broker;
    }

    /** Starts a broker that must refuse to start; fails if it comes up or does not exit in time. */
    static Refusal refusedStart(Path data, Path home, Path log) throws Exception {
        BrokerRun broker = launch(data, home, log, List.of());
        if (!broker.process.waitFor(START_SECONDS, TimeUnit.SECONDS)) {
            broker.kill();
            throw new AssertionError(
                    "the broker neither started nor refused within " + START_SECONDS + " s: " + broker.logText());
        }
        return new Refusal(broker.process.exitValue(), broker.logText());
    }

    private static BrokerRun launch(Path data, Path home, Path log, List<String> prefix) throws IOException {
        ProcessBuilder builder =
                ChildJvm.builder(LomiControl.class, List.of("serve", "--data-dir", data.toString(), "--headless"));
        List<String> command = new ArrayList<>(prefix);
        command.addAll(builder.command());
        builder.command(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(log.toFile());
        // the broker's shells get an empty HOME: the machine's own startup files are slow and vary
        builder.environment().put("HOME", home.toString());
        return new BrokerRun(data, log, builder.start());
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** The key the helper pins (stable for one data directory). */
    String discoveryKey() throws Exception {
        return await(DISCOVERY_KEY);
    }

    Path discoveryFile() {
        return data.resolve("agent-control").resolve("discovery.json");
    }

    String logText() throws IOException {
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /** Waits until the log holds {@code text} (the broker's own words to the admin). */
    void awaitLog(String text) throws Exception {
        await(Pattern.compile(Pattern.quote(text)));
    }

    /** {@code lomi-control console --data-dir DATA ARGS...} against this broker. */
    Console console(Path scratch, String... args) throws Exception {
        List<String> arguments = new ArrayList<>(List.of("console", "--data-dir", data.toString()));
        arguments.addAll(List.of(args));
        Path out = Files.createTempFile(scratch, "console", ".out");
        Process console = ChildJvm.builder(LomiControl.class, arguments)
                .redirectOutput(out.toFile())
                .redirectErrorStream(true)
                .start();
        console.getOutputStream().close();
        if (!console.waitFor(120, TimeUnit.SECONDS)) {
            console.destroyForcibly();
            throw new AssertionError("console " + String.join(" ", args) + " did not finish");
        }
        return new Console(console.exitValue(), Files.readString(out));
    }

    /** Runs a console command that must succeed; answers its output. */
    String consoleOk(Path scratch, String... args) throws Exception {
        Console result = console(scratch, args);
        if (result.exitCode() != 0) {
            throw new AssertionError(
                    "console " + String.join(" ", args) + " exited " + result.exitCode() + ": " + result.output());
        }
        return result.output();
    }

    /** SIGKILL: no shutdown hook, no checkpoint; the store is left as a crash leaves it. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("the broker survived SIGKILL for 30 s");
        }
    }

    /** SIGTERM and a wait for the clean exit (ledger checkpointed and closed, owner lock released). */
    void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            kill();
        }
    }

    private String await(Pattern pattern) {
        return Eventually.inLog(log, pattern, process, Duration.ofSeconds(START_SECONDS));
    }
}
