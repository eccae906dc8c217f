package dev.lomicontrol.broker;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static dev.lomicontrol.broker.BrokerCallsFixture.workspaceOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.testing.Eventually;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.StoredConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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

    @TempDir
    Path temp;

    BrokerCallsFixture broker;
    Session session;
    Project project;
    RetryEpochId epoch;
    String ws;
    Path root;
    Git git;
    final AtomicInteger keys = new AtomicInteger();

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
        broker = new BrokerCallsFixture(temp);
        project = broker.project("stale");
        root = project.root();
        Files.writeString(root.resolve("a.txt"), "alpha\n");
        Files.writeString(root.resolve("e.txt"), "edit me\n");
        git = Git.init().setDirectory(root.toFile()).setInitialBranch("main").call();
        StoredConfig config = git.getRepository().getConfig();
        config.setString("user", null, "name", "Attack Test");
        config.setString("user", null, "email", "attack@example.com");
        config.save();
        git.add().addFilepattern("a.txt").addFilepattern("e.txt").call();
        git.commit().setMessage("seed").call();
        Files.writeString(root.resolve("a.txt"), "alpha changed\n");
        session = broker.session();
        epoch = broker.connect(session, project);
        ws = workspaceOf(project);

        JsonNode opened = broker.ok(session, "lomi_editor_open", op(json("workspaceId", ws, "relativePath", "e.txt")))
                .path("result");
        panel = opened.path("panelId").asString();
        document = opened.path("documentId").asString();
        editDisk = opened.path("diskRevision").asString();
        ObjectNode edit = editor(opened.path("bufferRevision").asString(), editDisk);
        edit.set("edits", BrokerCallsFixture.JSON.readTree("[{\"fromUtf16\":0,\"toUtf16\":4,\"insert\":\"EDITED\"}]"));
        buffer = broker.ok(session, "lomi_editor_apply_edits", withOp(edit))
                .path("result")
                .path("bufferRevision")
                .asString();
        byte[] bytes = "alpha changed\n".getBytes(StandardCharsets.UTF_8);
        artifactSha = AttackLinksTests.sha256(bytes);
        artifact = broker.ok(
                        session,
                        "lomi_artifact_import",
                        op(json(
                                "workspaceId",
                                ws,
                                "relativePath",
                                "a.txt",
                                "kind",
                                "file",
                                "expectedByteLength",
                                bytes.length,
                                "expectedSha256",
                                artifactSha)))
                .path("result")
                .path("artifactId")
                .asString();
        aDisk = broker.ok(session, "lomi_files_read", json("workspaceId", ws, "relativePath", "a.txt"))
                .path("diskRevision")
                .asString();
        rootRevision = broker.ok(session, "lomi_files_list", json("workspaceId", ws))
                .path("directoryRevision")
                .asString();
        settingsRevision = broker.ok(session, "lomi_settings_read", json("workspaceId", ws, "section", "editor"))
                .path("settingsRevision")
                .asString();
        observation = broker.ok(session, "lomi_git_status", json("workspaceId", ws))
                .path("observationRevision")
                .asString();
    }

    @AfterEach
    void close() {
        git.close();
        broker.close();
    }

    @Test
    void aStaleLayoutRevisionIsRefusedOnEveryFileEditorArtifactSettingsAndGitMutationAndLeavesNoReceipt()
            throws Exception {
        String stale = Long.toString(broker.projects.revision() - 1);
        ObjectNode edits = editor(buffer, editDisk);
        edits.set("edits", BrokerCallsFixture.JSON.readTree("[{\"fromUtf16\":0,\"toUtf16\":0,\"insert\":\"X\"}]"));
        ObjectNode update = (ObjectNode)
                BrokerCallsFixture.JSON.readTree(json("workspaceId", ws, "expectedSettingsRevision", settingsRevision));
        update.set("patch", BrokerCallsFixture.JSON.readTree("{\"type\":\"editor_tab_size\",\"value\":7}"));
        ObjectNode gitOpen = (ObjectNode) BrokerCallsFixture.JSON.readTree(json("workspaceId", ws));
        gitOpen.set("view", BrokerCallsFixture.JSON.readTree(json("type", "diff", "relativePath", "a.txt")));
        Map<String, String> calls = new LinkedHashMap<>();
        calls.put(
                "lomi_files_mutate",
                mutate(json(
                        "type",
                        "create",
                        "relativePath",
                        "new.txt",
                        "kind",
                        "file",
                        "expectedParentRevision",
                        rootRevision)));
        calls.put("lomi_editor_open", json("workspaceId", ws, "relativePath", "a.txt"));
        calls.put("lomi_editor_apply_edits", edits.toString());
        calls.put("lomi_editor_save", editor(buffer, editDisk).toString());
        calls.put(
                "lomi_artifact_import",
                json(
                        "workspaceId",
                        ws,
                        "relativePath",
                        "a.txt",
                        "kind",
                        "file",
                        "expectedByteLength",
                        14,
                        "expectedSha256",
                        artifactSha));
        calls.put(
                "lomi_artifact_export",
                json(
                        "workspaceId",
                        ws,
                        "artifactId",
                        artifact,
                        "expectedSha256",
                        artifactSha,
                        "relativePath",
                        "exported.txt",
                        "expectedParentRevision",
                        rootRevision));
        calls.put("lomi_settings_update", update.toString());
        calls.put("lomi_settings_open", json("workspaceId", ws, "page", "editor"));
        calls.put("lomi_git_open", gitOpen.toString());
        ObjectNode gitMutate =
                (ObjectNode) BrokerCallsFixture.JSON.readTree(json("workspaceId", ws, "operation", "stage"));
        gitMutate.putArray("paths").add("e.txt");
        calls.put("lomi_git_mutate", gitMutate.toString());
        Snapshot before = snapshot();

        for (Map.Entry<String, String> call : calls.entrySet()) {
            String key = key();
            ObjectNode arguments = (ObjectNode) BrokerCallsFixture.JSON.readTree(call.getValue());
            arguments.put("expectedRevision", stale);
            arguments.put("retryEpoch", epoch.value());
            arguments.put("requestKey", key);
            assertThat(broker.refused(session, call.getKey(), arguments.toString()))
                    .as(call.getKey())
                    .isEqualTo(ErrorCode.REVISION_CONFLICT);
            assertNoReceipt(call.getKey(), key);
        }
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void staleFileAndDirectoryRevisionsAreRefusedOnEveryFilesMutateTypeAndArtifactExport() throws Exception {
        Files.createDirectories(root.resolve("dir"));
        String dirRevision = broker.ok(session, "lomi_files_list", json("workspaceId", ws, "relativeDirectory", "dir"))
                .path("directoryRevision")
                .asString();
        String freshRoot = broker.ok(session, "lomi_files_list", json("workspaceId", ws))
                .path("directoryRevision")
                .asString();
        String staleDisk = "1".repeat(64);
        String staleDir = rootRevision; // the root listing before dir/ appeared
        Map<String, String> calls = new LinkedHashMap<>();
        calls.put(
                "create (stale parent)",
                mutate(json(
                        "type",
                        "create",
                        "relativePath",
                        "n.txt",
                        "kind",
                        "file",
                        "expectedParentRevision",
                        staleDir)));
        calls.put(
                "rename (stale file)",
                mutate(json(
                        "type",
                        "rename",
                        "relativePath",
                        "a.txt",
                        "newName",
                        "b.txt",
                        "expectedDiskRevision",
                        staleDisk,
                        "expectedParentRevision",
                        freshRoot)));
        calls.put(
                "rename (stale parent)",
                mutate(json(
                        "type",
                        "rename",
                        "relativePath",
                        "a.txt",
                        "newName",
                        "b.txt",
                        "expectedDiskRevision",
                        aDisk,
                        "expectedParentRevision",
                        staleDir)));
        calls.put(
                "move (stale target)",
                mutate(json(
                        "type",
                        "move",
                        "relativePath",
                        "a.txt",
                        "targetRelativePath",
                        "dir/a.txt",
                        "expectedDiskRevision",
                        aDisk,
                        "expectedParentRevision",
                        staleDisk)));
        calls.put(
                "move (stale file)",
                mutate(json(
                        "type",
                        "move",
                        "relativePath",
                        "a.txt",
                        "targetRelativePath",
                        "dir/a.txt",
                        "expectedDiskRevision",
                        staleDisk,
                        "expectedParentRevision",
                        dirRevision)));
        calls.put(
                "rename_directory (stale dir)",
                mutate(json(
                        "type",
                        "rename_directory",
                        "relativePath",
                        "dir",
                        "newName",
                        "dir2",
                        "expectedDirectoryRevision",
                        staleDisk,
                        "expectedParentRevision",
                        freshRoot)));
        calls.put(
                "move_directory (stale parent)",
                mutate(json(
                        "type",
                        "move_directory",
                        "relativePath",
                        "dir",
                        "targetRelativePath",
                        "dir3",
                        "expectedDirectoryRevision",
                        dirRevision,
                        "expectedParentRevision",
                        staleDir)));
        calls.put(
                "trash (stale entry)",
                mutate(json(
                        "type",
                        "trash",
                        "relativePath",
                        "a.txt",
                        "kind",
                        "file",
                        "expectedEntryRevision",
                        staleDisk,
                        "expectedParentRevision",
                        freshRoot)));
        calls.put(
                "trash dir (stale entry)",
                mutate(json(
                        "type",
                        "trash",
                        "relativePath",
                        "dir",
                        "kind",
                        "directory",
                        "expectedEntryRevision",
                        staleDisk,
                        "expectedParentRevision",
                        freshRoot)));
        calls.put(
                "export (stale parent)",
                json(
                        "workspaceId",
                        ws,
                        "artifactId",
                        artifact,
                        "expectedSha256",
                        artifactSha,
                        "relativePath",
                        "exported.txt",
                        "expectedParentRevision",
                        staleDir));
        Snapshot before = snapshot();

        for (Map.Entry<String, String> call : calls.entrySet()) {
            String tool = call.getKey().startsWith("export") ? "lomi_artifact_export" : "lomi_files_mutate";
            String key = key();
            ObjectNode arguments = (ObjectNode) BrokerCallsFixture.JSON.readTree(call.getValue());
            arguments.put("expectedRevision", broker.revision());
            arguments.put("retryEpoch", epoch.value());
            arguments.put("requestKey", key);
            assertThat(broker.refused(session, tool, arguments.toString()))
                    .as(call.getKey())
                    .isEqualTo(ErrorCode.REVISION_CONFLICT);
            assertNoReceipt(tool, key);
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
            assertThat(broker.refused(session, call[0], call[1])).as(call[1]).isEqualTo(ErrorCode.REVISION_CONFLICT);
            assertNoReceipt(call[0], key);
        }
        // the file changes on disk under the buffer: the save names the revision the buffer was loaded from, which is
        // now stale
        Files.writeString(root.resolve("e.txt"), "changed by someone else\n");
        String key = key();
        ObjectNode save = editor(buffer, editDisk);
        save.put("expectedRevision", broker.revision());
        save.put("retryEpoch", epoch.value());
        save.put("requestKey", key);
        assertThat(broker.refused(session, "lomi_editor_save", save.toString())).isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertNoReceipt("lomi_editor_save", key);
        assertThat(root.resolve("e.txt")).hasContent("changed by someone else\n");
        assertThat(snapshot().buffer()).isEqualTo(before.buffer());
    }

    @Test
    void aStaleSettingsRevisionIsRefusedBeforeTheAdminIsAsked() throws Exception {
        ObjectNode update = (ObjectNode)
                BrokerCallsFixture.JSON.readTree(json("workspaceId", ws, "expectedSettingsRevision", "editor:999"));
        update.set("patch", BrokerCallsFixture.JSON.readTree("{\"type\":\"editor_tab_size\",\"value\":7}"));
        String key = key();
        update.put("expectedRevision", broker.revision());
        update.put("retryEpoch", epoch.value());
        update.put("requestKey", key);
        Snapshot before = snapshot();

        assertThat(broker.refused(session, "lomi_settings_update", update.toString()))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertNoReceipt("lomi_settings_update", key);
        assertThat(broker.decisions.list()).isEmpty();
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
            String key = key();
            ObjectNode request = (ObjectNode) BrokerCallsFixture.JSON.readTree(operation.getValue());
            request.put("workspaceId", ws);
            request.put("operation", operation.getKey());
            request.put("expectedObservationRevision", observation);
            request.put("expectedRevision", broker.revision());
            request.put("retryEpoch", epoch.value());
            request.put("requestKey", key);
            assertThat(broker.refused(session, "lomi_git_mutate", request.toString()))
                    .as(operation.getKey())
                    .isEqualTo(ErrorCode.REVISION_CONFLICT);
            assertNoReceipt("lomi_git_mutate", key);
        }
        assertThat(broker.decisions.list()).isEmpty();
        assertThat(git.getRepository().resolve("HEAD").name()).isEqualTo(head);
        assertThat(root.resolve("e.txt")).hasContent("moved on\n");
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void aStaleInputSequenceOrTerminalSessionTypesNothing() throws Exception {
        JsonNode created = broker.ok(session, "lomi_terminal_create", op(json("workspaceId", ws)))
                .path("result");
        String terminal = created.path("terminalSessionId").asString();
        String termPanel = created.path("panelId").asString();
        String lease = created.path("leaseId").asString();
        JsonNode first =
                broker.ok(session, "lomi_terminal_input", input(termPanel, terminal, lease, "1", "echo ONE-$((40+2))"));
        assertThat(first.path("state").asString()).isEqualTo("dispatched");

        assertThat(broker.refused(
                        session,
                        "lomi_terminal_input",
                        input(termPanel, terminal, lease, "1", "echo REPLAYED-$((40+2))")))
                .as("the same sequence with another payload")
                .isEqualTo(ErrorCode.IDEMPOTENCY_CONFLICT);
        assertThat(broker.refused(
                        session,
                        "lomi_terminal_input",
                        input(termPanel, terminal, lease, "3", "echo SKIPPED-$((40+2))")))
                .as("a gap")
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(broker.refused(
                        session,
                        "lomi_terminal_input",
                        input(termPanel, "0".repeat(32), lease, "2", "echo WRONG-$((40+2))")))
                .as("another terminal session")
                .isIn(ErrorCode.STALE_GENERATION, ErrorCode.TARGET_NOT_FOUND);
        broker.ok(session, "lomi_terminal_input", input(termPanel, terminal, lease, "2", "\r"));

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
        String bufferNow = broker.ok(
                        session, "lomi_editor_read", json("workspaceId", ws, "panelId", panel, "relativePath", "e.txt"))
                .path("bufferRevision")
                .asString();
        int panels = broker.ok(session, "lomi_panel_list", json("workspaceId", ws))
                .path("panels")
                .size();
        String settings = broker.ok(session, "lomi_settings_read", json("workspaceId", ws, "section", "editor"))
                .toString();
        int artifacts;
        try (var stored = Files.list(temp.resolve("artifacts"))) {
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
                broker.decisions.list().size());
    }

    private ObjectNode editor(String bufferRevision, String diskRevision) {
        return (ObjectNode) BrokerCallsFixture.JSON.readTree(json(
                "workspaceId",
                ws,
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
        copy.put("expectedRevision", broker.revision());
        copy.put("retryEpoch", epoch.value());
        copy.put("requestKey", key());
        return copy.toString();
    }

    private String op(String arguments) {
        return withOp((ObjectNode) BrokerCallsFixture.JSON.readTree(arguments));
    }

    private String mutate(String operation) {
        ObjectNode node = (ObjectNode) BrokerCallsFixture.JSON.readTree(json("workspaceId", ws));
        node.set("operation", BrokerCallsFixture.JSON.readTree(operation));
        return node.toString();
    }

    private String input(String termPanel, String terminal, String lease, String sequence, String text) {
        ObjectNode node = (ObjectNode) BrokerCallsFixture.JSON.readTree(json(
                "workspaceId",
                ws,
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
                () -> broker.ok(
                                session,
                                "lomi_terminal_read",
                                json(
                                        "workspaceId",
                                        ws,
                                        "panelId",
                                        termPanel,
                                        "terminalSessionId",
                                        terminal,
                                        "cursor",
                                        "0",
                                        "maxBytes",
                                        65536))
                        .path("text")
                        .asString(),
                text -> text.contains(needle));
    }

    private String key() {
        return "stale-" + keys.incrementAndGet();
    }

    private void assertNoReceipt(String tool, String key) {
        assertThat(broker.refused(
                        session,
                        "lomi_operation_get",
                        json("retryEpoch", epoch.value(), "requestKey", key, "tool", tool)))
                .as("no receipt for %s %s", tool, key)
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
    }
}
