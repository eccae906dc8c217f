package dev.lomicontrol.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.BrokerChildProcess;
import dev.lomicontrol.testing.McpHelperProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real executable in child JVMs: {@code serve} starts the broker with its ledger; {@code --mcp} starts no Spring at all. */
class BrokerProcessTests {

    @TempDir
    Path temp;

    @Test
    void serveStartsTheBrokerWithAPrivateLedgerAndStopsCleanlyOnSigterm() throws Exception {
        Path data = temp.resolve("data");
        // the run's private runtime directory (sockets, shell integration) goes where this test can see it
        Path tmp = Files.createDirectories(temp.resolve("tmp"));
        // fully started (ledger open, sockets published): the clean stop below is the one of a running broker
        BrokerChildProcess broker = BrokerChildProcess.on(data)
                .log(temp.resolve("serve.err"))
                .tmpdir(tmp)
                .start();
        Path store = data.resolve("agent-control");
        assertThat(mode(store)).isEqualTo("rwx------");
        assertThat(mode(store.resolve("control.sqlite3"))).isEqualTo("rw-------");
        assertThat(mode(store.resolve("owner.lock"))).isEqualTo("rw-------");

        assertThat(broker.stop(Duration.ofSeconds(30))).as("stops on SIGTERM").isTrue();
        assertThat(broker.exitValue()).isIn(0, 143);
        assertThat(broker.stdout()).as("the broker prints nothing on stdout").isEmpty();
        try (var left = Files.list(tmp)) {
            assertThat(left.map(p -> p.getFileName().toString()).filter(name -> name.startsWith("lomi-control-")))
                    .as("a clean stop removes the run's runtime directory, shell integration included")
                    .isEmpty();
        }
        try (BrokerChildProcess again = BrokerChildProcess.on(data)
                .log(temp.resolve("again.err"))
                .tmpdir(tmp)
                .start()) {
            assertThat(again.isAlive())
                    .as("the same data directory starts again")
                    .isTrue();
        }
    }

    @Test
    void aSecondBrokerOnTheSameDataDirectoryIsRefusedWithTheHoldersPid() throws Exception {
        Path data = temp.resolve("data");
        try (BrokerChildProcess first =
                BrokerChildProcess.on(data).log(temp.resolve("first.err")).start()) {
            BrokerChildProcess.Refusal second =
                    BrokerChildProcess.on(data).log(temp.resolve("second.err")).refused();

            assertThat(second.exitCode()).isEqualTo(1);
            assertThat(second.stderr())
                    .contains("lomi-control: the broker did not start: STORAGE_UNAVAILABLE")
                    .contains("owned by another process (pid=" + first.pid());
            assertThat(first.isAlive()).isTrue();
        }
    }

    @Test
    void mcpModeIsRecognisedBeforeAnySpringClassIsLoadedAndWritesOnlyProtocolFramesToStdout() throws Exception {
        Path classLog = temp.resolve("classes.log");
        try (McpHelperProcess helper = McpHelperProcess.launch(temp.resolve("mcp.err"))
                .discovery(temp.resolve("no-broker/discovery.json"), "ab".repeat(32))
                .jvmOptions(List.of("-Xlog:class+load=info:file=" + classLog))
                .start()) {
            helper.sendLine(
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{}}}");
            helper.sendLine(
                    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"lomi_status\"}}");

            // end of stdin: the helper answers what it read and exits
            assertThat(helper.closeAndWait(Duration.ofSeconds(30))).isZero();
            assertThat(helper.stdoutLines())
                    .hasSize(2)
                    .allMatch(line -> line.startsWith("{\"jsonrpc\":\"2.0\",\"id\":"));
        }
        assertThat(Files.readString(classLog))
                .contains("dev.lomicontrol.LomiControl")
                .contains("dev.lomicontrol.mcp.McpHelper")
                .doesNotContain("org.springframework")
                .doesNotContain("org.sqlite")
                .doesNotContain("org.flywaydb");
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }
}
