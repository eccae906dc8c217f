package dev.lomicontrol.broker;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.testing.Agent;
import dev.lomicontrol.testing.Eventually;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Attack suite: every mutating tool that names a revision, sent with a stale one — the layout's
 * {@code expectedRevision}, a file's disk revision, a directory's revision, a buffer revision, a
 * settings revision, a git observation, a terminal's input sequence. Each is refused with
 * REVISION_CONFLICT before any receipt exists (a read by key finds nothing) and nothing changes:
 * files, buffers, panels, settings, artifacts, the git index and the terminal stay as they were.
 * (The layout-only tools are covered the same way by {@code LayoutToolsTests}.)
 */
class AttackStaleRevisionTests {

    @RegisterExtension
    final Agent agent = Agent.inProject("stale");

    final AttackCalls attack = new AttackCalls(agent);
    final Path root = agent.project().root();
    Git git;

    // the current state, read after setup
    String panel;
    String document;
    String buffer;
    String editDisk;
    String aDisk;
    String rootRevision;
    String artifact;
    String artifactSha;
    String settingsRevision;
    String observation;

    @BeforeEach
    void open() throws Exception {
        Files.writeString(root.resolve("a.txt"), "alpha\n");
        Files.writeString(root.resolve("e.txt"), "edit me\n");
        git = AttackCalls.gitRepository(root);
        git.add().addFilepattern("a.txt").addFilepattern("e.txt").call();
        git.commit().setMessage("seed").call();
        Files.writeString(root.resolve("a.txt"), "alpha changed\n");

        JsonNode opened = attack.ok(
                        "lomi_editor_open", op(json("workspaceId", agent.workspace(), "relativePath", "e.txt")))
                .path("result");
        panel = opened.path("panelId").asString();
        document = opened.path("documentId").asString();
        editDisk = opened.path("diskRevision").asString();
        ObjectNode edit = editor(opened.path("bufferRevision").asString(), editDisk);
        edit.set("edits", BrokerCallsFixture.JSON.readTree("[{\"fromUtf16\":0,\"toUtf16\":4,\"insert\":\"EDITED\"}]"));
        buffer = attack.ok("lomi_editor_apply_edits", withOp(edit))
                .path("result")
                .path("bufferRevision")
                .asString();
        byte[] bytes = "alpha changed\n".getBytes(StandardCharsets.UTF_8);
        artifactSha = AttackCalls.sha256(bytes);
        artifact = attack.ok("lomi_artifact_import", op(importArguments(bytes.length)))
                .path("result")
                .path("artifactId")
                .asString();
        aDisk = attack.diskRevision("a.txt");
        rootRevision = attack.rootRevision();
        settingsRevision = agent.ok("lomi_settings_read", "workspaceId", agent.workspace(), "section", "editor")
                .path("settingsRevision")
                .asString();
        observation = attack.observation();
    }

    @AfterEach
    void close() {
        git.close();
    }

