package dev.lomicontrol.proof.fuzz;

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
 * A real headless broker ({@code serve}) in a child JVM with one project and YOLO on (set through
 * the real console), so helpers and fuzz clients are approved without a human.
 */
final class FuzzBroker implements AutoCloseable {

    private static final Pattern KEY = Pattern.compile("--discovery-key ([0-9a-f]{64})");
    private static final long START_SECONDS = 120;

    final Path data;
    final Path project;
    final Path stderr;
    final Process process;
    final String key;

    private FuzzBroker(Path data, Path project, Path stderr, Process process, String key) {
        this.data = data;
        this.project = project;
        this.stderr = stderr;
        this.process = process;
        this.key = key;
    }

    /** Starts the broker under {@code dir}, adds {@code dir/project} and turns YOLO on. */
    static FuzzBroker start(Path dir) throws Exception {
        Path data = dir.resolve("data");
        Path stderr = dir.resolve("broker.err");
        ProcessBuilder builder = ChildJvm.builder(
                        LomiControl.class, List.of("serve", "--data-dir", data.toString(), "--headless"))
                .redirectOutput(dir.resolve("broker.out").toFile())
                .redirectError(stderr.toFile());
        // why each fuzz connection ended is logged at debug; keep it, it names the fault when a call goes unanswered
        builder.command().add(1, "-Dlogging.level.dev.lomicontrol.broker.ControlConnection=DEBUG");
        fullJitIfAsked(builder.command());
        // the broker's shells get an empty HOME: the machine's own startup files are slow and not under test
        builder.environment()
                .put("HOME", Files.createDirectories(dir.resolve("empty-home")).toString());
        Process process = builder.start();
        try {
            String key = await(stderr, KEY, process);
            await(stderr, Pattern.compile("admin socket"), process);
            Path project = Files.createDirectories(dir.resolve("project")).toRealPath();
            FuzzBroker broker = new FuzzBroker(data, project, stderr, process, key);
            broker.console(dir, "project", "add", project.toString());
            broker.console(dir, "yolo", "on", "--confirm");
            return broker;
        } catch (Exception | AssertionError e) {
            process.destroyForcibly();
            throw e;
        }
    }

    private static FuzzBroker shared;

    /**
     * One broker for every fuzz test class in this JVM, started on first use and stopped when the
     * JVM exits: starting a broker and running the console twice costs more than the short fuzz
     * runs themselves, and CI gives this suite a minute. The fuzz never changes what it relies on
     * (the project and YOLO).
     */
    static synchronized FuzzBroker shared() throws Exception {
        if (shared == null || !shared.isAlive()) {
            Path dir = Files.createTempDirectory("lomi-fuzz-broker");
            FuzzBroker started = start(dir);
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(
                            () -> {
                                try {
                                    started.close();
                                    try (java.util.stream.Stream<Path> paths = Files.walk(dir)) {
                                        paths.sorted(java.util.Comparator.reverseOrder())
                                                .forEach(path -> path.toFile().delete());
                                    }
                                } catch (Exception e) {
                                    // best effort at exit
                                }
                            },
                            "fuzz-broker-stop"));
            shared = started;
        }
        return shared;
    }

    Path discoveryFile() {
        return data.resolve("agent-control/discovery.json");
    }

    /** The helper arguments that pair with this broker. */
    List<String> helperArgs() {
        return List.of("--discovery-file", discoveryFile().toString(), "--discovery-key", key);
    }

    /**
     * Child JVMs start with C1 only, which suits short runs; long runs ({@code -Dlomi.fuzz.fullJit=true},
     * set by bench/fuzz.sh) get the full JIT, or TLS handshakes dominate the run.
     */
    static void fullJitIfAsked(List<String> command) {
        if (Boolean.getBoolean("lomi.fuzz.fullJit")) {
            command.remove("-XX:TieredStopAtLevel=1");
        }
    }

    /** The last {@code chars} characters of the broker's stderr (its log). */
    String stderrTail(int chars) throws java.io.IOException {
        String log = new String(Files.readAllBytes(stderr), java.nio.charset.StandardCharsets.ISO_8859_1);
        return log.substring(Math.max(0, log.length() - chars));
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Runs {@code console ARGS} against this broker; fails unless it exits 0. */
    String console(Path dir, String... args) throws Exception {
        List<String> arguments = new ArrayList<>(List.of("console", "--data-dir", data.toString()));
        arguments.addAll(List.of(args));
        Path out = Files.createTempFile(dir, "console", ".out");
        Process console = ChildJvm.builder(LomiControl.class, arguments)
                .redirectOutput(out.toFile())
                .redirectErrorStream(true)
                .start();
        console.getOutputStream().close();
        if (!console.waitFor(START_SECONDS, TimeUnit.SECONDS)) {
            console.destroyForcibly();
            throw new AssertionError("console " + String.join(" ", args) + " did not finish");
        }
        if (console.exitValue() != 0) {
            throw new AssertionError("console " + String.join(" ", args) + " failed: " + Files.readString(out));
        }
        return Files.readString(out);
    }

    private static String await(Path log, Pattern pattern, Process process) {
        return Eventually.inLog(log, pattern, process, Duration.ofSeconds(START_SECONDS));
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
