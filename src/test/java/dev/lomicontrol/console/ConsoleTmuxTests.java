package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.BrokerChildProcess;
import dev.lomicontrol.testing.Eventually;
import dev.lomicontrol.testing.TmuxPane;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The interactive console on a real terminal (tmux, on a private tmux server): the client's JLine
 * loop with broker-side completion, and {@code serve} on a TTY hosting the console itself, where
 * {@code exit} stops the broker.
 */
class ConsoleTmuxTests {

    @TempDir
    Path temp;

    final TmuxPane pane = new TmuxPane("lomi-console-test", "console");
    final String session = pane.session();

    @BeforeAll
    static void tmuxIsInstalled() {
        TmuxPane.requireTmux();
    }

    @AfterEach
    void killTheTestsTmuxServer() {
        pane.close();
    }

    @Test
    void theConsoleClientRunsCommandsAndCompletesFromTheBroker() throws Exception {
        try (BrokerChildProcess broker = BrokerChildProcess.start(temp.resolve("data"))) {
            Path folder = Files.createDirectories(temp.resolve("tmux-project")).toRealPath();
            startInTmux(List.of("console", "--data-dir", broker.data().toString()), "");
            awaitScreen("lomi> ");

            type("ledger status");
            awaitScreen("retry epochs:");
            type("pairing list");
            awaitScreen("no pending pairing requests");
            type("project add " + folder + " --name tmuxproj");
            awaitScreen("added project prj-");
            type("project list");
            awaitScreen("tmuxproj  " + folder);
            tmux("send-keys", "-t", session, "yolo st", "Tab");
            tmux("send-keys", "-t", session, "Enter");
            awaitScreen("YOLO is off");
            type("exit");
            awaitEnded();
            assertThat(broker.isAlive())
                    .as("leaving the client leaves the broker running")
                    .isTrue();
        }
    }

    @Test
    void theAdminApprovesAPendingClientFromTheInteractiveConsole() throws Exception {
        try (BrokerChildProcess broker = BrokerChildProcess.start(temp.resolve("data"))) {
            dev.lomicontrol.ipc.BrokerClient client = new dev.lomicontrol.ipc.BrokerClient(
                    broker.discoveryFile(), broker.discoveryKey(), "tmux-approved client");
            java.util.concurrent.CompletableFuture<dev.lomicontrol.ipc.BrokerClient.State> connecting =
                    java.util.concurrent.CompletableFuture.supplyAsync(
                            () -> client.connect(java.time.Duration.ofSeconds(110)));
            String id = Eventually.await(
                            "the client's pairing request is pending",
                            Duration.ofSeconds(60),
                            () -> client.state().pairingRequestId(),
                            java.util.Optional::isPresent)
                    .orElseThrow();
            startInTmux(List.of("console", "--data-dir", broker.data().toString()), "");
            awaitScreen("lomi> ");

            type("pairing list");
            awaitScreen(id);
            awaitScreen("tmux-approved client");
            type("pairing approve " + id);
            awaitScreen("approved " + id);

            assertThat(connecting.get(60, TimeUnit.SECONDS).phase())
                    .isEqualTo(dev.lomicontrol.ipc.BrokerClient.Phase.CONNECTED);
            type("session list");
            awaitScreen("tmux-approved client");
            type("exit");
            awaitEnded();
            client.close();
        }
    }

    @Test
    void serveOnATerminalHostsTheConsoleAndExitStopsTheBroker() throws Exception {
        Path data = temp.resolve("data");
        startInTmux(List.of("serve", "--data-dir", data.toString()), "2>" + temp.resolve("serve.err"));
        awaitScreen("Leaving this console stops the broker.");
        awaitScreen("lomi> ");

        type("status");
        awaitScreen("admin socket:");
        tmux("send-keys", "-t", session, "project li", "Tab");
        tmux("send-keys", "-t", session, "Enter");
        awaitScreen("no projects");
        type("exit");
        awaitScreen("SERVE-EXIT 0");
        assertThat(AdminToken.file(data.resolve("agent-control"))).doesNotExist();
        assertThat(Files.readString(temp.resolve("serve.err")))
                .contains("the broker console was closed; stopping the broker");
    }

    /** Runs lomi-control with {@code args} in a 200x50 tmux pane; the script prints SERVE-EXIT and its status, then lingers. */
    private void startInTmux(List<String> args, String redirect) throws Exception {
        pane.start(temp, args, "", redirect, 200, 50);
    }

    private void type(String line) {
        pane.type(line);
    }

    private void awaitScreen(String text) {
        pane.awaitScreen(text, true, () -> "");
    }

    /** The client exited: the pane shows the script's exit line. */
    private void awaitEnded() {
        awaitScreen("SERVE-EXIT 0");
    }

    private String tmux(String... args) {
        return pane.tmux(args);
    }
}
