package dev.lomicontrol.proof.fuzz;

import dev.lomicontrol.testing.BrokerChildProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The fuzz suite's broker: a real headless broker ({@link BrokerChildProcess}) with one project and
 * YOLO on (set through the real console), so helpers and fuzz clients are approved without a human.
 */
final class FuzzBroker implements AutoCloseable {

    final BrokerChildProcess broker;
    final Path project;
    final String key;

    private FuzzBroker(BrokerChildProcess broker, Path project) {
        this.broker = broker;
        this.project = project;
        this.key = broker.discoveryKey();
    }

    /** Starts the broker under {@code dir}, adds {@code dir/project} and turns YOLO on. */
    static FuzzBroker start(Path dir) throws Exception {
        BrokerChildProcess broker = BrokerChildProcess.on(dir.resolve("data"))
                .log(dir.resolve("broker.err"))
                .emptyHome()
                // why each fuzz connection ended is logged at debug; keep it, it names the fault when a call goes
                // unanswered
                .jvmOptions(List.of("-Dlogging.level.dev.lomicontrol.broker.ControlConnection=DEBUG"))
                .fullJit(fullJit())
                .start();
        Path project = Files.createDirectories(dir.resolve("project")).toRealPath();
        return new FuzzBroker(broker.withProjectAndYolo(project), project);
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
                                    try (Stream<Path> paths = Files.walk(dir)) {
                                        paths.sorted(Comparator.reverseOrder())
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

    /**
     * Child JVMs start with C1 only, which suits short runs; long runs ({@code -Dlomi.fuzz.fullJit=true},
     * set by bench/fuzz.sh) get the full JIT, or TLS handshakes dominate the run.
     */
    static boolean fullJit() {
        return Boolean.getBoolean("lomi.fuzz.fullJit");
    }

    Path discoveryFile() {
        return broker.discoveryFile();
    }

    /** The helper arguments that pair with this broker. */
    List<String> helperArgs() {
        return broker.helperArgs();
    }

    boolean isAlive() {
        return broker.isAlive();
    }

    @Override
    public void close() throws InterruptedException {
        broker.stop();
    }
}
