package dev.lomicontrol.files.tools;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.testing.Agent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * File tools through the broker's dispatcher on real folders: secrets and links invisible and
 * refused, pages bound to the disk revision, mutations that never overwrite, stale revisions
 * refused without a receipt, a retry that changes nothing twice, trash with a recovery plan.
 */
class FileToolsTests {

    @RegisterExtension
    final Agent agent = Agent.inProject("files");

    final BrokerCallsFixture broker = agent.broker();
    final Session session = agent.session();
    final Project project = agent.project();
    final RetryEpochId epoch = agent.epoch();
    final String ws = agent.workspace();

    @BeforeEach
    void files() throws Exception {
        Path root = project.root();
        Files.writeString(root.resolve("readme.txt"), "hello\r\nworld\r\n");
        Files.write(root.resolve("bom.txt"), new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, 'x', '\n'});
        Files.writeString(root.resolve(".env"), "SECRET=1");
        Files.writeString(root.resolve("server.pem"), "key");
        Files.createDirectories(root.resolve("src"));
        Files.createSymbolicLink(root.resolve("outside"), broker.temp);
        Files.writeString(root.resolve("linked.txt"), "two names");
        Files.createLink(root.resolve("hard.txt"), root.resolve("linked.txt"));
    }

    @Test
    void listingHidesSecretsLinksAndHardLinksAndSaysSo() throws Exception {
        JsonNode list = broker.ok(session, "lomi_files_list", json("workspaceId", ws));

        assertThat(list.path("kind").asString()).isEqualTo("files_list");
        assertThat(list.path("filtered").asBoolean()).isTrue();
        assertThat(names(list)).containsExactly("bom.txt", "readme.txt", "src");
        assertThat(list.path("directoryRevision").asString()).hasSize(64);
    }

    @Test
    void secretsLinksAndEscapesAreRefusedOnDirectAccess() {
        for (String path : new String[] {".env", "server.pem", "outside/x", "hard.txt", "linked.txt", "outside"}) {
            assertThat(broker.refused(session, "lomi_files_read", json("workspaceId", ws, "relativePath", path)))
                    .as(path)
                    .isIn(ErrorCode.SCOPE_DENIED, ErrorCode.TARGET_NOT_FOUND);
        }
        for (String path : new String[] {"../files/readme.txt", "/etc/passwd", "src/./x", "a\\b", "a//b"}) {
            assertThat(broker.refused(session, "lomi_files_read", json("workspaceId", ws, "relativePath", path)))
                    .as(path)
                    .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        }
    }

    @Test
    void readsReportEncodingAndLineEndingsAndLaterPagesAreBoundToTheDiskRevision() throws Exception {
        JsonNode first = broker.ok(
                session, "lomi_files_read", json("workspaceId", ws, "relativePath", "readme.txt", "maxChars", 4));
        assertThat(first.path("text").asString()).isEqualTo("hell");
        assertThat(first.path("lineEndings").asString()).isEqualTo("crlf");
        assertThat(first.path("encoding").asString()).isEqualTo("utf-8");
        assertThat(first.path("truncated").asBoolean()).isTrue();
        String revision = first.path("diskRevision").asString();

        assertThat(broker.refused(
                        session,
                        "lomi_files_read",
                        json("workspaceId", ws, "relativePath", "readme.txt", "startUtf16", 4)))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        String pageTwo = json(
                "workspaceId", ws, "relativePath", "readme.txt", "startUtf16", 4, "expectedDiskRevision", revision);
        JsonNode second = broker.ok(session, "lomi_files_read", pageTwo);
        assertThat(second.path("text").asString()).startsWith("o\r\nworld");

        Files.writeString(project.root().resolve("readme.txt"), "changed");
        assertThat(broker.refused(session, "lomi_files_read", pageTwo)).isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(broker.ok(session, "lomi_files_read", json("workspaceId", ws, "relativePath", "bom.txt"))
                        .path("encoding")
                        .asString())
                .isEqualTo("utf-8-bom");
    }

    @Test
    void createNeverOverwritesAndARetryCreatesOnce() throws Exception {
        String parent = dirRevision("");
        String create = createFile("new.txt", parent, "create-1");
        JsonNode created = broker.ok(session, "lomi_files_mutate", create);
        assertThat(created.path("state").asString()).isEqualTo("succeeded");
        assertThat(created.path("result").path("relativePath").asString()).isEqualTo("new.txt");
        assertThat(Files.exists(project.root().resolve("new.txt"))).isTrue();

        JsonNode again = broker.ok(session, "lomi_files_mutate", create);
        assertThat(again.path("operationId").asString())
                .isEqualTo(created.path("operationId").asString());

        String overwrite = createFile("readme.txt", dirRevision(""), "create-2");
        JsonNode refused = broker.call(session, "lomi_files_mutate", overwrite);
        assertThat(
                        refused.path("status").asString().equals("error")
                                ? refused.path("code").asString()
                                : refused.path("data").path("errorCode").asString())
                .isEqualTo("REVISION_CONFLICT");
        assertThat(Files.readString(project.root().resolve("readme.txt"))).isEqualTo("hello\r\nworld\r\n");
    }

    /**
     * A failure nobody expected (a bug, here the clock failing under the ledger's reservation) is a
     * typed OUTCOME_UNKNOWN answer, not the end of the connection: the session goes on, and the same
     * request sent again runs the effect once.
     */
    @Test
    void anUnexpectedFailureIsOutcomeUnknownAndTheSameRequestThenRunsOnce() throws Exception {
        for (int round = 0; round < 20; round++) {
            String name = "once-" + round + ".txt";
            String create = createFile(name, dirRevision(""), "unexpected-" + round);
            broker.clock.failNextReadingOnThisThread("a bug");

            JsonNode failed = broker.call(session, "lomi_files_mutate", create);

            assertThat(failed.path("status").asString())
                    .as("round %d: %s", round, failed)
                    .isEqualTo("error");
            assertThat(failed.path("code").asString()).isEqualTo("OUTCOME_UNKNOWN");
            assertThat(failed.path("message").asString())
                    .contains("lomi_files_mutate", "IllegalStateException", "requestKey");
            assertThat(session.isAlive()).as("the session survives").isTrue();
            assertThat(Files.exists(project.root().resolve(name)))
                    .as("the clock failed before the effect")
                    .isFalse();

            JsonNode created = broker.ok(session, "lomi_files_mutate", create);
            assertThat(created.path("state").asString()).isEqualTo("succeeded");
            JsonNode again = broker.ok(session, "lomi_files_mutate", create);
            assertThat(again.path("operationId").asString())
                    .isEqualTo(created.path("operationId").asString());
            assertThat(Files.exists(project.root().resolve(name))).isTrue();
        }
    }

    @Test
    void aStaleParentRevisionIsRefusedWithoutAReceipt() {
        String stale = dirRevision("");
        broker.ok(session, "lomi_files_mutate", createFile("a.txt", stale, "first"));
        assertThat(broker.refused(session, "lomi_files_mutate", createFile("b.txt", stale, "second")))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(broker.refused(
                        session,
                        "lomi_operation_get",
                        json("retryEpoch", epoch.value(), "requestKey", "second", "tool", "lomi_files_mutate")))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        assertThat(Files.exists(project.root().resolve("b.txt"))).isFalse();
    }

    @Test
    void renameAndMoveNeverOverwrite() throws Exception {
        Files.writeString(project.root().resolve("src/readme.txt"), "other");
        String disk = diskRevision("readme.txt");
        JsonNode move = broker.call(
                session,
                "lomi_files_mutate",
                mutation(
                        "m1",
                        "type",
                        "move",
                        "relativePath",
                        "readme.txt",
                        "targetRelativePath",
                        "src/readme.txt",
                        "expectedDiskRevision",
                        disk,
                        "expectedParentRevision",
                        dirRevision("src")));
        assertThat(move.toString()).contains("REVISION_CONFLICT");
        assertThat(Files.readString(project.root().resolve("src/readme.txt"))).isEqualTo("other");

        JsonNode renamed = broker.ok(
                session,
                "lomi_files_mutate",
                mutation(
                        "r1",
                        "type",
                        "rename",
                        "relativePath",
                        "readme.txt",
                        "newName",
                        "notes.txt",
                        "expectedDiskRevision",
                        diskRevision("readme.txt"),
                        "expectedParentRevision",
                        dirRevision("")));
        assertThat(renamed.path("state").asString()).as("%s", renamed).isEqualTo("succeeded");
        assertThat(Files.readString(project.root().resolve("notes.txt"))).isEqualTo("hello\r\nworld\r\n");
        assertThat(Files.exists(project.root().resolve("readme.txt"))).isFalse();
    }

    @Test
    void trashMovesTheEntryIntoARecoveryFolderWithItsPlan() throws Exception {
        Files.writeString(project.root().resolve("src/gone.txt"), "bye");
        JsonNode trashed = broker.ok(
                session,
                "lomi_files_mutate",
                mutation(
                        "t1",
                        "type",
                        "trash",
                        "relativePath",
                        "src/gone.txt",
                        "kind",
                        "file",
                        "expectedEntryRevision",
                        diskRevision("src/gone.txt"),
                        "expectedParentRevision",
                        dirRevision("src")));
        assertThat(trashed.path("state").asString()).as("%s", trashed).isEqualTo("succeeded");
        Path recovery = Path.of(trashed.path("result").path("recoveryPath").asString());
        assertThat(Files.exists(project.root().resolve("src/gone.txt"))).isFalse();
        assertThat(Files.readString(recovery.resolve("plan.json"))).contains("src/gone.txt");
        assertThat(Files.exists(recovery.resolve("completed.json"))).isTrue();
    }

    @Test
    void searchFindsLiteralMatchesWithOneBasedLineAndUtf16ColumnAndSkipsSecrets() throws Exception {
        Files.writeString(project.root().resolve("src/code.txt"), "first\n😀 needle here\n", StandardCharsets.UTF_8);
        Files.writeString(project.root().resolve(".env.local"), "needle");
        ObjectNode arguments = (ObjectNode) BrokerCallsFixture.JSON.readTree(json("workspaceId", ws));
        arguments.set("query", BrokerCallsFixture.JSON.readTree(json("text", "needle")));
        JsonNode found = broker.ok(session, "lomi_files_search", arguments.toString());

        assertThat(found.path("matches")).hasSize(1);
        JsonNode match = found.path("matches").get(0);
        assertThat(match.path("relativePath").asString()).isEqualTo("src/code.txt");
        assertThat(match.path("line").asInt()).isEqualTo(2);
        assertThat(match.path("columnUtf16").asInt()).isEqualTo(4);
    }

    @Test
    void aReplacedProjectFolderIsRefused() throws Exception {
        broker.ok(session, "lomi_files_list", json("workspaceId", ws));
        Path root = project.root();
        Files.move(root, root.resolveSibling("moved-away"));
        Files.createDirectories(root);
        Files.writeString(root.resolve("readme.txt"), "impostor");

        assertThat(broker.refused(session, "lomi_files_read", json("workspaceId", ws, "relativePath", "readme.txt")))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
    }

    private String dirRevision(String directory) {
        return agent.ok("lomi_files_list", "workspaceId", ws, "relativeDirectory", directory)
                .path("directoryRevision")
                .asString();
    }

    private String diskRevision(String path) {
        return agent.ok("lomi_files_read", "workspaceId", ws, "relativePath", path)
                .path("diskRevision")
                .asString();
    }

    /** The arguments of a {@code lomi_files_mutate} under this request key: its operation as name/value pairs. */
    private String mutation(String key, Object... operation) {
        return json(
                "workspaceId",
                ws,
                "expectedRevision",
                broker.revision(),
                "retryEpoch",
                epoch.value(),
                "requestKey",
                key,
                "operation",
                Agent.object(operation));
    }

    /** A mutation creating the file {@code relativePath} against the parent's revision. */
    private String createFile(String relativePath, String parentRevision, String key) {
        return mutation(
                key,
                "type",
                "create",
                "relativePath",
                relativePath,
                "kind",
                "file",
                "expectedParentRevision",
                parentRevision);
    }

    private static java.util.List<String> names(JsonNode list) {
        java.util.List<String> names = new java.util.ArrayList<>();
        list.path("entries").forEach(e -> names.add(e.path("name").asString()));
        return names;
    }
}
