package dev.lomicontrol.broker;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.Scopes;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.testing.Agent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Attack suite, finding N4 of the 2026-12-06 review: an agent the admin limited to the file tools
 * (no {@code terminal.execute}) tries to plant MCP/IDE client configuration, which client programs
 * run as the user outside any sandbox ({@code .mcp.json} server commands, {@code .claude} hooks,
 * {@code .vscode} tasks that run on folder open). Creating, renaming or moving into it and saving it
 * from the editor are refused and leave nothing on disk; reading it and ordinary files still work.
 */
class AttackClientConfigurationTests {

    /** The grant run3 of the review used: workspace.read, files.read, files.mutate, files.create (plus renames). */
    static final Set<String> FILES_ONLY =
            Scopes.validate(List.of("workspace.read", "files.read", "files.mutate", "files.create", "files.rename"));

    @RegisterExtension
    final Agent agent = Agent.inProject("client-config");

    final AttackCalls attack = new AttackCalls(agent);
    final Project project = agent.project();
    final Path root = project.root();

    @Test
    void aFilesOnlyAgentCanNeitherCreateNorRenameNorMoveIntoClientConfiguration() throws Exception {
        Session session = agent.broker().session(new Grant(true, Set.of(), FILES_ONLY));
        RetryEpochId epoch = agent.broker().connect(session, project);
        AttackCalls as = attack.as(session, epoch);
        Files.createDirectories(root.resolve("src"));
        Files.writeString(root.resolve("src/server.json"), "{\"mcpServers\":{}}\n");

        for (String[] entry : new String[][] {
            {".mcp.json", "file"}, {".claude", "directory"}, {".vscode", "directory"}, {"opencode.json", "file"}
        }) {
            JsonNode create = as.callMutate(AttackCalls.create(entry[0], entry[1], as.directoryRevision("")));
            assertRefusedAsClientConfiguration(create, "create " + entry[0]);
            assertThat(root.resolve(entry[0])).as("create %s", entry[0]).doesNotExist();
        }

        String fileRevision = as.diskRevision("src/server.json");
        JsonNode rename = as.callMutate(
                AttackCalls.rename("src/server.json", ".mcp.json", fileRevision, as.directoryRevision("src")));
        assertRefusedAsClientConfiguration(rename, "rename to src/.mcp.json");
        assertThat(root.resolve("src/.mcp.json")).doesNotExist();

        JsonNode move =
                as.callMutate(AttackCalls.move("src/server.json", ".mcp.json", fileRevision, as.directoryRevision("")));
        assertRefusedAsClientConfiguration(move, "move to .mcp.json");
        assertThat(root.resolve(".mcp.json")).doesNotExist();
        assertThat(root.resolve("src/server.json")).hasContent("{\"mcpServers\":{}}");

        JsonNode ordinary = as.callMutate(AttackCalls.create("notes.txt", "file", as.directoryRevision("")));
        assertThat(ordinary.path("data").path("state").asString())
                .as("%s", ordinary)
                .isEqualTo("succeeded");
        assertThat(root.resolve("notes.txt")).exists();
    }

    @Test
    void existingClientConfigurationStaysReadableButItsMovesAndTrashAreRefused() throws Exception {
        Session session = agent.broker()
                .session(new Grant(
                        true,
                        Set.of(),
                        Scopes.validate(List.of(
                                "workspace.read",
                                "files.read",
                                "files.mutate",
                                "files.create",
                                "files.rename",
                                "files.trash"))));
        RetryEpochId epoch = agent.broker().connect(session, project);
        AttackCalls as = attack.as(session, epoch);
        Files.createDirectories(root.resolve(".vscode"));
        Files.writeString(root.resolve(".vscode/tasks.json"), "{\"tasks\":[]}\n");

        JsonNode read =
                as.ok("lomi_files_read", json("workspaceId", agent.workspace(), "relativePath", ".vscode/tasks.json"));
        assertThat(read.toString()).contains("tasks");

        JsonNode rename = as.callMutate(AttackCalls.operation(
                "type",
                "rename",
                "relativePath",
                ".vscode/tasks.json",
                "newName",
                "old.json",
                "expectedDiskRevision",
                read.path("diskRevision").asString(),
                "expectedParentRevision",
                as.directoryRevision(".vscode")));
        assertRefusedAsClientConfiguration(rename, "rename of .vscode/tasks.json");
        JsonNode trash = as.callMutate(
                AttackCalls.trash(".vscode", "directory", as.directoryRevision(".vscode"), as.directoryRevision("")));
        assertRefusedAsClientConfiguration(trash, "trash of .vscode");
        assertThat(root.resolve(".vscode/tasks.json")).hasContent("{\"tasks\":[]}");
    }

