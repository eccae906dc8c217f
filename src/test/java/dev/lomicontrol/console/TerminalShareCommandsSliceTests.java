package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.mcp.Conformance;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.PanelKind;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.terminal.Terminal;
import dev.lomicontrol.terminal.Terminals;
import dev.lomicontrol.tools.RecordSchemas;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Slice test of the terminal-sharing group ({@code terminal screen|watch|attach|hold|keys|resize|release})
 * over a real sandboxed shell: the screen document and its wait for a change, the admin's hold tied
 * to one admin connection ({@link ConnectionScope}) and released when that connection ends.
 */
class TerminalShareCommandsSliceTests extends ConsoleSliceSupport {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    Projects projects;

    @Autowired
    Layout layout;

    @Autowired
    Terminals terminals;

    @Test
    void theGroupIsRegisteredWithHelpForEachCommand() {
        assertGroupHelp(
                "Terminal",
                "terminal screen",
                "terminal watch",
                "terminal attach",
                "terminal hold",
                "terminal release",
                "terminal keys",
                "terminal resize");
    }

    @Test
    void unknownAndNonTerminalPanelsAreRefused() throws Exception {
        Panel scratch = panelOf(project("share-scratch"));

        assertRefused("terminal screen no-such-panel", "TARGET_NOT_FOUND", "no panel no-such-panel");
        assertRefused("terminal watch " + scratch.id(), "TARGET_NOT_FOUND", "scratch panel, not a terminal");
        assertRefused("terminal attach " + scratch.id(), "not a terminal");
        assertUsage("terminal screen x --wait-ms 40000", "--wait-ms must be 0-30000");
        assertUsage("terminal keys x 0g", "hex digits");
        assertUsage("terminal resize x 0 10", "1..1024");
    }

    @Test
    void theScreenDocumentShowsTheShellAndWaitsForItsNextChange() throws Exception {
        Shell shell = shell("share-screen");
        JsonNode first = document(shell.panel + " --json");
        assertThat(Conformance.violation(RecordSchemas.output(ConsoleJson.TerminalScreen.class), first))
                .as(first.toString())
                .isEmpty();
        assertThat(first.path("alive").asBoolean()).isTrue();
        assertThat(first.path("columns").asInt()).isEqualTo(80);
        assertThat(first.path("heldBy").isNull()).isTrue();

        // once the shell is quiet, a wait for a change lasts its whole --wait-ms and answers the same version
        long version = org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .until(
                        () -> {
                            long now = document(shell.panel + " --json")
                                    .path("version")
                                    .asLong();
                            long started = System.nanoTime();
                            JsonNode next = document(shell.panel + " --json --since " + now + " --wait-ms 300");
                            boolean waited = System.nanoTime() - started
                                    >= Duration.ofMillis(250).toNanos();
                            return next.path("version").asLong() == now && waited ? now : -1L;
                        },
                        quiet -> quiet >= 0);

        ConnectionScope console = new ConnectionScope("admin console connection 1");
        ok(console, "terminal hold " + shell.panel);
        ok(console, "terminal keys " + shell.panel + " " + hex("echo shared-$((40+2))\r"));
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .until(
                        () -> document(shell.panel + " --json --since " + version + " --wait-ms 5000"),
                        document -> document.path("lines").toString().contains("shared-42"));
        assertThat(document(shell.panel + " --json").path("heldBy").asString()).isEqualTo("admin console connection 1");
        assertThat(ok("terminal screen " + shell.panel)).contains("input held by admin console connection 1");
        console.close();
    }

    @Test
    void theHoldLastsAsLongAsItsConnectionAndOneConnectionHoldsAtATime() throws Exception {
        Shell shell = shell("share-hold");
        ConnectionScope first = new ConnectionScope("admin console connection 1");
        ConnectionScope second = new ConnectionScope("admin console connection 2");

        assertRefused("terminal hold " + shell.panel, "belongs to a console connection");
        assertThat(ok(first, "terminal hold " + shell.panel)).contains("holding the input");
        assertThat(shell.terminal.humanHold()).isPresent();
        assertThat(run(second, "terminal hold " + shell.panel).stderr())
                .contains("TARGET_BUSY", "already attached", "admin console connection 1");
        assertThat(run(second, "terminal keys " + shell.panel + " 61").stderr())
                .contains("CONTROL_REVOKED", "does not hold");
        ok(first, "terminal resize " + shell.panel + " 100 30");
        assertThat(shell.terminal.screen().columns()).isEqualTo(100);

        first.close();
        assertThat(shell.terminal.humanHold()).as("the connection ended").isEmpty();
        ok(second, "terminal hold " + shell.panel);
        assertThat(ok(second, "terminal release " + shell.panel)).contains("released");
        assertThat(shell.terminal.humanHold()).isEmpty();
        assertThat(run(second, "terminal release " + shell.panel).exitCode()).isEqualTo(ConsoleResult.REFUSED);
        second.close();
    }

    @Test
    void anExitedShellCannotBeWatchedOrHeld() throws Exception {
        Shell shell = shell("share-exited");
        shell.terminal.kill();
        ConnectionScope console = new ConnectionScope("admin console connection 1");

        assertThat(document(shell.panel + " --json").path("alive").asBoolean()).isFalse();
        assertRefused("terminal watch " + shell.panel, "has exited");
        assertThat(run(console, "terminal hold " + shell.panel).stderr()).contains("has exited");
        console.close();
    }

    private record Shell(String panel, Terminal terminal) {}

    private Shell shell(String name) throws Exception {
        Project project = project(name);
        Terminal terminal = terminals.start("bash", project.root(), 80, 24);
        Panel panel = layout.change(
                OptionalLong.empty(),
                edit -> edit.addPanel(
                        project.workspaces().get(0).id(),
                        PanelKind.TERMINAL,
                        "shared",
                        Optional.of(terminal.id()),
                        Optional.empty(),
                        Optional.of("bash"),
                        "."));
        return new Shell(panel.id(), terminal);
    }

    private Project project(String name) throws Exception {
        Files.createDirectories(cwd.resolve(name));
        ok("project add " + name + " --name " + name);
        return projects.find(name).orElseThrow();
    }

    private Panel panelOf(Project project) {
        return layout.change(
                OptionalLong.empty(),
                edit -> edit.addPanel(
                        project.workspaces().get(0).id(),
                        PanelKind.SCRATCH,
                        "notes",
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        "."));
    }

    private JsonNode document(String arguments) {
        return JSON.readTree(ok("terminal screen " + arguments));
    }

    private ConsoleResult run(ConnectionScope scope, String line) {
        return executor.run(line, new Caller(cwd, home), Optional.of(scope));
    }

    private String ok(ConnectionScope scope, String line) {
        ConsoleResult result = run(scope, line);
        assertThat(result.exitCode()).as("%s -> %s", line, result).isEqualTo(ConsoleResult.OK);
        return result.stdout();
    }

    private static String hex(String text) {
        return java.util.HexFormat.of().formatHex(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
