package dev.lomicontrol.broker;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.testing.Agent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Editor, artifact and settings tools through the broker's dispatcher on real files and a real
 * SQLite ledger: buffers edited atomically and saved byte-exact over the exact disk revision,
 * retries that write once, the admin's decisions for dirty closes and settings changes, artifacts
 * with SHA-256 checks and exports that never overwrite.
 */
class EditorArtifactSettingsToolsTests {

    static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

    @RegisterExtension
    final Agent agent = Agent.inProject("edit");

    final AttackCalls calls = new AttackCalls(agent);

    @BeforeEach
    void open() throws Exception {
        Files.write(
                agent.project().root().resolve("crlf.txt"),
                concat(BOM, "one\r\ntwo\r\n".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void editAndSaveKeepBomAndCrlfAndARetriedSaveWritesOnce() throws Exception {
        Opened doc = openEditor("crlf.txt");
        JsonNode read = calls.ok("lomi_editor_read", doc.target());
        assertThat(read.path("text").asString()).isEqualTo("one\ntwo\n");

        JsonNode edited = calls.ok(
                "lomi_editor_apply_edits", doc.op(edits(new int[] {0, 3}, "ONE", new int[] {4, 4}, "and "), null));
        assertThat(edited.path("state").asString()).as("%s", edited).isEqualTo("succeeded");
        String buffer = edited.path("result").path("bufferRevision").asString();

        String save = doc.withBuffer(buffer, "save-1");
        JsonNode saved = calls.ok("lomi_editor_save", save);
        assertThat(saved.path("state").asString()).as("%s", saved).isEqualTo("succeeded");
        byte[] expected = concat(BOM, "ONE\r\nand two\r\n".getBytes(StandardCharsets.UTF_8));
        assertThat(Files.readAllBytes(agent.project().root().resolve("crlf.txt")))
                .isEqualTo(expected);
        Object inode =
                Files.getAttribute(agent.project().root().resolve("crlf.txt"), "unix:ino", LinkOption.NOFOLLOW_LINKS);

        JsonNode again = calls.ok("lomi_editor_save", save);
        assertThat(again.path("operationId").asString())
                .isEqualTo(saved.path("operationId").asString());
        assertThat(Files.getAttribute(
                        agent.project().root().resolve("crlf.txt"), "unix:ino", LinkOption.NOFOLLOW_LINKS))
                .as("not written again")
                .isEqualTo(inode);
        assertThat(saved.path("result").path("diskRevision").asString()).isEqualTo(AttackCalls.sha256(expected));
    }

    @Test
    void aFileChangedOnDiskIsNotOverwritten() throws Exception {
        Opened doc = openEditor("crlf.txt");
        JsonNode edited = calls.ok("lomi_editor_apply_edits", doc.op(edits(new int[] {0, 0}, "x"), null));
        Files.writeString(agent.project().root().resolve("crlf.txt"), "someone else");

        assertThat(calls.refused(
                        "lomi_editor_save",
                        doc.withBuffer(
                                edited.path("result").path("bufferRevision").asString(), "s")))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(Files.readString(agent.project().root().resolve("crlf.txt"))).isEqualTo("someone else");
        assertThat(calls.ok("lomi_editor_read", doc.target())
                        .path("changedOnDisk")
                        .asBoolean())
                .isTrue();
    }

    @Test
    void sixtyFourEditsApplyTogetherAndOneBadEditChangesNothing() {
        Opened doc = openEditor("crlf.txt");
        Object[] many = new Object[128];
        for (int i = 0; i < 64; i++) {
            many[2 * i] = new int[] {0, 0};
            many[2 * i + 1] = "";
        }
        // 64 inserts at distinct ascending positions are not possible in an 8-char text; use 8 real edits + a bad one
        // instead
        JsonNode bad = calls.call(
                "lomi_editor_apply_edits",
                doc.op(edits(new int[] {0, 1}, "A", new int[] {1, 2}, "B", new int[] {1, 3}, "C"), null));
        assertThat(bad.toString()).containsAnyOf("INVALID_ARGUMENT", "failed");
        JsonNode unchanged = calls.ok("lomi_editor_read", doc.target());
        assertThat(unchanged.path("text").asString()).isEqualTo("one\ntwo\n");
        assertThat(unchanged.path("bufferRevision").asString()).isEqualTo(doc.buffer);

        ArrayNode sixtyFour = BrokerCallsFixture.JSON.createArrayNode();
        for (int i = 0; i < 64; i++) {
            ObjectNode edit = sixtyFour.addObject();
            edit.put("fromUtf16", i == 0 ? 0 : 8);
            edit.put("toUtf16", i == 0 ? 0 : 8);
            edit.put("insert", "x");
        }
        JsonNode overlapping = calls.call("lomi_editor_apply_edits", doc.op(sixtyFour, null));
        assertThat(overlapping.toString()).containsAnyOf("INVALID_ARGUMENT", "failed");
        assertThat(calls.ok("lomi_editor_read", doc.target()).path("text").asString())
                .isEqualTo("one\ntwo\n");
    }

    @Test
    void closingADirtyEditorWaitsForTheAdminAndApprovalDiscards() throws Exception {
        Opened doc = openEditor("crlf.txt");
        calls.ok("lomi_editor_apply_edits", doc.op(edits(new int[] {0, 0}, "unsaved "), null));
        JsonNode parked = calls.ok("lomi_panel_close", doc.layoutOp());
        assertThat(parked.path("state").asString()).isEqualTo("awaiting_user");
        assertThat(agent.broker().decisions.list())
                .singleElement()
                .satisfies(d -> assertThat(d.summary()).contains("DISCARD"));

        agent.broker()
                .decisions
                .decide(new OperationId(parked.path("operationId").asString()), true);
        assertThat(agent.ok(
                                "lomi_operation_get",
                                "operationId",
                                parked.path("operationId").asString())
                        .path("state")
                        .asString())
                .isEqualTo("succeeded");
        assertThat(Files.readAllBytes(agent.project().root().resolve("crlf.txt")))
                .isEqualTo(concat(BOM, "one\r\ntwo\r\n".getBytes(StandardCharsets.UTF_8)));
        assertThat(agent.ok("lomi_panel_list", "workspaceId", agent.workspace())
                        .path("panels")
                        .toString())
                .doesNotContain(doc.panel);
    }

    @Test
    void settingsChangeOnlyAfterTheAdminApprovesAndTheEditorHonoursThem() throws Exception {
        JsonNode editor = agent.ok("lomi_settings_read", "workspaceId", agent.workspace(), "section", "editor");
        String revision = editor.path("settingsRevision").asString();
        ObjectNode update = calls.durableNode("set-1", "expectedSettingsRevision", revision);
        update.set(
                "patch", BrokerCallsFixture.JSON.readTree(json("type", "editor_insert_final_newline", "value", false)));
        JsonNode parked = calls.ok("lomi_settings_update", update.toString());
        assertThat(parked.path("state").asString()).isEqualTo("awaiting_user");
        assertThat(agent.ok("lomi_settings_read", "workspaceId", agent.workspace(), "section", "editor")
                        .path("values")
                        .path("insertFinalNewline")
                        .asBoolean())
                .isTrue();

        agent.broker()
                .decisions
                .decide(new OperationId(parked.path("operationId").asString()), true);
        JsonNode after = agent.ok("lomi_settings_read", "workspaceId", agent.workspace(), "section", "editor");
        assertThat(after.path("values").path("insertFinalNewline").asBoolean()).isFalse();
        assertThat(after.path("settingsRevision").asString()).isNotEqualTo(revision);
        update.put("requestKey", "set-2");
        assertThat(calls.refused("lomi_settings_update", update.toString())).isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(agent.ok("lomi_settings_read", "workspaceId", agent.workspace(), "section", "agentControl")
                        .path("readOnly")
                        .asBoolean())
                .isTrue();
        JsonNode opened = calls.ok("lomi_settings_open", calls.durable("open-page", "page", "terminal"));
        assertThat(opened.path("result").path("kind").asString()).isEqualTo("settings_opened");
        assertThat(agent.broker().decisions.notices())
                .singleElement()
                .asString()
                .contains("terminal settings")
                .contains(opened.path("result").path("requestId").asString());

        Files.writeString(agent.project().root().resolve("plain.txt"), "a\nb\n");
        Opened doc = openEditor("plain.txt");
        JsonNode edited = calls.ok("lomi_editor_apply_edits", doc.op(edits(new int[] {3, 4}, ""), null));
        calls.ok(
                "lomi_editor_save",
                doc.withBuffer(edited.path("result").path("bufferRevision").asString(), "s-plain"));
        assertThat(Files.readString(agent.project().root().resolve("plain.txt")))
                .as("no final newline added")
                .isEqualTo("a\nb");
    }

    @Test
    void artifactsAreCheckedCopiesAndExportNeverOverwrites() throws Exception {
        byte[] bytes = "artifact bytes".getBytes(StandardCharsets.UTF_8);
        Files.write(agent.project().root().resolve("data.bin"), bytes);
        String sha = AttackCalls.sha256(bytes);
        ObjectNode wrong = calls.durableNode(
                "imp-bad",
                "relativePath",
                "data.bin",
                "kind",
                "file",
                "expectedByteLength",
                bytes.length,
                "expectedSha256",
                "0".repeat(64));
        JsonNode refused = calls.call("lomi_artifact_import", wrong.toString());
        assertThat(refused.toString()).contains("ARTIFACT_INVALID");

        wrong.put("expectedSha256", sha);
        wrong.put("requestKey", "imp-1");
        JsonNode imported = calls.ok("lomi_artifact_import", wrong.toString());
        assertThat(imported.path("state").asString()).as("%s", imported).isEqualTo("succeeded");
        String id = imported.path("result").path("artifactId").asString();

        JsonNode read = agent.ok("lomi_artifact_read", "workspaceId", agent.workspace(), "artifactId", id);
        assertThat(read.path("sha256").asString()).isEqualTo(sha);
        assertThat(read.path("contentBase64").asString())
                .isEqualTo(java.util.Base64.getEncoder().encodeToString(bytes));
        assertThat(agent.broker()
                        .refused(
                                agent.broker().session(),
                                "lomi_artifact_read",
                                json("workspaceId", agent.workspace(), "artifactId", id)))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);

        String parent = agent.ok("lomi_files_list", "workspaceId", agent.workspace())
                .path("directoryRevision")
                .asString();
        JsonNode overwrite = calls.call(
                "lomi_artifact_export",
                calls.durable(
                        "exp-1",
                        "artifactId",
                        id,
                        "expectedSha256",
                        sha,
                        "relativePath",
                        "crlf.txt",
                        "expectedParentRevision",
                        parent));
        assertThat(overwrite.toString()).contains("REVISION_CONFLICT");
        assertThat(Files.readAllBytes(agent.project().root().resolve("crlf.txt")))
                .startsWith(BOM);
        JsonNode exported = calls.ok(
                "lomi_artifact_export",
                calls.durable(
                        "exp-2",
                        "artifactId",
                        id,
                        "expectedSha256",
                        sha,
                        "relativePath",
                        "copy.bin",
                        "expectedParentRevision",
                        parent));
        assertThat(exported.path("state").asString()).as("%s", exported).isEqualTo("succeeded");
        assertThat(Files.readAllBytes(agent.project().root().resolve("copy.bin")))
                .isEqualTo(bytes);
    }

    // --- helpers

    private final class Opened {
        final String panel;
        final String document;
        final String buffer;
        final String disk;
        final String path;

        Opened(JsonNode result, String path) {
            panel = result.path("panelId").asString();
            document = result.path("documentId").asString();
            buffer = result.path("bufferRevision").asString();
            disk = result.path("diskRevision").asString();
            this.path = path;
        }

        String target() {
            return json("workspaceId", agent.workspace(), "panelId", panel, "relativePath", path);
        }

        String op(JsonNode edits, String key) {
            ObjectNode node = (ObjectNode)
                    BrokerCallsFixture.JSON.readTree(withBuffer(currentBuffer(), key == null ? agent.key("e") : key));
            node.set("edits", edits);
            return node.toString();
        }

        String withBuffer(String bufferRevision, String key) {
            return calls.durable(
                    key,
                    "panelId",
                    panel,
                    "relativePath",
                    path,
                    "documentId",
                    document,
                    "expectedBufferRevision",
                    bufferRevision,
                    "expectedDiskRevision",
                    disk);
        }

        String layoutOp() {
            return calls.durable(agent.key("close"), "panelId", panel);
        }

        private String currentBuffer() {
            return calls.ok("lomi_editor_read", target()).path("bufferRevision").asString();
        }
    }

    private Opened openEditor(String path) {
        JsonNode op = calls.ok("lomi_editor_open", calls.durable(agent.key("open"), "relativePath", path));
        assertThat(op.path("state").asString()).as("%s", op).isEqualTo("succeeded");
        assertThat(op.path("result").has("text")).isFalse();
        return new Opened(op.path("result"), path);
    }

    private static JsonNode edits(Object... pairs) {
        ArrayNode array = BrokerCallsFixture.JSON.createArrayNode();
        for (int i = 0; i < pairs.length; i += 2) {
            int[] range = (int[]) pairs[i];
            ObjectNode edit = array.addObject();
            edit.put("fromUtf16", range[0]);
            edit.put("toUtf16", range[1]);
            edit.put("insert", (String) pairs[i + 1]);
        }
        return array;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