    @Test
    void aStaleLayoutRevisionIsRefusedOnEveryFileEditorArtifactSettingsAndGitMutationAndLeavesNoReceipt()
            throws Exception {
        String stale = Long.toString(agent.broker().projects.revision() - 1);
        ObjectNode edits = editor(buffer, editDisk);
        edits.set("edits", BrokerCallsFixture.JSON.readTree("[{\"fromUtf16\":0,\"toUtf16\":0,\"insert\":\"X\"}]"));
        ObjectNode update = (ObjectNode) BrokerCallsFixture.JSON.readTree(
                json("workspaceId", agent.workspace(), "expectedSettingsRevision", settingsRevision));
        update.set("patch", BrokerCallsFixture.JSON.readTree("{\"type\":\"editor_tab_size\",\"value\":7}"));
        ObjectNode gitOpen = (ObjectNode) BrokerCallsFixture.JSON.readTree(json("workspaceId", agent.workspace()));
        gitOpen.set("view", BrokerCallsFixture.JSON.readTree(json("type", "diff", "relativePath", "a.txt")));
        Map<String, String> calls = new LinkedHashMap<>();
        calls.put("lomi_files_mutate", mutate(AttackCalls.create("new.txt", "file", rootRevision)));
        calls.put("lomi_editor_open", json("workspaceId", agent.workspace(), "relativePath", "a.txt"));
        calls.put("lomi_editor_apply_edits", edits.toString());
        calls.put("lomi_editor_save", editor(buffer, editDisk).toString());
        calls.put("lomi_artifact_import", importArguments(14));
        calls.put("lomi_artifact_export", exportUnder(rootRevision));
        calls.put("lomi_settings_update", update.toString());
        calls.put("lomi_settings_open", json("workspaceId", agent.workspace(), "page", "editor"));
        calls.put("lomi_git_open", gitOpen.toString());
        ObjectNode gitMutate = (ObjectNode)
                BrokerCallsFixture.JSON.readTree(json("workspaceId", agent.workspace(), "operation", "stage"));
        gitMutate.putArray("paths").add("e.txt");
        calls.put("lomi_git_mutate", gitMutate.toString());
        Snapshot before = snapshot();

        for (Map.Entry<String, String> call : calls.entrySet()) {
            assertConflictLeavesNoReceipt(call.getKey(), readObject(call.getValue()), stale, call.getKey());
        }
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void staleFileAndDirectoryRevisionsAreRefusedOnEveryFilesMutateTypeAndArtifactExport() throws Exception {
        Files.createDirectories(root.resolve("dir"));
        String dirRevision = agent.ok("lomi_files_list", "workspaceId", agent.workspace(), "relativeDirectory", "dir")
                .path("directoryRevision")
                .asString();
        String freshRoot = attack.rootRevision();
        String staleDisk = "1".repeat(64);
        String staleDir = rootRevision; // the root listing before dir/ appeared
        Map<String, String> calls = new LinkedHashMap<>();
        calls.put("create (stale parent)", mutate(AttackCalls.create("n.txt", "file", staleDir)));
        calls.put("rename (stale file)", mutate(AttackCalls.rename("a.txt", "b.txt", staleDisk, freshRoot)));
        calls.put("rename (stale parent)", mutate(AttackCalls.rename("a.txt", "b.txt", aDisk, staleDir)));
        calls.put("move (stale target)", mutate(AttackCalls.move("a.txt", "dir/a.txt", aDisk, staleDisk)));
        calls.put("move (stale file)", mutate(AttackCalls.move("a.txt", "dir/a.txt", staleDisk, dirRevision)));
        calls.put(
                "rename_directory (stale dir)",
                mutate(AttackCalls.fileOperation(
                        "rename_directory",
                        "dir",
                        "newName",
                        "dir2",
                        "expectedDirectoryRevision",
                        staleDisk,
                        freshRoot)));
        calls.put(
                "move_directory (stale parent)",
                mutate(AttackCalls.fileOperation(
                        "move_directory",
                        "dir",
                        "targetRelativePath",
                        "dir3",
                        "expectedDirectoryRevision",
                        dirRevision,
                        staleDir)));
        calls.put("trash (stale entry)", mutate(AttackCalls.trash("a.txt", "file", staleDisk, freshRoot)));
        calls.put("trash dir (stale entry)", mutate(AttackCalls.trash("dir", "directory", staleDisk, freshRoot)));
        calls.put("export (stale parent)", exportUnder(staleDir));
        Snapshot before = snapshot();

        for (Map.Entry<String, String> call : calls.entrySet()) {
            String tool = call.getKey().startsWith("export") ? "lomi_artifact_export" : "lomi_files_mutate";
            assertConflictLeavesNoReceipt(
                    tool, readObject(call.getValue()), agent.broker().revision(), call.getKey());
        }
        assertThat(snapshot()).isEqualTo(before);
        assertThat(root.resolve("dir")).isEmptyDirectory();
    }

    @Test
    void staleBufferAndDiskRevisionsAreRefusedByTheEditor() throws Exception {
        String staleBuffer = document + ":0";
        ObjectNode edits = editor(staleBuffer, editDisk);
        edits.set("edits", BrokerCallsFixture.JSON.readTree("[{\"fromUtf16\":0,\"toUtf16\":0,\"insert\":\"X\"}]"));
        ObjectNode staleDiskEdits = editor(buffer, "2".repeat(64));
        staleDiskEdits.set(
                "edits", BrokerCallsFixture.JSON.readTree("[{\"fromUtf16\":0,\"toUtf16\":0,\"insert\":\"X\"}]"));
        Snapshot before = snapshot();

        for (String[] call : new String[][] {
            {"lomi_editor_apply_edits", withOp(edits)},
            {"lomi_editor_apply_edits", withOp(staleDiskEdits)},
            {"lomi_editor_save", withOp(editor(staleBuffer, editDisk))},
            {"lomi_editor_save", withOp(editor(buffer, "2".repeat(64)))}
        }) {
            String key =
                    BrokerCallsFixture.JSON.readTree(call[1]).path("requestKey").asString();
            assertThat(attack.refused(call[0], call[1])).as(call[1]).isEqualTo(ErrorCode.REVISION_CONFLICT);
            attack.assertNoReceipt(call[0], key);
        }
        // the file changes on disk under the buffer: the save names the revision the buffer was loaded from, which is
        // now stale
        Files.writeString(root.resolve("e.txt"), "changed by someone else\n");
        assertConflictLeavesNoReceipt(
                "lomi_editor_save", editor(buffer, editDisk), agent.broker().revision(), "a save over a changed disk");
        assertThat(root.resolve("e.txt")).hasContent("changed by someone else\n");
        assertThat(snapshot().buffer()).isEqualTo(before.buffer());
    }

    @Test
    void aStaleSettingsRevisionIsRefusedBeforeTheAdminIsAsked() throws Exception {
        ObjectNode update = (ObjectNode) BrokerCallsFixture.JSON.readTree(
                json("workspaceId", agent.workspace(), "expectedSettingsRevision", "editor:999"));
        update.set("patch", BrokerCallsFixture.JSON.readTree("{\"type\":\"editor_tab_size\",\"value\":7}"));
        Snapshot before = snapshot();

        assertConflictLeavesNoReceipt(
                "lomi_settings_update", update, agent.broker().revision(), "a stale settings revision");
        assertThat(agent.broker().decisions.list()).isEmpty();
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void aStaleGitObservationIsRefusedOnEveryMutationBeforeTheAdminIsAsked() throws Exception {
        // the repository moves on after the agent observed it: a.txt gets staged, e.txt changes
        git.add().addFilepattern("a.txt").call();
        Files.writeString(root.resolve("e.txt"), "moved on\n");
        String head = git.getRepository().resolve("HEAD").name();
        Map<String, String> operations = new LinkedHashMap<>();
        operations.put("stage", "{\"paths\":[\"e.txt\"]}");
        operations.put("unstage", "{\"paths\":[\"a.txt\"]}");
        operations.put("discard", "{\"paths\":[\"e.txt\"]}");
        operations.put("commit", "{\"message\":\"sneaky\",\"paths\":[\"a.txt\"]}");
        Snapshot before = snapshot();

        for (Map.Entry<String, String> operation : operations.entrySet()) {
            ObjectNode request = readObject(operation.getValue());
            request.put("workspaceId", agent.workspace());
            request.put("operation", operation.getKey());
            request.put("expectedObservationRevision", observation);
            assertConflictLeavesNoReceipt(
                    "lomi_git_mutate", request, agent.broker().revision(), operation.getKey());
        }
        assertThat(agent.broker().decisions.list()).isEmpty();
        assertThat(git.getRepository().resolve("HEAD").name()).isEqualTo(head);
        assertThat(root.resolve("e.txt")).hasContent("moved on\n");
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void aStaleInputSequenceOrTerminalSessionTypesNothing() throws Exception {
        JsonNode created = attack.ok("lomi_terminal_create", op(json("workspaceId", agent.workspace())))
                .path("result");
        String terminal = created.path("terminalSessionId").asString();
        String termPanel = created.path("panelId").asString();
        String lease = created.path("leaseId").asString();
        JsonNode first = attack.ok("lomi_terminal_input", input(termPanel, terminal, lease, "1", "echo ONE-$((40+2))"));
        assertThat(first.path("state").asString()).isEqualTo("dispatched");

        assertThat(attack.refused(
                        "lomi_terminal_input", input(termPanel, terminal, lease, "1", "echo REPLAYED-$((40+2))")))
                .as("the same sequence with another payload")
                .isEqualTo(ErrorCode.IDEMPOTENCY_CONFLICT);
        assertThat(attack.refused(
                        "lomi_terminal_input", input(termPanel, terminal, lease, "3", "echo SKIPPED-$((40+2))")))
                .as("a gap")
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(attack.refused(
                        "lomi_terminal_input", input(termPanel, "0".repeat(32), lease, "2", "echo WRONG-$((40+2))")))
                .as("another terminal session")
                .isIn(ErrorCode.STALE_GENERATION, ErrorCode.TARGET_NOT_FOUND);
        attack.ok("lomi_terminal_input", input(termPanel, terminal, lease, "2", "\r"));

        // input is ordered: anything wrongly accepted above was typed before this Enter, so it shows by the time ONE-42
        // does
        String output = awaitOutput(termPanel, terminal, "ONE-42");
        assertThat(output).doesNotContain("REPLAYED-42", "SKIPPED-42", "WRONG-42");
    }

    // --- helpers

    /** What a refused mutation must leave untouched. */
    record Snapshot(
            String files, String buffer, int panels, String settings, int artifacts, String index, int decisions) {}

    private Snapshot snapshot() throws Exception {
        StringBuilder files = new StringBuilder();
        try (var walk = Files.walk(root)) {
            for (Path path : walk.filter(p -> !p.startsWith(root.resolve(".git")))
                    .sorted()
                    .toList()) {
                files.append(root.relativize(path))
                        .append(Files.isRegularFile(path) ? "=" + Files.readString(path) : "/")
                        .append('\n');
            }
        }
        String bufferNow = agent.ok(
                        "lomi_editor_read", "workspaceId", agent.workspace(), "panelId", panel, "relativePath", "e.txt")
                .path("bufferRevision")
                .asString();
        int panels = attack.panels();
        String settings = agent.ok("lomi_settings_read", "workspaceId", agent.workspace(), "section", "editor")
                .toString();
        int artifacts;
        try (var stored = Files.list(agent.broker().temp.resolve("artifacts"))) {
            artifacts = (int) stored.count();
        }
        StringBuilder index = new StringBuilder();
        var cache = git.getRepository().readDirCache();
        for (int i = 0; i < cache.getEntryCount(); i++) {
            index.append(cache.getEntry(i).getPathString())
                    .append(' ')
                    .append(cache.getEntry(i).getObjectId().name())
                    .append('\n');
        }
        return new Snapshot(
                files.toString(),
                bufferNow,
                panels,
                settings,
                artifacts,
                index.toString(),
                agent.broker().decisions.list().size());
    }

    /**
     * Sends {@code arguments} with this layout revision, the agent's retry epoch and a fresh request key:
     * refused with REVISION_CONFLICT, and no receipt under that key.
     */
    private void assertConflictLeavesNoReceipt(String tool, ObjectNode arguments, String layoutRevision, String as) {
        String key = agent.key("stale");
        arguments.put("expectedRevision", layoutRevision);
        arguments.put("retryEpoch", agent.epoch().value());
        arguments.put("requestKey", key);
        assertThat(attack.refused(tool, arguments.toString())).as(as).isEqualTo(ErrorCode.REVISION_CONFLICT);
        attack.assertNoReceipt(tool, key);
    }

    /** The arguments of an import of a.txt, said to be {@code byteLength} bytes with the artifact's sha256. */
    private String importArguments(int byteLength) {
        return json(
                "workspaceId",
                agent.workspace(),
                "relativePath",
                "a.txt",
                "kind",
                "file",
                "expectedByteLength",
                byteLength,
                "expectedSha256",
                artifactSha);
    }

    /** The arguments of an export of the artifact to exported.txt under a parent at {@code parentRevision}. */
    private String exportUnder(String parentRevision) {
        return json(
                "workspaceId",
                agent.workspace(),
                "artifactId",
                artifact,
                "expectedSha256",
                artifactSha,
                "relativePath",
                "exported.txt",
                "expectedParentRevision",
                parentRevision);
    }

    private static ObjectNode readObject(String json) {
        return (ObjectNode) BrokerCallsFixture.JSON.readTree(json);
    }

    private ObjectNode editor(String bufferRevision, String diskRevision) {
        return (ObjectNode) BrokerCallsFixture.JSON.readTree(json(
                "workspaceId",
                agent.workspace(),
                "panelId",
                panel,
                "relativePath",
                "e.txt",
                "documentId",
                document,
                "expectedBufferRevision",
                bufferRevision,
                "expectedDiskRevision",
                diskRevision));
    }

    private String withOp(ObjectNode arguments) {
        ObjectNode copy = arguments.deepCopy();
        copy.put("expectedRevision", agent.broker().revision());
        copy.put("retryEpoch", agent.epoch().value());
        copy.put("requestKey", agent.key("stale"));
        return copy.toString();
    }

    private String op(String arguments) {
        return withOp((ObjectNode) BrokerCallsFixture.JSON.readTree(arguments));
    }

    private String mutate(JsonNode operation) {
        ObjectNode node = Agent.object("workspaceId", agent.workspace());
        node.set("operation", operation);
        return node.toString();
    }

    private String input(String termPanel, String terminal, String lease, String sequence, String text) {
        ObjectNode node = (ObjectNode) BrokerCallsFixture.JSON.readTree(json(
                "workspaceId",
                agent.workspace(),
                "panelId",
                termPanel,
                "terminalSessionId",
                terminal,
                "leaseId",
                lease,
                "inputSequence",
                sequence));
        node.set("input", BrokerCallsFixture.JSON.readTree(json("type", "text", "text", text)));
        return node.toString();
    }

    private String awaitOutput(String termPanel, String terminal, String needle) {
        return Eventually.await(
                "the terminal prints " + needle,
                Duration.ofSeconds(30),
                () -> agent.ok(
                                "lomi_terminal_read",
                                "workspaceId",
                                agent.workspace(),
                                "panelId",
                                termPanel,
                                "terminalSessionId",
                                terminal,
                                "cursor",
                                "0",
                                "maxBytes",
                                65536)
                        .path("text")
                        .asString(),
                text -> text.contains(needle));
    }
}
