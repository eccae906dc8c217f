package dev.lomicontrol.broker;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.testing.Agent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
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

    @RegisterExtension
    final Agent agent = Agent.inProject("links");

    final AttackCalls attack = new AttackCalls(agent);
    final Path root = agent.project().root();
    final Path outside = agent.broker().temp.resolve("outside");
    Git git;

    @BeforeEach
    void open() throws Exception {
        Files.createDirectories(outside);
        Files.writeString(outside.resolve("secret.txt"), SECRET + "\n");
        Files.writeString(root.resolve("tracked.txt"), "tracked\n");
        Files.writeString(root.resolve("plain.txt"), "plain\n");
        git = AttackCalls.gitRepository(root);
        git.add().addFilepattern("tracked.txt").addFilepattern("plain.txt").call();
        git.commit().setMessage("seed").call();
        Files.createLink(root.resolve("hard.txt"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(root.resolve("sym.txt"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(root.resolve("symdir"), outside);
    }

    @AfterEach
    void close() {
        git.close();
    }

    @Test
    void linksAreInvisibleToListingAndSearchAndRefusedOnDirectRead() {
        JsonNode list = agent.ok("lomi_files_list", "workspaceId", agent.workspace());
        assertThat(list.path("filtered").asBoolean()).isTrue();
        assertThat(list.toString()).doesNotContain("hard.txt", "sym.txt", "symdir");

        ObjectNode search = (ObjectNode) BrokerCallsFixture.JSON.readTree(json("workspaceId", agent.workspace()));
        search.set("query", BrokerCallsFixture.JSON.readTree(json("text", SECRET)));
        assertThat(attack.ok("lomi_files_search", search.toString()).path("matches"))
                .isEmpty();

        for (String path : List.of("hard.txt", "sym.txt", "symdir/secret.txt")) {
            JsonNode refused = agent.call("lomi_files_read", "workspaceId", agent.workspace(), "relativePath", path);
            assertThat(refused.path("code").asString()).as(path).isIn("SCOPE_DENIED", "TARGET_NOT_FOUND");
            assertThat(refused.toString()).doesNotContain(SECRET);
        }
        assertThat(agent.refused("lomi_files_list", "workspaceId", agent.workspace(), "relativeDirectory", "symdir"))
                .isIn(ErrorCode.SCOPE_DENIED, ErrorCode.TARGET_NOT_FOUND);
    }

    @Test
    void theEditorRefusesToOpenAHardLinkOrASymlinkAndLeavesNoReceiptNorPanel() {
        int panelsBefore = attack.panels();
        for (String path : List.of("hard.txt", "sym.txt", "symdir/secret.txt")) {
            String key = agent.key("attack");
            ErrorCode code = attack.refused("lomi_editor_open", attack.durable(key, "relativePath", path));
            assertThat(code).as(path).isIn(ErrorCode.SCOPE_DENIED, ErrorCode.TARGET_NOT_FOUND);
            attack.assertNoReceipt("lomi_editor_open", key);
        }
        assertThat(attack.panels()).isEqualTo(panelsBefore);
    }

    @Test
    void aSaveOverAFileSwappedForALinkToAnOutsideFileNeverWritesThroughIt() throws Exception {
        Path victim = outside.resolve("victim.txt");
        for (boolean hardLink : new boolean[] {true, false}) {
            String name = hardLink ? "swap-hard.txt" : "swap-sym.txt";
            Files.writeString(root.resolve(name), "same\n");
            Files.writeString(victim, "same\n");
            JsonNode opened = attack.ok("lomi_editor_open", attack.durable(agent.key("attack"), "relativePath", name))
                    .path("result");
            ObjectNode edit = attack.editorCall(
                    agent.key("attack"), opened, opened.path("bufferRevision").asString());
            edit.set(
                    "edits",
                    BrokerCallsFixture.JSON.readTree("[{\"fromUtf16\":0,\"toUtf16\":4,\"insert\":\"OVERWRITTEN\"}]"));
            String buffer = attack.ok("lomi_editor_apply_edits", edit.toString())
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
            String key = agent.key("attack");
            JsonNode save = attack.call(
                    "lomi_editor_save", attack.editorCall(key, opened, buffer).toString());

            assertThat(AttackCalls.refusalCode(save))
                    .as("%s: %s", name, save)
                    .isIn("SCOPE_DENIED", "TARGET_NOT_FOUND", "REVISION_CONFLICT");
            attack.assertNothingHappenedTo(save, "lomi_editor_save", key);
            assertThat(victim).as(name).hasContent("same\n");
            Files.delete(root.resolve(name));
            Files.delete(victim);
        }
    }

    @Test
    void artifactImportNeverCopiesAnOutsideFileThroughALink() throws Exception {
        byte[] bytes = (SECRET + "\n").getBytes(StandardCharsets.UTF_8);
        for (String path : List.of("hard.txt", "sym.txt", "symdir/secret.txt")) {
            String key = agent.key("attack");
            JsonNode answer = attack.call("lomi_artifact_import", attack.importFile(key, path, bytes));
            assertThat(AttackCalls.refusalCode(answer))
                    .as("%s: %s", path, answer)
                    .isIn("SCOPE_DENIED", "TARGET_NOT_FOUND");
            attack.assertNothingHappenedTo(answer, "lomi_artifact_import", key);
        }
        assertThat(attack.storedArtifacts()).isEmpty();
    }

    @Test
    void artifactExportNeverWritesThroughALinkedDirectoryOrADanglingLink() throws Exception {
        Files.writeString(root.resolve("payload.txt"), "payload\n");
        byte[] bytes = "payload\n".getBytes(StandardCharsets.UTF_8);
        String sha = AttackCalls.sha256(bytes);
        JsonNode imported =
                attack.ok("lomi_artifact_import", attack.importFile(agent.key("attack"), "payload.txt", bytes));
        String artifact = imported.path("result").path("artifactId").asString();
        Files.createSymbolicLink(root.resolve("trap.bin"), outside.resolve("planted.bin"));
        String rootRevision = attack.rootRevision();

        String dangling = agent.key("attack");
        JsonNode throughDangling =
                attack.call("lomi_artifact_export", attack.exportTo(dangling, artifact, sha, "trap.bin", rootRevision));
        assertThat(AttackCalls.refusalCode(throughDangling))
                .as("%s", throughDangling)
                .isIn("REVISION_CONFLICT", "SCOPE_DENIED");

        String linkedDir = agent.key("attack");
        JsonNode throughDir = attack.call(
                "lomi_artifact_export", attack.exportTo(linkedDir, artifact, sha, "symdir/planted.bin", rootRevision));
        assertThat(AttackCalls.refusalCode(throughDir)).as("%s", throughDir).isIn("SCOPE_DENIED", "TARGET_NOT_FOUND");
        attack.assertNothingHappenedTo(throughDir, "lomi_artifact_export", linkedDir);

        assertThat(outside.resolve("planted.bin")).doesNotExist();
        assertThat(Files.isSymbolicLink(root.resolve("trap.bin"))).isTrue();
        try (Stream<Path> files = Files.list(outside)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("secret.txt");
        }
    }

    @Test
    void fileMutationsNeverFollowALinkOutOfTheProject() throws Exception {
        String anyRevision = "0".repeat(64);
        String rootRevision = attack.rootRevision();
        String plainRevision = attack.diskRevision("plain.txt");
        List<JsonNode> attacks = List.of(
                AttackCalls.create("symdir/created.txt", "file", rootRevision),
                AttackCalls.move("plain.txt", "symdir/plain.txt", plainRevision, anyRevision),
                AttackCalls.rename("hard.txt", "renamed.txt", anyRevision, rootRevision),
                AttackCalls.trash("hard.txt", "file", anyRevision, rootRevision),
                AttackCalls.trash("sym.txt", "file", anyRevision, rootRevision),
                AttackCalls.trash("symdir", "directory", anyRevision, rootRevision));
        for (JsonNode attempt : attacks) {
            String key = agent.key("attack");
            JsonNode answer = attack.callMutate(attempt, key);
            assertThat(AttackCalls.refusalCode(answer))
                    .as("%s: %s", attempt, answer)
                    .isIn("SCOPE_DENIED", "TARGET_NOT_FOUND", "REVISION_CONFLICT");
            attack.assertNothingHappenedTo(answer, "lomi_files_mutate", key);
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
        String key = agent.key("attack");
        ErrorCode code = attack.refused("lomi_terminal_create", attack.durable(key, "cwdRelative", "symdir"));
        assertThat(code).isIn(ErrorCode.SCOPE_DENIED, ErrorCode.INVALID_ARGUMENT, ErrorCode.TARGET_NOT_FOUND);
        attack.assertNoReceipt("lomi_terminal_create", key);
        assertThat(agent.broker().terminals.all()).isEmpty();
    }

    @Test
    void gitShowsASymlinkAsItsTargetPathNeverTheOutsideContent() {
        String observed = attack.observation();
        JsonNode diff = agent.call(
                "lomi_git_diff",
                "workspaceId",
                agent.workspace(),
                "relativePath",
                "sym.txt",
                "expectedObservationRevision",
                observed);
        assertThat(diff.toString()).doesNotContain(SECRET);
        assertThat(agent.refused(
                        "lomi_git_diff",
                        "workspaceId",
                        agent.workspace(),
                        "relativePath",
                        "symdir/secret.txt",
                        "expectedObservationRevision",
                        observed))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
    }

    /** A hard link has no "link" to look through: git would read the outside file's bytes as the worktree file's. */
    @Test
    void gitNeverDiffsAHardLinkedFileWhoseOtherNameIsOutsideTheProject() throws Exception {
        Files.delete(root.resolve("tracked.txt"));
        Files.createLink(root.resolve("tracked.txt"), outside.resolve("secret.txt"));
        String observed = attack.observation();

        for (String path : List.of("hard.txt", "tracked.txt")) {
            JsonNode diff = agent.call(
                    "lomi_git_diff",
                    "workspaceId",
                    agent.workspace(),
                    "relativePath",
                    path,
                    "expectedObservationRevision",
                    observed);
            assertThat(diff.toString()).as("%s: %s", path, diff).doesNotContain(SECRET);
            assertThat(diff.path("code").asString()).as(path).isEqualTo("SCOPE_DENIED");
        }
    }

    /** Staging a hard-linked file would copy the outside file's bytes into the repository, where every git read can show them. */
    @Test
    void gitNeverPlansToStageAHardLinkedFile() throws Exception {
        String observed = attack.observation();
        String key = agent.key("attack");
        ObjectNode stage = attack.durableNode(key, "operation", "stage", "expectedObservationRevision", observed);
        stage.putArray("paths").add("hard.txt");

        assertThat(attack.refused("lomi_git_mutate", stage.toString())).isEqualTo(ErrorCode.SCOPE_DENIED);
        attack.assertNoReceipt("lomi_git_mutate", key);
        assertThat(agent.broker().decisions.list()).isEmpty();
        assertThat(git.getRepository().readDirCache().getEntry("hard.txt")).isNull();
    }

    /** The refusal of an answer ({@link AttackCalls#refusalCode}; other test classes call it here). */
    static String refusalCode(JsonNode envelope) {
        return AttackCalls.refusalCode(envelope);
    }
}
