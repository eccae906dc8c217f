package dev.lomicontrol.proof.crash;

import dev.lomicontrol.LomiControl;
import dev.lomicontrol.testing.ChildJvm;
import dev.lomicontrol.testing.Eventually;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * One run of the real headless broker ({@code serve --headless}) in a child JVM on a fixed data
 * directory (also used by {@code proof.cap}). {@link #kill()} is SIGKILL ({@link Process#destroyForcibly()} on Linux): no shutdown
 * hook, no flush, no goodbye to the helper. Each run logs to its own file.
 */
public final class BrokerProcess {

    private static final Pattern DISCOVERY_KEY = Pattern.compile("--discovery-key ([0-9a-f]{64})");
    private static final Pattern RECOVERED = Pattern.compile("(\\d+) unfinished operations marked outcome_unknown");
    private static final long START_SECONDS = 120;

    private final Process process;
    private final Path log;

    private BrokerProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /**
     * Starts a broker on {@code data} with {@code home} as HOME (for its shells) and {@code tmp} as
     * its temp directory; returns once its control and admin sockets are published.
     */
    public static BrokerProcess start(Path data, Path home, Path tmp, Path log) throws Exception {
        return start(data, home, tmp, log, List.of());
    }

    /** As {@link #start(Path, Path, Path, Path)} with more JVM options (e.g. {@code -Dlomi.some.setting=value}). */
    public static BrokerProcess start(Path data, Path home, Path tmp, Path log, List<String> jvmOptions)
            throws Exception {
        ProcessBuilder builder = ChildJvm.builder(
                        LomiControl.class, List.of("serve", "--data-dir", data.toString(), "--headless"))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(log.toFile());
        // the per-run runtime directory (sockets, shell integration) lands in tmp, so the suite can count what killed
        // runs leave
        builder.command().add(1, "-Djava.io.tmpdir=" + tmp);
        builder.command().addAll(2, jvmOptions);
        // the broker's shells get an empty HOME: the machine's own startup files are slow and vary
        builder.environment().put("HOME", home.toString());
        BrokerProcess broker = new BrokerProcess(builder.start(), log);
        broker.await(Pattern.compile("control socket"));
        broker.await(Pattern.compile("admin socket"));
        return broker;
    }

    /** The registration key the helper pins (stable across restarts of one data directory). */
    public String discoveryKey() throws Exception {
        return await(DISCOVERY_KEY);
    }

    /** How many unfinished operations this run's recovery turned into outcome_unknown (its own log line). */
    int recoveredAtStart() throws Exception {
        return Integer.parseInt(await(RECOVERED));
    }

    /** SIGKILL, then waits for the process to be gone; answers the exit status (137 for SIGKILL). */
    int kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("the broker survived SIGKILL for 30 s");
        }
        return process.exitValue();
    }

    /** SIGTERM and a wait for the clean exit (the end of the suite). */
    public void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** {@code lomi-control console --data-dir DATA ARGS…} against the running broker; fails unless it exits 0. */
    public static String console(Path data, Path scratch, String... args) throws Exception {
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
        String output = Files.readString(out);
        if (console.exitValue() != 0) {
            throw new AssertionError(
                    "console " + String.join(" ", args) + " exited " + console.exitValue() + ": " + output);
        }
        return output;
    }

    private String await(Pattern pattern) {
        return Eventually.inLog(log, pattern, process, Duration.ofSeconds(START_SECONDS));
    }
}
