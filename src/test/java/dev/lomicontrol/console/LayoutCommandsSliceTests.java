package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Slice test of the layout group ({@code workspace list}, {@code panel list}): no broker, no agent, no shell runs. */
class LayoutCommandsSliceTests extends ConsoleSliceSupport {

    static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    Projects projects;

    @Autowired
    Layout layout;

    @Test
    void theGroupIsRegisteredWithHelpForEachCommand() {
        assertGroupHelp("Layout", "workspace list", "panel list");
        assertThat(ok("help panel list")).contains("--workspace", "--watch", "exit code");
    }

    @Test
    void withoutProjectsBothListsSayHowOneComes() {
        if (projects.list().isEmpty()) {
            assertThat(ok("workspace list")).startsWith("no workspaces: add a project (project add <folder>)");
            assertThat(ok("panel list")).startsWith("no panels; an agent's lomi_terminal_create");
            assertThat(ok("workspace list --json").strip()).isEqualTo("{\"workspaces\":[]}");
            assertThat(ok("panel list --json").strip()).isEqualTo("{\"panels\":[]}");
        }
    }

    @Test
    void aProjectsWorkspacesAndAScratchPanelAreListedAsTableAndJson() throws Exception {
        java.nio.file.Files.createDirectories(cwd.resolve("site"));
        ok("project add site --name layout-slice");
        Project project = projects.find("layout-slice").orElseThrow();
        String first = project.workspaces().get(0).id().value();
        assertThat(ok("panel list --workspace " + first))
                .startsWith("no panels in workspace " + first + "; an agent's lomi_terminal_create");
        String second = layout.change(OptionalLong.empty(), edit -> edit.createWorkspace(project.id(), "second"))
                .workspace()
                .id()
                .value();

        assertThat(ok("workspace list"))
                .contains("WORKSPACE", "PROJECT", "PANELS", first, second, project.id() + " 'layout-slice'");
        JsonNode workspaces = JSON.readTree(ok("workspace list --json"));
        JsonNode row = row(workspaces.path("workspaces"), "workspaceId", second);
        assertThat(row.path("projectId").asString()).isEqualTo(project.id().value());
        assertThat(row.path("projectName").asString()).isEqualTo("layout-slice");
        assertThat(row.path("name").asString()).isEqualTo("second");
        assertThat(row.path("panels").asInt()).isEqualTo(1);
        assertThat(row.path("tabs").asInt()).isEqualTo(1);
        assertThat(row.path("revision").asLong()).isEqualTo(layout.revision());

        assertThat(ok("panel list --workspace " + second))
                .contains("KIND", "OWNER", "INPUT", "COMMAND", "EXIT", second, "scratch", "Untitled", "ready");
        JsonNode panels = JSON.readTree(ok("panel list --json --workspace " + second));
        assertThat(panels.path("panels").size()).isEqualTo(1);
        JsonNode scratch = panels.path("panels").get(0);
        assertThat(scratch.path("kind").asString()).isEqualTo("scratch");
        assertThat(scratch.path("title").asString()).isEqualTo("Untitled");
        assertThat(scratch.path("state").asString()).isEqualTo("ready");
        assertThat(scratch.path("workspaceId").asString()).isEqualTo(second);
        assertThat(scratch.path("ownerSession").isNull())
                .as("no agent created it: null, never missing")
                .isTrue();
        assertThat(scratch.path("inputHolder").isNull()).isTrue();
        assertThat(scratch.path("command").isNull()).isTrue();
        assertThat(scratch.path("exitCode").isNull()).isTrue();
        assertThat(executor.complete("panel list --workspace ")).contains(first, second);
        assertThat(executor.complete("panel list --")).contains("--workspace", "--json");
        assertThat(row(JSON.readTree(ok("panel list --json")).path("panels"), "workspaceId", second))
                .as("without --workspace: every workspace's panels")
                .isNotNull();
    }

    private static JsonNode row(JsonNode rows, String field, String value) {
        for (JsonNode row : rows) {
            if (row.path(field).asString().equals(value)) {
                return row;
            }
        }
        throw new AssertionError("no row with " + field + " " + value + " in " + rows);
    }

    @Test
    void anUnknownWorkspaceIsRefusedAsTargetNotFound() {
        assertRefused(
                "panel list --workspace ws-nowhere", "TARGET_NOT_FOUND", "no workspace ws-nowhere", "workspace list");
        assertRefused("panel list --workspace ws-nowhere --json", "TARGET_NOT_FOUND");
    }

    @Test
    void argumentsAreParsedStrictly() {
        assertUsage("panel list --workspace", "--workspace needs a value");
        assertUsage("panel list extra", "takes no argument");
        assertUsage("workspace list extra", "takes no argument");
        assertUsage("workspace list --workspace w", "--workspace");
        assertUsage("workspace list --json=yes", "--json");
    }
}
