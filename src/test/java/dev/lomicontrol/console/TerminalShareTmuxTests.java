package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.TmuxPane;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code console terminal watch} and {@code terminal attach} on a real terminal (tmux, on a private
 * tmux server) against an agent's terminal — the real broker and the real {@code --mcp} helper
 * ({@link ShellAgent}): the view follows the agent's commands, the admin's keys run in the shell
 * while agents are refused, the shell follows the admin's window size, a hostile program in the
 * agent's terminal cannot reach the admin's terminal, and a killed console gives the input back.
 */
class TerminalShareTmuxTests {

    @TempDir
    Path temp;

    final TmuxPane pane = new TmuxPane("lomi-share-test", "share");
    final String session = pane.session();

    /** The admin's pane title, set before the console starts. */
    static final String ADMIN_TITLE = "admin-pane";

    @BeforeAll
    static void tmuxIsInstalled() {
        TmuxPane.requireTmux();
    }

    @AfterEach
    void killTheTestsTmuxServer() {
        pane.close();
    }

    @Test
    void watchShowsTheAgentsCommandsAsTheyRunAndCtrlCLeavesTheAdminsTerminalAsItWas() throws Exception {
        try (ShellAgent agent = ShellAgent.withTerminal(temp)) {
            agent.runs("echo before-$((20+1))");
            startConsole(agent, "watch");
            awaitScreen("watching panel " + agent.panel);
            awaitScreen("before-21");

            agent.runs("echo after-$((40+2))");
            awaitScreen("after-42");
            assertThat(tmux("display", "-p", "-t", session, "#{alternate_on}").strip())
                    .as("the view draws on the alternate screen")
                    .isEqualTo("1");

            tmux("send-keys", "-t", session, "C-c");
            awaitScreen("left terminal " + agent.terminal);
            awaitScreen("SERVE-EXIT 0");
            assertThat(tmux("display", "-p", "-t", session, "#{alternate_on} #{cursor_flag}")
                            .strip())
                    .isEqualTo("0 1");
        }
    }