    @Test
    void theEditorCannotChangeOrSaveAnExistingVscodeTasksFile() throws Exception {
        Session session = agent.broker()
                .session(new Grant(
                        true,
                        Set.of(),
                        Scopes.validate(List.of("workspace.read", "files.read", "editor.read", "editor.write"))));
        RetryEpochId epoch = agent.broker().connect(session, project);
        AttackCalls as = attack.as(session, epoch);
        Files.createDirectories(root.resolve(".vscode"));
        String tasks = "{\"tasks\":[]}\n";
        Files.writeString(root.resolve(".vscode/tasks.json"), tasks);
        Files.writeString(root.resolve("notes.txt"), "notes\n");

        JsonNode opened = open(as, ".vscode/tasks.json");
        assertThat(opened.path("state").asString())
                .as("opening to read is allowed: %s", opened)
                .isEqualTo("succeeded");
        JsonNode doc = opened.path("result");

        JsonNode edit = as.call("lomi_editor_apply_edits", editorCall(as, doc, true));
        assertRefusedAsClientConfiguration(edit, "apply_edits to .vscode/tasks.json");
        JsonNode save = as.call("lomi_editor_save", editorCall(as, doc, false));
        assertRefusedAsClientConfiguration(save, "save of .vscode/tasks.json");
        assertThat(root.resolve(".vscode/tasks.json")).hasContent(tasks.strip());

        JsonNode notes = open(as, "notes.txt").path("result");
        JsonNode edited = as.ok("lomi_editor_apply_edits", editorCall(as, notes, true));
        assertThat(edited.path("state").asString()).as("%s", edited).isEqualTo("succeeded");
        ObjectNode saveNotes = (ObjectNode) BrokerCallsFixture.JSON.readTree(editorCall(as, notes, false));
        saveNotes.put(
                "expectedBufferRevision",
                edited.path("result").path("bufferRevision").asString());
        JsonNode saved = as.ok("lomi_editor_save", saveNotes.toString());
        assertThat(saved.path("state").asString()).as("%s", saved).isEqualTo("succeeded");
        assertThat(root.resolve("notes.txt")).hasContent("x notes");
    }

    // ------------------------------------------------------------------ helpers

    /** Refused as SCOPE_DENIED with a message that says it is client configuration an admin edits by hand. */
    private static void assertRefusedAsClientConfiguration(JsonNode answer, String what) {
        assertThat(AttackCalls.refusalCode(answer)).as("%s: %s", what, answer).isEqualTo("SCOPE_DENIED");
        if (answer.path("status").asString().equals("ok")) {
            assertThat(answer.path("data").path("effectState").asString())
                    .as(what)
                    .isEqualTo("none");
        }
        assertThat(answer.toString()).as(what).contains("client configuration", "admin", "by hand");
    }

    private JsonNode open(AttackCalls as, String path) {
        return agent.broker()
                .ok(as.session(), "lomi_editor_open", as.durable(agent.key("client-config"), "relativePath", path));
    }

    /** apply_edits (inserting "x " at the start) or save of the document as it was opened. */
    private String editorCall(AttackCalls as, JsonNode doc, boolean edit) {
        ObjectNode node = as.editorCall(
                agent.key("client-config"), doc, doc.path("bufferRevision").asString());
        if (edit) {
            ObjectNode insert = node.putArray("edits").addObject();
            insert.put("fromUtf16", 0);
            insert.put("toUtf16", 0);
            insert.put("insert", "x ");
        }
        return node.toString();
    }
}
