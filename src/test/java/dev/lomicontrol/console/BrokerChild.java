package dev.lomicontrol.console;

import dev.lomicontrol.LomiControl;
import dev.lomicontrol.testing.ChildJvm;
import dev.lomicontrol.testing.Eventually;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/** A real headless broker in a child JVM, and console client runs against it (each its own child JVM). */
final class BrokerChild implements AutoCloseable {

    /** What a console process did. */
    record Run(int exitCode, String stdout, String stderr) {}

    final Path data;
    final Path logs;
    final Process process;

    private BrokerChild(Path data, Path logs, Process process) {
        this.data = data;
        this.logs = logs;
        this.process = process;
    }

    /** Starts {@code serve --headless} and waits until its admin socket has published admin.token. */
    static BrokerChild start(Path dir) throws Exception {
        return startIn(dir);
    }

    /** Starts (or restarts) a broker on {@code dir/data}; logs go to a fresh {@code dir/broker-logs-N}. */
    static BrokerChild startIn(Path dir) throws Exception {
        Path data = dir.resolve("data");
        Path logs = Files.createDirectories(dir.resolve("broker-logs-" + System.nanoTime()));
        Process process = ChildJvm.builder(
                        LomiControl.class, List.of("serve", "--data-dir", data.toString(), "--headless"))
                .redirectOutput(logs.resolve("out").toFile())
                .redirectError(logs.resolve("err").toFile())
                .start();
        BrokerChild broker = new BrokerChild(data, logs, process);
        broker.await("ledger open at");
        broker.await("admin socket");
        return broker;
    }

    Path tokenFile() {
        return AdminToken.file(data.resolve("agent-control"));
    }

    String stdout() throws IOException {
        return Files.readString(logs.resolve("out"));
    }

    /** {@code lomi-control console --data-dir DATA ARGS...} run in {@code cwd}, with {@code stdin} as its input. */
    static Run console(Path data, Path cwd, String stdin, List<String> jvmOptions, String... args) throws Exception {
        List<String> arguments = new ArrayList<>(List.of("console", "--data-dir", data.toString()));
        arguments.addAll(List.of(args));
        List<String> command =
                new ArrayList<>(ChildJvm.builder(LomiControl.class, arguments).command());
        command.addAll(1, jvmOptions);
        Path out = Files.createTempFile(cwd, "console", ".out");
        Path err = Files.createTempFile(cwd, "console", ".err");
        Process console = new ProcessBuilder(command)
                .directory(cwd.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        console.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        console.getOutputStream().close();
        if (!console.waitFor(120, TimeUnit.SECONDS)) {
            console.destroyForcibly();
            throw new AssertionError("console did not finish: " + String.join(" ", args));
        }
        return new Run(console.exitValue(), Files.readString(out), Files.readString(err));
    }

    /** Waits until the broker's stderr log contains {@code text}; fails at once if the broker exits. */
    void await(String text) {
        Eventually.inLog(logs.resolve("err"), Pattern.compile(Pattern.quote(text)), process, Duration.ofSeconds(120));
    }

    /** SIGTERM, then waits for a clean exit; true when it stopped in time. */
    boolean stop() throws InterruptedException {
        process.destroy();
        return process.waitFor(60, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (!stop()) {
            process.destroyForcibly();
        }
    }
}
