package dev.lomicontrol.broker;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static dev.lomicontrol.broker.BrokerCallsFixture.workspaceOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Project;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.StoredConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Attack suite: symbolic links and hard links that lead from the project to a file outside it,
 * tried against every tool that reads or writes project files (files, editor, artifacts, git,
 * terminal cwd). Each attempt is refused with its code, and nothing outside the project is read
 * into an answer, copied into an artifact, or changed — and a refusal before the receipt leaves
 * no receipt.
 */
class AttackLinksTests {

    static final String SECRET = "OUTSIDE-SECRET-7f3a";

    @TempDir
    Path temp;

    BrokerCallsFixture broker;
    Session session;
    Project project;
    RetryEpochId epoch;
    String ws;
    Path root;
    Path outside;
    Git git;
    final AtomicInteger keys = new AtomicInteger();

    @BeforeEach
    void open() throws Exception {
        broker = new BrokerCallsFixture(temp);
        project = broker.project("links");
        root = project.root();
        outside = Files.createDirectories(temp.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), SECRET + "\n");
        Files.writeString(root.resolve("tracked.txt"), "tracked\n");
        Files.writeString(root.resolve("plain.txt"), "plain\n");
        git = Git.init().setDirectory(root.toFile()).setInitialBranch("main").call();
        StoredConfig config = git.getRepository().getConfig();
        config.setString("user", null, "name", "Attack Test");
        config.setString("user", null, "email", "attack@example.com");
        config.save();
        git.add().addFilepattern("tracked.txt").addFilepattern("plain.txt").call();
        git.commit().setMessage("seed").call();
        Files.createLink(root.resolve("hard.txt"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(root.resolve("sym.txt"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(root.resolve("symdir"), outside);
        session = broker.session();
        epoch = broker.connect(session, project);
        ws = workspaceOf(project);
    }

    @AfterEach
    void close() {
        git.close();
        broker.close();
    }

    @Test
    void linksAreInvisibleToListingAndSearchAndRefusedOnDirectRead() {
        JsonNode list = broker.ok(session, "lomi_files_list", json("workspaceId", ws));
        assertThat(list.path("filtered").asBoolean()).isTrue();
        assertThat(list.toString()).doesNotContain("hard.txt", "sym.txt", "symdir");

        ObjectNode search = (ObjectNode) BrokerCallsFixture.JSON.readTree(json("workspaceId", ws));
        search.set("query", BrokerCallsFixture.JSON.readTree(json("text", SECRET)));
        assertThat(broker.ok(session, "lomi_files_search", search.toString()).path("matches"))
                .isEmpty();

        for (String path : List.of("hard.txt", "sym.txt", "symdir/secret.txt")) {
            JsonNode refused = broker.call(session, "lomi_files_read", json("workspaceId", ws, "relativePath", path));
            assertThat(refused.path("code").asString()).as(path).isIn("SCOPE_DENIED", "TARGET_NOT_FOUND");
            assertThat(refused.toString()).doesNotContain(SECRET);
        }
        assertThat(broker.refused(session, "lomi_files_list", json("workspaceId", ws, "relativeDirectory", "symdir")))
                .isIn(ErrorCode.SCOPE_DENIED, ErrorCode.TARGET_NOT_FOUND);
    }

    @Test
    void theEditorRefusesToOpenAHardLinkOrASymlinkAndLeavesNoReceiptNorPanel() {
        int panelsBefore = panels();
        for (String path : List.of("hard.txt", "sym.txt", "symdir/secret.txt")) {
            String key = key();
            ErrorCode code = broker.refused(
                    session,
                    "lomi_editor_open",
                    json(
                            "workspaceId",
                            ws,
                            "relativePath",
                            path,
                            "expectedRevision",
                            broker.revision(),
                            "retryEpoch",
                            epoch.value(),
                            "requestKey",
                            key));
            assertThat(code).as(path).isIn(ErrorCode.SCOPE_DENIED, ErrorCode.TARGET_NOT_FOUND);
            assertNoReceipt("lomi_editor_open", key);
        }
        assertThat(panels()).isEqualTo(panelsBefore);
    }

    @Test
    void aSaveOverAFileSwappedForALinkToAnOutsideFileNeverWritesThroughIt() throws Exception {
        Path victim = outside.resolve("victim.txt");
        for (boolean hardLink : new boolean[] {true, false}) {
            String name = hardLink ? "swap-hard.txt" : "swap-sym.txt";
            Files.writeString(root.resolve(name), "same\n");
            Files.writeString(victim, "same\n");
            JsonNode opened = broker.ok(
                            session,
                            "lomi_editor_open",
                            json(
                                    "workspaceId",
                                    ws,
                                    "relativePath",
                                    name,
                                    "expectedRevision",
                                    broker.revision(),
                                    "retryEpoch",
                                    epoch.value(),
                                    "requestKey",
                                    key()))
                    .path("result");
            String panel = opened.path("panelId").asString();
            String document = opened.path("documentId").asString();
            String disk = opened.path("diskRevision").asString();
            ObjectNode edit = (ObjectNode) BrokerCallsFixture.JSON.readTree(json(
                    "workspaceId",
                    ws,
                    "panelId",
                    panel,
                    "relativePath",
                    name,
                    "documentId",
                    document,
                    "expectedBufferRevision",
                    opened.path("bufferRevision").asString(),
                    "expectedDiskRevision",
                    disk,
                    "expectedRevision",
                    broker.revision(),
                    "retryEpoch",
                    epoch.value(),
                    "requestKey",
                    key()));
            edit.set(
                    "edits",
                    BrokerCallsFixture.JSON.readTree("[{\"fromUtf16\":0,\"toUtf16\":4,\"insert\":\"OVERWRITTEN\"}]"));
            String buffer = broker.ok(session, "lomi_editor_apply_edits", edit.toString())
                    .path("result")
                    .path("bufferRevision")
                    .asString();

            // the attacker swaps the file for a link to an outside file with the very same bytes (same disk revision)
            Files.delete(root.resolve(name));
            if (hardLink) {
                Files.createLink(root.resolve(name), victim);
            } else {
                Files.createSymbolicLink(root.resolve(name), victim);
            }
            String key = key();
            JsonNode save = broker.call(
                    session,
                    "lomi_editor_save",
                    json(
                            "workspaceId",
                            ws,
                            "panelId",
                            panel,
                            "relativePath",
                            name,
                            "documentId",
                            document,
                            "expectedBufferRevision",
                            buffer,
                            "expectedDiskRevision",
                            disk,
                            "expectedRevision",
                            broker.revision(),
                            "retryEpoch",
                            epoch.value(),
                            "requestKey",
                            key));

            assertThat(refusalCode(save))
                    .as("%s: %s", name, save)
                    .isIn("SCOPE_DENIED", "TARGET_NOT_FOUND", "REVISION_CONFLICT");
            assertNothingHappenedTo(save, "lomi_editor_save", key);
            assertThat(victim).as(name).hasContent("same\n");
            Files.delete(root.resolve(name));
            Files.delete(victim);
        }
    }

    @Test
    void artifactImportNeverCopiesAnOutsideFileThroughALink() throws Exception {
        byte[] bytes = (SECRET + "\n").getBytes(StandardCharsets.UTF_8);
        for (String path : List.of("hard.txt", "sym.txt", "symdir/secret.txt")) {
            String key = key();
            JsonNode answer = broker.call(
                    session,
                    "lomi_artifact_import",
                    json(
                            "workspaceId",
                            ws,
                            "relativePath",
                            path,
                            "kind",
                            "file",
                            "expectedByteLength",
                            bytes.length,
                            "expectedSha256",
                            sha256(bytes),
                            "expectedRevision",
                            broker.revision(),
                            "retryEpoch",
                            epoch.value(),
                            "requestKey",
                            key));
            assertThat(refusalCode(answer)).as("%s: %s", path, answer).isIn("SCOPE_DENIED", "TARGET_NOT_FOUND");
            assertNothingHappenedTo(answer, "lomi_artifact_import", key);
        }
        assertThat(storedArtifacts()).isEmpty();
    }

    @Test
    void artifactExportNeverWritesThroughALinkedDirectoryOrADanglingLink() throws Exception {
        Files.writeString(root.resolve("payload.txt"), "payload\n");
        byte[] bytes = "payload\n".getBytes(StandardCharsets.UTF_8);
        String sha = sha256(bytes);
        JsonNode imported = broker.ok(
                session,
                "lomi_artifact_import",
                json(
                        "workspaceId",
                        ws,
                        "relativePath",
                        "payload.txt",
                        "kind",
                        "file",
                        "expectedByteLength",
                        bytes.length,
                        "expectedSha256",
                        sha,
                        "expectedRevision",
                        broker.revision(),
                        "retryEpoch",
                        epoch.value(),
                        "requestKey",
                        key()));
        String artifact = imported.path("result").path("artifactId").asString();
        Files.createSymbolicLink(root.resolve("trap.bin"), outside.resolve("planted.bin"));
        String rootRevision = broker.ok(session, "lomi_files_list", json("workspaceId", ws))
                .path("directoryRevision")
                .asString();

        String dangling = key();
        JsonNode throughDangling = broker.call(
                session,
                "lomi_artifact_export",
                json(
                        "workspaceId",
                        ws,
                        "artifactId",
                        artifact,
                        "expectedSha256",
                        sha,
                        "relativePath",
                        "trap.bin",
                        "expectedParentRevision",
                        rootRevision,
                        "expectedRevision",
                        broker.revision(),
                        "retryEpoch",
                        epoch.value(),
                        "requestKey",
                        dangling));
        assertThat(refusalCode(throughDangling)).as("%s", throughDangling).isIn("REVISION_CONFLICT", "SCOPE_DENIED");

        String linkedDir = key();
        JsonNode throughDir = broker.call(
                session,
                "lomi_artifact_export",
                json(
                        "workspaceId",
                        ws,
                        "artifactId",
                        artifact,
                        "expectedSha256",
                        sha,
                        "relativePath",
                        "symdir/planted.bin",
                        "expectedParentRevision",
                        rootRevision,
                        "expectedRevision",
                        broker.revision(),
                        "retryEpoch",
                        epoch.value(),
                        "requestKey",
                        linkedDir));
        assertThat(refusalCode(throughDir)).as("%s", throughDir).isIn("SCOPE_DENIED", "TARGET_NOT_FOUND");
        assertNothingHappenedTo(throughDir, "lomi_artifact_export", linkedDir);

        assertThat(outside.resolve("planted.bin")).doesNotExist();
        assertThat(Files.isSymbolicLink(root.resolve("trap.bin"))).isTrue();
        try (Stream<Path> files = Files.list(outside)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("secret.txt");
        }
    }

    @Test
    void fileMutationsNeverFollowALinkOutOfTheProject() throws Exception {
        String anyRevision = "0".repeat(64);
        String rootRevision = broker.ok(session, "lomi_files_list", json("workspaceId", ws))
                .path("directoryRevision")
                .asString();
        String plainRevision = broker.ok(
                        session, "lomi_files_read", json("workspaceId", ws, "relativePath", "plain.txt"))
                .path("diskRevision")
                .asString();
        List<JsonNode> attacks = List.of(
                operation(
                        "type",
                        "create",
                        "relativePath",
                        "symdir/created.txt",
                        "kind",
                        "file",
                        "expectedParentRevision",
                        rootRevision),
                operation(
                        "type",
                        "move",
                        "relativePath",
                        "plain.txt",
                        "targetRelativePath",
                        "symdir/plain.txt",
                        "expectedDiskRevision",
                        plainRevision,
                        "expectedParentRevision",
                        anyRevision),
                operation(
                        "type",
                        "rename",
                        "relativePath",
                        "hard.txt",
                        "newName",
                        "renamed.txt",
                        "expectedDiskRevision",
                        anyRevision,
                        "expectedParentRevision",
                        rootRevision),
                operation(
                        "type",
                        "trash",
                        "relativePath",
                        "hard.txt",
                        "kind",
                        "file",
                        "expectedEntryRevision",
                        anyRevision,
                        "expectedParentRevision",
                        rootRevision),
                operation(
                        "type",
                        "trash",
                        "relativePath",
                        "sym.txt",
                        "kind",
                        "file",
                        "expectedEntryRevision",
                        anyRevision,
                        "expectedParentRevision",
                        rootRevision),
                operation(
                        "type",
                        "trash",
                        "relativePath",
                        "symdir",
                        "kind",
                        "directory",
                        "expectedEntryRevision",
                        anyRevision,
                        "expectedParentRevision",
                        rootRevision));
        for (JsonNode attack : attacks) {
            String key = key();
            JsonNode answer = broker.call(session, "lomi_files_mutate", mutate(attack, key));
            assertThat(refusalCode(answer))
                    .as("%s: %s", attack, answer)
                    .isIn("SCOPE_DENIED", "TARGET_NOT_FOUND", "REVISION_CONFLICT");
            assertNothingHappenedTo(answer, "lomi_files_mutate", key);
        }
        assertThat(outside.resolve("secret.txt")).hasContent(SECRET + "\n");
        assertThat(outside.resolve("created.txt")).doesNotExist();
        assertThat(outside.resolve("plain.txt")).doesNotExist();
        assertThat(root.resolve("plain.txt")).hasContent("plain\n");
        assertThat(Files.isSymbolicLink(root.resolve("sym.txt")) && Files.isSymbolicLink(root.resolve("symdir")))
                .isTrue();
        assertThat(Files.getAttribute(root.resolve("hard.txt"), "unix:nlink", LinkOption.NOFOLLOW_LINKS))
                .isEqualTo(2);
    }

    @Test
    void aTerminalCannotStartInALinkedDirectory() {
        String key = key();
        ErrorCode code = broker.refused(
                session,
                "lomi_terminal_create",
                json(
                        "workspaceId",
                        ws,
                        "cwdRelative",
                        "symdir",
                        "expectedRevision",
                        broker.revision(),
                        "retryEpoch",
                        epoch.value(),
                        "requestKey",
                        key));
        assertThat(code).isIn(ErrorCode.SCOPE_DENIED, ErrorCode.INVALID_ARGUMENT, ErrorCode.TARGET_NOT_FOUND);
        assertNoReceipt("lomi_terminal_create", key);
        assertThat(broker.terminals.all()).isEmpty();
    }

    @Test
    void gitShowsASymlinkAsItsTargetPathNeverTheOutsideContent() {
        String observed = observation();
        JsonNode diff = broker.call(
                session,
                "lomi_git_diff",
                json("workspaceId", ws, "relativePath", "sym.txt", "expectedObservationRevision", observed));
        assertThat(diff.toString()).doesNotContain(SECRET);
        assertThat(broker.refused(
                        session,
                        "lomi_git_diff",
                        json(
                                "workspaceId",
                                ws,
                                "relativePath",
                                "symdir/secret.txt",
                                "expectedObservationRevision",
                                observed)))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
    }

    /** A hard link has no "link" to look through: git would read the outside file's bytes as the worktree file's. */
    @Test
    void gitNeverDiffsAHardLinkedFileWhoseOtherNameIsOutsideTheProject() throws Exception {
        Files.delete(root.resolve("tracked.txt"));
        Files.createLink(root.resolve("tracked.txt"), outside.resolve("secret.txt"));
        String observed = observation();

        for (String path : List.of("hard.txt", "tracked.txt")) {
            JsonNode diff = broker.call(
                    session,
                    "lomi_git_diff",
                    json("workspaceId", ws, "relativePath", path, "expectedObservationRevision", observed));
            assertThat(diff.toString()).as("%s: %s", path, diff).doesNotContain(SECRET);
            assertThat(diff.path("code").asString()).as(path).isEqualTo("SCOPE_DENIED");
        }
    }

    /** Staging a hard-linked file would copy the outside file's bytes into the repository, where every git read can show them. */
    @Test
    void gitNeverPlansToStageAHardLinkedFile() throws Exception {
        String observed = observation();
        String key = key();
        ObjectNode stage = (ObjectNode) BrokerCallsFixture.JSON.readTree(json(
                "workspaceId",
                ws,
                "operation",
                "stage",
                "expectedObservationRevision",
                observed,
                "expectedRevision",
                broker.revision(),
                "retryEpoch",
                epoch.value(),
                "requestKey",
                key));
        stage.putArray("paths").add("hard.txt");

        assertThat(broker.refused(session, "lomi_git_mutate", stage.toString())).isEqualTo(ErrorCode.SCOPE_DENIED);
        assertNoReceipt("lomi_git_mutate", key);
        assertThat(broker.decisions.list()).isEmpty();
        assertThat(git.getRepository().readDirCache().getEntry("hard.txt")).isNull();
    }

    // --- helpers

    private String observation() {
        return broker.ok(session, "lomi_git_status", json("workspaceId", ws))
                .path("observationRevision")
                .asString();
    }

    private int panels() {
        return broker.ok(session, "lomi_panel_list", json("workspaceId", ws))
                .path("panels")
                .size();
    }

    private String key() {
        return "attack-" + keys.incrementAndGet();
    }

    private static JsonNode operation(Object... pairs) {
        return BrokerCallsFixture.JSON.readTree(json(pairs));
    }

    private String mutate(JsonNode operation, String key) {
        ObjectNode node = (ObjectNode) BrokerCallsFixture.JSON.readTree(json(
                "workspaceId",
                ws,
                "expectedRevision",
                broker.revision(),
                "retryEpoch",
                epoch.value(),
                "requestKey",
                key));
        node.set("operation", operation);
        return node.toString();
    }

    /** The refusal of an answer: the envelope's code, or the errorCode of an operation that failed. */
    static String refusalCode(JsonNode envelope) {
        if (envelope.path("status").asString().equals("error")) {
            return envelope.path("code").asString();
        }
        JsonNode data = envelope.path("data");
        return data.path("state").asString().equals("failed")
                ? data.path("errorCode").asString()
                : "NOT REFUSED: " + data;
    }

    /** A refusal before the receipt left none; a refusal inside the operation left it failed with no effect. */
    private void assertNothingHappenedTo(JsonNode answer, String tool, String key) {
        if (answer.path("status").asString().equals("error")) {
            assertNoReceipt(tool, key);
        } else {
            assertThat(answer.path("data").path("state").asString()).isEqualTo("failed");
            assertThat(answer.path("data").path("effectState").asString()).isEqualTo("none");
        }
    }

    private void assertNoReceipt(String tool, String key) {
        assertThat(broker.refused(
                        session,
                        "lomi_operation_get",
                        json("retryEpoch", epoch.value(), "requestKey", key, "tool", tool)))
                .as("no receipt for %s %s", tool, key)
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
    }

    private List<Path> storedArtifacts() throws Exception {
        Path dir = temp.resolve("artifacts");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .filter(p -> p.getFileName().toString().endsWith(".bin"))
                    .toList();
        }
    }

    static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
