package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.BrokerChildProcess;
import dev.lomicontrol.testing.ConsoleRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lomi-control console COMMAND} as a separate process against a real headless broker process. */
class ConsoleProcessTests {

    @TempDir
    static Path temp;

    static BrokerChildProcess broker;
    static Path work;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = BrokerChildProcess.start(temp.resolve("data"));
        work = Files.createDirectories(temp.resolve("work"));
    }

    @AfterAll
    static void stopBroker() throws Exception {
        assertThat(broker.stop()).as("the broker stops on SIGTERM").isTrue();
        assertThat(broker.tokenFile())
                .as("admin.token is removed on a clean stop")
                .doesNotExist();
        assertThat(broker.stdout())
                .as("a headless broker writes nothing to stdout")
                .isEmpty();
    }

    @Test
    void statusRunsInTheBrokerAndExitsZero() throws Exception {
        ConsoleRun.Result run = console("status");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout())
                .contains(
                        "instance:",
                        "admin socket:",
                        "control socket:",
                        broker.data().toString());
        assertThat(run.stderr()).isEmpty();
    }

    @Test
    void projectAddThenListShowsTheFolderResolvedAgainstTheConsolesCwd() throws Exception {
        Path folder = Files.createDirectories(work.resolve("site")).toRealPath();

        ConsoleRun.Result add = console("project", "add", "site", "--name", "my site");
        assertThat(add.exitCode()).as(add.toString()).isZero();
        assertThat(add.stdout()).contains("added project prj-", "'my site'", folder.toString());
        ConsoleRun.Result list = console("project", "list");
        assertThat(list.exitCode()).isZero();
        assertThat(list.stdout()).contains("my site", folder.toString());
    }

    @Test
    void ledgerStatusShowsTheStoreOfThisDataDirectory() throws Exception {
        ConsoleRun.Result run = console("ledger", "status");
        assertThat(run.exitCode()).isZero();
        assertThat(run.stdout())
                .contains(broker.data().resolve("agent-control/control.sqlite3").toString(), "receipts:", "integrity:");
    }

    @Test
    void aRefusedCommandExitsOneAndAUsageErrorTwoWithTheMessageOnStderr() throws Exception {
        ConsoleRun.Result refused = console("pairing", "deny", "pr-nobody");
        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.stdout()).isEmpty();
        assertThat(refused.stderr().strip())
                .isEqualTo("error: TARGET_NOT_FOUND: no pending pairing request pr-nobody (it may have expired)");

        ConsoleRun.Result usage = console("pairing", "approve");
        assertThat(usage.exitCode()).isEqualTo(2);
        assertThat(usage.stderr()).contains("usage: missing <id>", "--all --confirm");
    }

    @Test
    void linesPipedIntoTheConsoleRunOneAfterAnother() throws Exception {
        ConsoleRun.Result run = broker.console()
                .in(work)
                .input("yolo status\n\nsession list\nexit\nstatus\n")
                .run();
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout()).contains("YOLO is off", "no live sessions").doesNotContain("instance:");
    }

    @Test
    void theConsoleClientStartsNoSpringContext() throws Exception {
        Path classLog = work.resolve("classes.log");
        ConsoleRun.Result run = broker.console()
                .in(work)
                .jvmOptions(List.of("-Xlog:class+load=info:file=" + classLog))
                .run("yolo", "status");
        assertThat(run.exitCode()).isZero();
        assertThat(Files.readString(classLog))
                .contains("dev.lomicontrol.console.AdminClient")
                .doesNotContain("org.springframework")
                .doesNotContain("org.sqlite");
    }

    @Test
    void withoutARunningBrokerTheConsoleExitsThreeAndSaysSo() throws Exception {
        ConsoleRun.Result run =
                BrokerChildProcess.console(temp.resolve("nobody-home")).in(work).run("status");
        assertThat(run.exitCode()).as("3: no broker running").isEqualTo(ConsoleResult.NO_BROKER);
        assertThat(run.stdout()).isEmpty();
        assertThat(run.stderr())
                .contains(
                        "lomi-control console: no broker is running for data directory " + temp.resolve("nobody-home"),
                        "start one with: lomi-control serve");
    }

    private static ConsoleRun.Result console(String... args) throws Exception {
        return broker.console().in(work).run(args);
    }
}