    @Test
    void attachRunsTheAdminsKeysRefusesTheAgentUntilDetachAndFollowsTheWindowSize() throws Exception {
        try (ShellAgent agent = ShellAgent.withTerminal(temp)) {
            startConsole(agent, "attach");
            awaitScreen("Ctrl-] detaches");

            type("echo typed-by-admin-$((3*3))");
            awaitScreen("typed-by-admin-9");
            type("stty size");
            awaitScreen("39 120");

            JsonNode input = agent.input("echo agent-input\r");
            assertBusy(input);
            JsonNode run = agent.run("echo agent-run");
            assertBusy(run);
            JsonNode receipt = agent.operationByKey("lomi_terminal_run", agent.lastKey());
            assertThat(receipt.path("isError").asBoolean())
                    .as("the refused run left no receipt: %s", receipt)
                    .isTrue();

            tmux("resize-window", "-t", session, "-x", "100", "-y", "30");
            // the window's SIGWINCH and the typed keys race to the console: ask again until the size shows
            Awaitility.await("the shell sees the new size")
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofSeconds(2))
                    .until(() -> {
                        type("clear; stty size");
                        return tmux("capture-pane", "-p", "-t", session).contains("29 100");
                    });

            tmux("send-keys", "-t", session, "C-]");
            awaitScreen("detached from terminal " + agent.terminal);
            awaitScreen("SERVE-EXIT 0");
            JsonNode again = agent.input("echo agent-is-back-$((5+5))\r");
            assertThat(again.path("isError").asBoolean())
                    .as("the same lease works after the detach: %s", again)
                    .isFalse();
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> agent.text().contains("agent-is-back-10"));
        }
    }

    @Test
    void hostileSequencesInTheAgentsTerminalNeverReachTheAdminsTerminal() throws Exception {
        try (ShellAgent agent = ShellAgent.withTerminal(temp)) {
            startConsole(agent, "watch");
            tmux("set-option", "-g", "set-clipboard", "on");
            awaitScreen("watching panel " + agent.panel);
            String title = ADMIN_TITLE + "\n";

            agent.runs("printf '\\033]52;c;ZXZpbA==\\007\\033]0;owned-0\\007\\033]2;owned-2\\007\\007"
                    + "\\033P+q544e\\033\\\\\\033[?1h\\033=\\033[?1000h\\033[?2004h\\033[31mred\\033[0m"
                    + "\\033[?1049hHOSTILE-%s\\n' $((6*7))");
            awaitScreen("HOSTILE-42");

            String screen = tmux("capture-pane", "-e", "-p", "-t", session);
            assertThat(screen)
                    .as("what the admin's pane holds, attributes included")
                    .doesNotContain("\u001b]", "\u001bP", "\u001b[31m", "owned", "\u0007");
            assertThat(tmux("display", "-p", "-t", session, "#{pane_title}")).isEqualTo(title);
            assertThat(tmux("list-buffers")).as("nothing reached the clipboard").isEmpty();
            assertThat(tmux("display", "-p", "-t", session, "#{keypad_cursor_flag} #{keypad_flag} #{mouse_any_flag}")
                            .strip())
                    .as("no mode of the agent's terminal switched on in the admin's")
                    .isEqualTo("0 0 0");

            tmux("send-keys", "-t", session, "C-c");
            awaitScreen("SERVE-EXIT 0");
            assertThat(tmux("display", "-p", "-t", session, "#{alternate_on}").strip())
                    .isEqualTo("0");
            assertThat(tmux("display", "-p", "-t", session, "#{pane_title}")).isEqualTo(title);
        }
    }

    @Test
    void aKilledConsoleGivesTheTerminalsInputBackToTheAgent() throws Exception {
        try (ShellAgent agent = ShellAgent.withTerminal(temp)) {
            startConsole(agent, "attach");
            awaitScreen("Ctrl-] detaches");
            assertBusy(agent.input("echo refused\r"));

            long shell = Long.parseLong(
                    tmux("display", "-p", "-t", session, "#{pane_pid}").strip());
            ProcessHandle console =
                    ProcessHandle.of(shell).orElseThrow().children().findFirst().orElseThrow();
            console.destroyForcibly(); // SIGKILL: no detach, no release
            awaitScreen("SERVE-EXIT 137");

            JsonNode back = Awaitility.await("the agent may type again")
                    .atMost(Duration.ofSeconds(20))
                    .until(
                            () -> agent.input("echo back-after-kill\r"),
                            answer -> !answer.path("isError").asBoolean());
            assertThat(back.at("/structuredContent/data/state").asString()).isEqualTo("dispatched");
        }
    }

    @Test
    void aViewWhoseBrokerGoesAwayRestoresTheAdminsTerminalAndExitsWithStatus3() throws Exception {
        try (ShellAgent agent = ShellAgent.withTerminal(temp)) {
            startConsole(agent, "attach");
            awaitScreen("Ctrl-] detaches");

            agent.broker.kill();
            awaitScreen("SERVE-EXIT 3");
            assertThat(consoleErrors()).contains("lomi-control console: lost the connection to the broker");
            assertThat(tmux("display", "-p", "-t", session, "#{alternate_on} #{cursor_flag}")
                            .strip())
                    .isEqualTo("0 1");
        }
    }

    @Test
    void theInteractiveConsoleWatchesATerminalAndComesBackToItsPrompt() throws Exception {
        try (ShellAgent agent = ShellAgent.withTerminal(temp)) {
            agent.runs("echo from-the-repl-$((7*6))");
            startConsole(List.of("console", "--data-dir", agent.broker.data().toString()));
            awaitScreen("lomi> ");

            type("terminal watch " + agent.panel);
            awaitScreen("from-the-repl-42");
            tmux("send-keys", "-t", session, "C-c");
            awaitScreen("left terminal " + agent.terminal);
            type("terminal screen " + agent.panel);
            awaitScreen("terminal " + agent.terminal + " of panel " + agent.panel);
            type("exit");
            awaitScreen("SERVE-EXIT 0");
        }
    }

    private static void assertBusy(JsonNode answer) {
        assertThat(answer.path("isError").asBoolean()).as(answer.toString()).isTrue();
        assertThat(answer.at("/structuredContent/code").asString()).isEqualTo("TARGET_BUSY");
        assertThat(answer.at("/structuredContent/message").asString())
                .contains("the admin holds this terminal's input", "after they detach");
    }

    /**
     * {@code lomi-control console terminal VERB <panel>} in a 120x40 tmux pane titled {@link #ADMIN_TITLE};
     * the script prints SERVE-EXIT and its status, then lingers.
     */
    private void startConsole(ShellAgent agent, String verb) throws Exception {
        startConsole(List.of("console", "--data-dir", agent.broker.data().toString(), "terminal", verb, agent.panel));
    }

    private void startConsole(List<String> args) throws Exception {
        pane.start(
                temp,
                args,
                "printf '\\033]2;" + ADMIN_TITLE + "\\007'\n",
                "2>" + Words.quote(temp.resolve("console.err").toString()),
                120,
                40);
    }

    private void type(String line) {
        pane.type(line);
    }

    private void awaitScreen(String text) {
        pane.awaitScreen(text, false, () -> "\nconsole stderr:\n" + consoleErrors());
    }

    private String consoleErrors() {
        try {
            Path errors = temp.resolve("console.err");
            return Files.exists(errors) ? Files.readString(errors) : "";
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }

    private String tmux(String... args) {
        return pane.tmux(args);
    }
}
