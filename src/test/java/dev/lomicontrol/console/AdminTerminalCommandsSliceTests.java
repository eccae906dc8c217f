package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.PanelKind;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.terminal.Terminal;
import dev.lomicontrol.terminal.Terminals;
import dev.lomicontrol.testing.Machine;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Slice test of {@code terminal new}: the admin's own terminal is a real sandboxed shell in a new
 * panel of the project's first workspace, owned by no session and held by no lease; the project
 * comes from --project or from the console's working directory. No broker and no agent run.
 */
class AdminTerminalCommandsSliceTests extends ConsoleSliceSupport {

    static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    Projects projects;

    @Autowired
    Layout layout;

    @Autowired
    Terminals terminals;

    @Test
    void theCommandIsRegisteredWithHelp() {
        assertGroupHelp("Terminal", "terminal new");
        assertThat(ok("help terminal new")).contains("lomi_panel_control", "decision list", "--project", "--title");
    }

    @Test
    void argumentsAreParsedStrictly() {
        assertUsage("terminal new extra", "takes no arguments");
        assertUsage("terminal new --project", "--project needs a value");
        assertUsage("terminal new --title", "--title needs a value");
    }

    @Test
    void withoutAProjectTheConsolesDirectoryMustLieInOne() {
        assertUsage("terminal new", "lies in no project", "--project");
        assertRefused("terminal new --project nowhere", "TARGET_NOT_FOUND", "no project nowhere");
    }

    @Test
    void aTitleWithAControlCharacterIsAUsageError() throws Exception {
        Files.createDirectories(cwd.resolve("titled"));
        ok("project add titled --name slice-titled");
        assertUsage("terminal new --project slice-titled --title a\u0007b", "--title");
    }

    @Test
    void theAdminsTerminalRunsInAPanelOfTheProjectOfTheConsolesDirectoryOwnedByNoSession() throws Exception {
        Machine.requireOnPath("bwrap", "--version", "bubblewrap");
        Path folder = Files.createDirectories(cwd.resolve("own"));
        ok("project add own --name slice-own");
        Project project = projects.find("slice-own").orElseThrow();
        long before = layout.revision();
        cwd = Files.createDirectories(folder.resolve("deeper"));

        long started = System.nanoTime();
        String answer = ok("terminal new");
        System.out.println("terminal new: " + (System.nanoTime() - started) / 1_000_000 + " ms");
        JsonNode json = JSON.readTree(ok("terminal new --json --title second"));

        assertThat(answer)
                .contains(
                        "opened terminal ",
                        "sandboxed",
                        "'admin'",
                        project.id().value(),
                        "terminal watch pnl-",
                        "terminal attach pnl-",
                        "decision list");
        assertThat(dev.lomicontrol.mcp.Conformance.violation(
                        dev.lomicontrol.tools.RecordSchemas.output(ConsoleJson.TerminalCreated.class), json))
                .as("the document conforms to the schema its record derives")
                .isEmpty();
        String workspace = project.workspaces().get(0).id().value();
        assertThat(json.path("workspaceId").asString()).isEqualTo(workspace);
        assertThat(json.path("projectId").asString()).isEqualTo(project.id().value());
        assertThat(json.path("title").asString()).isEqualTo("second");
        assertThat(json.path("sandboxed").asBoolean()).isTrue();
        assertThat(Long.parseLong(json.path("domainRevision").asString()))
                .as("each panel bumps the layout's revision, as an agent's does")
                .isEqualTo(before + 2)
                .isEqualTo(layout.revision());
        Panel panel = layout.view(project.workspaces().get(0).id())
                .panel(json.path("panelId").asString())
                .orElseThrow();
        assertThat(panel.kind()).isEqualTo(PanelKind.TERMINAL);
        assertThat(panel.ownerSession()).as("no agent owns it").isEmpty();
        assertThat(panel.terminalSessionId())
                .contains(json.path("terminalSessionId").asString());
        assertThat(panel.cwd()).isEqualTo(".");
        Terminal terminal =
                terminals.find(json.path("terminalSessionId").asString()).orElseThrow();
        assertThat(terminal.isAlive()).isTrue();
        assertThat(terminal.lease()).as("nobody holds its input").isEmpty();
        terminals.all().forEach(Terminal::kill);
    }
}
