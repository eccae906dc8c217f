package dev.lomicontrol.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.LomiControl;
import dev.lomicontrol.testing.ChildJvm;
import dev.lomicontrol.testing.Eventually;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real executable in child JVMs: {@code serve} starts the broker with its ledger; {@code --mcp} starts no Spring at all. */
class BrokerProcessTests {

    @TempDir
    Path temp;

    @Test
    void serveStartsTheBrokerWithAPrivateLedgerAndStopsCleanlyOnSigterm() throws Exception {
        Path data = temp.resolve("data");
        Path stderr = temp.resolve("serve.err");
        Path stdout = temp.resolve("serve.out");
        Process broker = serve(data, stdout, stderr);
        try {
            awaitLine(stderr, "ledger open at", broker);
            awaitLine(
                    stderr,
                    "admin socket",
                    broker); // fully started: the clean stop below is the one of a running broker
            Path store = data.resolve("agent-control");
            assertThat(mode(store)).isEqualTo("rwx------");
            assertThat(mode(store.resolve("control.sqlite3"))).isEqualTo("rw-------");
            assertThat(mode(store.resolve("owner.lock"))).isEqualTo("rw-------");
        } finally {
            broker.destroy();
        }
        assertThat(broker.waitFor(30, TimeUnit.SECONDS)).as("stops on SIGTERM").isTrue();
        assertThat(broker.exitValue()).isIn(0, 143);
        assertThat(Files.readString(stdout))
                .as("the broker prints nothing on stdout")
                .isEmpty();
        try (var left = Files.list(temp.resolve("tmp"))) {
            assertThat(left.map(p -> p.getFileName().toString()).filter(name -> name.startsWith("lomi-control-")))
                    .as("a clean stop removes the run's runtime directory, shell integration included")
                    .isEmpty();
        }
        Process again = serve(data, temp.resolve("again.out"), temp.resolve("again.err"));
        try {
            awaitLine(temp.resolve("again.err"), "ledger open at", again);
        } finally {
            again.destroy();
            again.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aSecondBrokerOnTheSameDataDirectoryIsRefusedWithTheHoldersPid() throws Exception {
        Path data = temp.resolve("data");
        Process first = serve(data, temp.resolve("first.out"), temp.resolve("first.err"));
        try {
            awaitLine(temp.resolve("first.err"), "ledger open at", first);
            Process second = serve(data, temp.resolve("second.out"), temp.resolve("second.err"));
            assertThat(second.waitFor(60, TimeUnit.SECONDS)).isTrue();

            assertThat(second.exitValue()).isEqualTo(1);
            assertThat(Files.readString(temp.resolve("second.err")))
                    .contains("lomi-control: the broker did not start: STORAGE_UNAVAILABLE")
                    .contains("owned by another process (pid=" + first.pid());
            assertThat(first.isAlive()).isTrue();
        } finally {
            first.destroy();
            first.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void mcpModeIsRecognisedBeforeAnySpringClassIsLoadedAndWritesOnlyProtocolFramesToStdout() throws Exception {
        Path classLog = temp.resolve("classes.log");
        List<String> args = List.of(
                "--mcp",
                "--discovery-file",
                temp.resolve("no-broker/discovery.json").toString(),
                "--discovery-key",
                "ab".repeat(32));
        List<String> command =
                new ArrayList<>(ChildJvm.builder(LomiControl.class, args).command());
        command.add(1, "-Xlog:class+load=info:file=" + classLog);
        Process helper = new ProcessBuilder(command)
                .redirectError(temp.resolve("mcp.err").toFile())
                .start();
        try (OutputStream stdin = helper.getOutputStream()) {
            stdin.write(
                    ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{}}}\n"
                                    + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"lomi_status\"}}\n")
                            .getBytes(StandardCharsets.UTF_8));
        } // end of stdin: the helper answers what it read and exits
        String stdout = new String(helper.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(helper.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(helper.exitValue()).isZero();
        assertThat(stdout.lines()).hasSize(2).allMatch(line -> line.startsWith("{\"jsonrpc\":\"2.0\",\"id\":"));
        assertThat(Files.readString(classLog))
                .contains("dev.lomicontrol.LomiControl")
                .contains("dev.lomicontrol.mcp.McpHelper")
                .doesNotContain("org.springframework")
                .doesNotContain("org.sqlite")
                .doesNotContain("org.flywaydb");
    }

    private Process serve(Path data, Path stdout, Path stderr) throws IOException {
        ProcessBuilder builder = ChildJvm.builder(
                        LomiControl.class, List.of("serve", "--data-dir", data.toString(), "--headless"))
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile());
        // the run's private runtime directory (sockets, shell integration) goes where this test can see it
        builder.environment()
                .put("JAVA_TOOL_OPTIONS", "-Djava.io.tmpdir=" + Files.createDirectories(temp.resolve("tmp")));
        return builder.start();
    }

    private static void awaitLine(Path log, String text, Process process) {
        Eventually.inLog(log, Pattern.compile(Pattern.quote(text)), process, Duration.ofSeconds(60));
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }
}
