package dev.lomicontrol.broker;

import static dev.lomicontrol.broker.BrokerCallsFixture.JSON;
import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.artifacts.api.ArtifactSpecs;
import dev.lomicontrol.catalog.ToolCatalog;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.editor.api.EditorSpecs;
import dev.lomicontrol.files.api.FileSpecs;
import dev.lomicontrol.mcp.Conformance;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.settings.api.SettingsSpecs;
import dev.lomicontrol.testing.Agent;
import dev.lomicontrol.tools.ToolSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The reference-shaped calls of the catalog report's probe digest (catalog.md §7, §4.7, §4.8,
 * §4.10, §4.11) for the files, editor, artifact and settings tools: each is accepted by the one
 * binder the helper and the broker share and does what the reference means; what the reference
 * offers but this host cannot do is answered UNSUPPORTED_CAPABILITY / HOST_UNQUALIFIED naming it
 * (never an unknown-field error); the calls refused on purpose stay refused.
 */
class FilesEditorArtifactsSettingsReferenceCallsTests {

    @RegisterExtension
    final Agent agent = Agent.inProject("reference");

    final BrokerCallsFixture broker = agent.broker();
    final Session session = agent.session();
    final String ws = agent.workspace();
    final Path root = agent.project().root();

    @BeforeEach
    void open() throws Exception {
        Files.createDirectories(root.resolve("src"));
        Files.createDirectories(root.resolve("dest"));
        Files.writeString(root.resolve("src/main.rs"), "fn main() { needle(); }\n");
        Files.writeString(root.resolve("Cargo.toml"), "needle = 1\n");
        Files.writeString(root.resolve("notes.md"), "needle in markdown\n");
    }

    // --- files

    @Test
    void filesListAndReadTakeNullForTheirOptionalFields() {
        JsonNode list = ok(
                session,
                "lomi_files_list",
                "{\"workspaceId\":\"" + ws + "\",\"relativeDirectory\":\"\",\"limit\":100,\"cursor\":null}");
        assertThat(list.path("entries")).hasSize(4);
        assertThat(list.path("nextCursor").isNull()).isTrue();

        JsonNode read = ok(
                session,
                "lomi_files_read",
                "{\"workspaceId\":\"" + ws + "\",\"relativePath\":\"Cargo.toml\",\"startUtf16\":0,"
                        + "\"maxChars\":4096,\"expectedDiskRevision\":null}");
        assertThat(read.path("text").asString()).isEqualTo("needle = 1\n");
    }

    @Test
    void filesSearchTakesCommaSeparatedIncludeAndExcludeStringsAndDefaultsTheRestOfTheQuery() {
        JsonNode found = ok(
                session, "lomi_files_search", search("{\"text\":\"needle\",\"include\":\"*.rs,*.toml\"}", 100, null));
        assertThat(paths(found)).containsExactlyInAnyOrder("src/main.rs", "Cargo.toml");

        JsonNode excluded = ok(
                session,
                "lomi_files_search",
                search("{\"text\":\"needle\",\"include\":\"*.rs, *.toml\",\"exclude\":\"*.toml\"}", 100, null));
        assertThat(paths(excluded)).containsExactly("src/main.rs");

        JsonNode everything = ok(
                session,
                "lomi_files_search",
                search(
                        "{\"text\":\"NEEDLE\",\"caseSensitive\":false,\"wholeWord\":false,"
                                + "\"regex\":false,\"include\":\"\",\"exclude\":\"\"}",
                        200,
                        null));
        assertThat(paths(everything)).hasSize(3);

        assertThat(refused(
                        session,
                        "lomi_files_search",
                        search("{\"text\":\"needle\",\"include\":[\"*.rs\"]}", 100, null)))
                .as("include is the reference's comma-separated string")
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(refused(session, "lomi_files_search", search("{}", 100, null)))
                .as("there is nothing to find")
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void filesSearchPagesByCursorBoundToTheQueryAndTheCursorExpiresAfterSixtySeconds() throws Exception {
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 7; i++) {
            many.append("needle ").append(i).append('\n');
        }
        Files.writeString(root.resolve("many.txt"), many);
        String query = "{\"text\":\"needle\",\"include\":\"many.txt\"}";
        JsonNode first = ok(session, "lomi_files_search", search(query, 3, null));
        assertThat(first.path("matches")).hasSize(3);
        assertThat(first.path("hasMore").asBoolean()).isTrue();
        String cursor = first.path("nextCursor").asString();

        JsonNode second = ok(session, "lomi_files_search", search(query, 3, cursor));
        assertThat(second.path("matches").get(0).path("line").asInt()).isEqualTo(4);
        JsonNode third = ok(
                session,
                "lomi_files_search",
                search(query, 3, second.path("nextCursor").asString()));
        assertThat(third.path("matches")).hasSize(1);
        assertThat(third.path("nextCursor").isNull()).isTrue();

        assertThat(refused(
                        session, "lomi_files_search", search("{\"text\":\"needle\",\"include\":\"*.txt\"}", 3, cursor)))
                .as("bound to the query")
                .isEqualTo(ErrorCode.CURSOR_EXPIRED);
        assertThat(refused(broker.session(), "lomi_files_search", search(query, 3, cursor)))
                .as("bound to the session that searched")
                .isIn(ErrorCode.CURSOR_EXPIRED, ErrorCode.TARGET_NOT_FOUND);
        broker.clock.advance(Duration.ofSeconds(61));
        assertThat(refused(session, "lomi_files_search", search(query, 3, cursor)))
                .as("valid 60 s")
                .isEqualTo(ErrorCode.CURSOR_EXPIRED);
    }

    @Test
    void filesMutateMoveTakesTheDestinationPathAndTheDestinationParentsRevision() throws Exception {
        String disk = diskRevision("notes.md");
        JsonNode moved = ok(
                session,
                "lomi_files_mutate",
                mutate("{\"type\":\"move\",\"relativePath\":\"notes.md\",\"targetRelativePath\":"
                        + "\"dest/renamed.md\",\"expectedDiskRevision\":\"" + disk + "\",\"expectedParentRevision\":\""
                        + dirRevision("dest") + "\"}"));
        assertThat(moved.path("state").asString()).as("%s", moved).isEqualTo("succeeded");
        assertThat(moved.path("result").path("kind").asString()).isEqualTo("files_mutated");
        assertThat(moved.path("result").path("relativePath").asString()).isEqualTo("dest/renamed.md");
        assertThat(root.resolve("dest/renamed.md")).hasContent("needle in markdown\n");
        assertThat(root.resolve("notes.md")).doesNotExist();

        String srcRevision = dirRevision("src");
        JsonNode movedDir = ok(
                session,
                "lomi_files_mutate",
                mutate("{\"type\":\"move_directory\",\"relativePath\":\"src\","
                        + "\"targetRelativePath\":\"dest/source\",\"expectedDirectoryRevision\":\"" + srcRevision
                        + "\",\"expectedParentRevision\":\""
                        + dirRevision("dest") + "\"}"));
        assertThat(movedDir.path("state").asString()).as("%s", movedDir).isEqualTo("succeeded");
        assertThat(root.resolve("dest/source/main.rs")).exists();
    }

    @Test
    void filesMutateMoveIsCheckedAsTheReferenceChecksIt() throws Exception {
        String disk = diskRevision("notes.md");
        assertThat(refused(
                        session,
                        "lomi_files_mutate",
                        mutate("{\"type\":\"move\",\"relativePath\":\"notes.md\",\"targetRelativePath\":"
                                + "\"dest/notes.md\",\"expectedDiskRevision\":\"" + disk
                                + "\",\"expectedParentRevision\":\"" + dirRevision("") + "\"}")))
                .as("expectedParentRevision is the destination parent's, not the source's")
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(refused(
                        session,
                        "lomi_files_mutate",
                        mutate("{\"type\":\"move\",\"relativePath\":\"notes.md\",\"targetRelativePath\":"
                                + "\"dest/notes.md\",\"expectedDiskRevision\":\"" + "0".repeat(64)
                                + "\",\"expectedParentRevision\":\"" + dirRevision("dest") + "\"}")))
                .as("a stale file")
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        Files.writeString(root.resolve("dest/notes.md"), "already here");
        JsonNode collision = call(
                session,
                "lomi_files_mutate",
                mutate("{\"type\":\"move\",\"relativePath\":\"notes.md\",\"targetRelativePath\":"
                        + "\"dest/notes.md\",\"expectedDiskRevision\":\"" + disk + "\",\"expectedParentRevision\":\""
                        + dirRevision("dest") + "\"}"));
        assertThat(collision.toString()).contains("REVISION_CONFLICT");
        assertThat(root.resolve("dest/notes.md")).hasContent("already here");
        assertThat(refused(
                        session,
                        "lomi_files_mutate",
                        mutate("{\"type\":\"move_directory\",\"relativePath\":\"src\",\"targetRelativePath\":"
                                + "\"src/inner\",\"expectedDirectoryRevision\":\"" + dirRevision("src")
                                + "\",\"expectedParentRevision\":\"" + dirRevision("src") + "\"}")))
                .as("a directory cannot move into itself")
                .isEqualTo(ErrorCode.SCOPE_DENIED);
        assertThat(refused(
                        session,
                        "lomi_files_mutate",
                        mutate("{\"type\":\"move\",\"relativePath\":\"notes.md\",\"targetRelativePath\":"
                                + "\"dest\",\"expectedDiskRevision\":\"" + disk + "\",\"expectedParentRevision\":\""
                                + dirRevision("") + "\","
                                + "\"expectedTargetParentRevision\":\"" + dirRevision("dest") + "\"}")))
                .as("the project's former extra field is not the reference's")
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(root.resolve("notes.md")).exists();
    }

    @Test
    void filesMutateRenameTakesTheReferenceFields() throws Exception {
        JsonNode renamed = ok(
                session,
                "lomi_files_mutate",
                mutate("{\"type\":\"rename\",\"relativePath\":\"notes.md\",\"newName\":\"read.md\","
                        + "\"expectedDiskRevision\":\"" + diskRevision("notes.md") + "\",\"expectedParentRevision\":\""
                        + dirRevision("") + "\"}"));
        assertThat(renamed.path("state").asString()).as("%s", renamed).isEqualTo("succeeded");
        assertThat(root.resolve("read.md")).exists();
        JsonNode dir = ok(
                session,
                "lomi_files_mutate",
                mutate("{\"type\":\"rename_directory\",\"relativePath\":\"dest\",\"newName\":\"out\","
                        + "\"expectedDirectoryRevision\":\"" + dirRevision("dest") + "\",\"expectedParentRevision\":\""
                        + dirRevision("") + "\"}"));
        assertThat(dir.path("state").asString()).as("%s", dir).isEqualTo("succeeded");
        assertThat(root.resolve("out")).isDirectory();

        assertThat(refused(
                        session,
                        "lomi_files_mutate",
                        mutate("{\"type\":\"rename\",\"relativePath\":\"read.md\",\"newName\":\"read.md\","
                                + "\"expectedDiskRevision\":\"" + diskRevision("read.md")
                                + "\",\"expectedParentRevision\":\"" + dirRevision("") + "\"}")))
                .as("a file renamed onto itself, as the reference")
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(refused(
                        session,
                        "lomi_files_mutate",
                        mutate("{\"type\":\"rename_directory\",\"relativePath\":\"out\",\"newName\":\"out\","
                                + "\"expectedDirectoryRevision\":\"" + dirRevision("out")
                                + "\",\"expectedParentRevision\":\"" + dirRevision("") + "\"}")))
                .as("a directory renamed onto itself, as the reference")
                .isEqualTo(ErrorCode.SCOPE_DENIED);
    }

    // --- editor

    @Test
    void editorReadTakesNullDocumentIdAndBufferRevisionAndOpenPreviewIsUnsupportedWithItsReason() {
        JsonNode opened = ok(
                        session,
                        "lomi_editor_open",
                        op("{\"workspaceId\":\"" + ws + "\",\"relativePath\":\"notes.md\","
                                + "\"presentation\":\"editor\"}"))
                .path("result");
        String panel = opened.path("panelId").asString();
        JsonNode read = ok(
                session,
                "lomi_editor_read",
                "{\"workspaceId\":\"" + ws + "\",\"panelId\":\"" + panel + "\",\"relativePath\":"
                        + "\"notes.md\",\"documentId\":null,\"expectedBufferRevision\":null,\"startUtf16\":0,\"maxChars\":4096}");
        assertThat(read.path("text").asString()).isEqualTo("needle in markdown\n");
        assertThat(read.path("documentId").asString())
                .isEqualTo(opened.path("documentId").asString());

        for (String presentation : List.of("preview", "split")) {
            JsonNode refused = call(
                    session,
                    "lomi_editor_open",
                    op("{\"workspaceId\":\"" + ws + "\",\"relativePath\":\"notes.md\"," + "\"presentation\":\""
                            + presentation + "\"}"));
            assertThat(refused.path("code").asString()).isEqualTo("UNSUPPORTED_CAPABILITY");
            assertThat(refused.path("message").asString()).contains(presentation, "no window");
        }
    }

    // --- artifacts

    @Test
    void artifactImportTakesTheByteLengthAsANumberAndAnswersAndroidApkHostUnqualified() throws Exception {
        byte[] bytes = "twelve bytes".getBytes(StandardCharsets.UTF_8);
        Files.write(root.resolve("data.bin"), bytes);
        String sha = diskRevision("data.bin");
        JsonNode imported = ok(
                session,
                "lomi_artifact_import",
                op("{\"workspaceId\":\"" + ws + "\",\"relativePath\":\"data.bin\","
                        + "\"kind\":\"file\",\"expectedByteLength\":12,\"expectedSha256\":\"" + sha + "\"}"));
        assertThat(imported.path("state").asString()).as("%s", imported).isEqualTo("succeeded");
        assertThat(imported.path("result").path("byteLength").asString()).isEqualTo("12");

        JsonNode apk = call(
                session,
                "lomi_artifact_import",
                op("{\"workspaceId\":\"" + ws + "\",\"relativePath\":\"data.bin\","
                        + "\"kind\":\"android_apk\",\"expectedByteLength\":12,\"expectedSha256\":\"" + sha + "\"}"));
        if (dev.lomicontrol.tools.HostQualification.reason(dev.lomicontrol.tools.HostNeed.ANDROID_DEVICES)
                .isPresent()) {
            assertThat(apk.path("code").asString()).isEqualTo("HOST_UNQUALIFIED");
            assertThat(apk.path("message").asString()).contains("android_apk", "adb");
        } else {
            assertThat(apk.path("status").asString())
                    .as("where adb is found an APK is imported")
                    .isEqualTo("ok");
        }

        assertThat(refused(
                        session,
                        "lomi_artifact_import",
                        op("{\"workspaceId\":\"" + ws + "\",\"relativePath\":\"data.bin\","
                                + "\"kind\":\"file\",\"expectedByteLength\":-1,\"expectedSha256\":\"" + sha + "\"}")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }

    // --- settings

    @Test
    void settingsReadTakesTheReferenceFieldsAndAnswersKeybindsAndThemesUnsupported() {
        JsonNode editor = ok(
                session,
                "lomi_settings_read",
                "{\"workspaceId\":\"" + ws + "\",\"section\":\"editor\",\"offset\":0,\"limit\":100,"
                        + "\"expectedRevision\":null}");
        String revision = editor.path("settingsRevision").asString();
        assertThat(editor.path("values").path("tabSize").asInt()).isEqualTo(4);
        assertThat(ok(
                                session,
                                "lomi_settings_read",
                                "{\"workspaceId\":\"" + ws + "\",\"section\":\"editor\",\"expectedRevision\":\""
                                        + revision + "\"}")
                        .path("settingsRevision")
                        .asString())
                .isEqualTo(revision);
        assertThat(refused(
                        session,
                        "lomi_settings_read",
                        "{\"workspaceId\":\"" + ws + "\",\"section\":\"editor\",\"expectedRevision\":"
                                + "\"editor:99\"}"))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(ok(session, "lomi_settings_read", json("workspaceId", ws, "section", "terminal"))
                        .path("values")
                        .path("defaultProfile")
                        .asString())
                .isEqualTo("bash");

        for (String section : List.of("keybinds", "themes")) {
            JsonNode answer = call(
                    session,
                    "lomi_settings_read",
                    "{\"workspaceId\":\"" + ws + "\",\"section\":\"" + section + "\",\"offset\":0,\"limit\":50}");
            assertThat(answer.path("code").asString()).as(section).isEqualTo("UNSUPPORTED_CAPABILITY");
            assertThat(answer.path("message").asString()).contains(section);
        }
        assertThat(refused(
                        session,
                        "lomi_settings_read",
                        "{\"workspaceId\":\"" + ws + "\",\"section\":\"editor\",\"offset\":5}"))
                .as("offset pages keybinds only")
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void settingsUpdateTakesTheReferencesTaggedPatchAndChangesOnlyAfterApproval() {
        String revision = ok(session, "lomi_settings_read", json("workspaceId", ws, "section", "editor"))
                .path("settingsRevision")
                .asString();
        JsonNode parked = ok(
                session,
                "lomi_settings_update",
                op("{\"workspaceId\":\"" + ws + "\",\"patch\":{\"type\":\"editor_tab_size\","
                        + "\"value\":2},\"expectedSettingsRevision\":\"" + revision + "\"}"));
        assertThat(parked.path("state").asString()).isEqualTo("awaiting_user");
        broker.decisions.decide(new OperationId(parked.path("operationId").asString()), true);
        JsonNode done = ok(
                session,
                "lomi_operation_get",
                json("operationId", parked.path("operationId").asString()));
        assertThat(done.path("state").asString()).isEqualTo("succeeded");
        assertThat(done.path("result").path("kind").asString()).isEqualTo("settings_updated");
        assertThat(done.path("result").path("previousSettingsRevision").asString())
                .isEqualTo(revision);
        assertThat(ok(session, "lomi_settings_read", json("workspaceId", ws, "section", "editor"))
                        .path("values")
                        .path("tabSize")
                        .asInt())
                .isEqualTo(2);

        String after = done.path("result").path("settingsRevision").asString();
        JsonNode spaces = ok(
                session,
                "lomi_settings_update",
                op("{\"workspaceId\":\"" + ws + "\",\"patch\":{\"type\":\"editor_insert_spaces\","
                        + "\"value\":false},\"expectedSettingsRevision\":\"" + after + "\"}"));
        broker.decisions.decide(new OperationId(spaces.path("operationId").asString()), true);
        assertThat(ok(session, "lomi_settings_read", json("workspaceId", ws, "section", "editor"))
                        .path("values")
                        .path("insertSpaces")
                        .asBoolean())
                .isFalse();

        String terminal = ok(session, "lomi_settings_read", json("workspaceId", ws, "section", "terminal"))
                .path("settingsRevision")
                .asString();
        JsonNode scrollback = ok(
                session,
                "lomi_settings_update",
                op("{\"workspaceId\":\"" + ws + "\",\"patch\":{\"type\":\"terminal_field\","
                        + "\"field\":\"scrollbackBytes\",\"value\":131072},\"expectedSettingsRevision\":\"" + terminal
                        + "\"}"));
        broker.decisions.decide(new OperationId(scrollback.path("operationId").asString()), true);
        assertThat(ok(session, "lomi_settings_read", json("workspaceId", ws, "section", "terminal"))
                        .path("values")
                        .path("scrollbackBytes")
                        .asInt())
                .isEqualTo(131072);
    }

    @Test
    void settingsUpdateAnswersWhatHasNoMeaningHereUnsupportedNamingItAndLeavesNoReceipt() {
        String revision = ok(session, "lomi_settings_read", json("workspaceId", ws, "section", "terminal"))
                .path("settingsRevision")
                .asString();
        List<String> patches = List.of(
                "{\"type\":\"terminal_field\",\"field\":\"appearance.fontSize\",\"value\":13}",
                "{\"type\":\"terminal_field\",\"field\":\"appearance.colors.background\",\"value\":null}",
                "{\"type\":\"terminal_field\",\"field\":\"behavior.scrollback\",\"value\":1000}",
                "{\"type\":\"keybinding_set\",\"action\":\"workspace.new\",\"shortcut\":\"Cmd+T\"}",
                "{\"type\":\"keybinding_set\",\"action\":\"workspace.new\",\"shortcut\":null}",
                "{\"type\":\"keybinding_reset\",\"action\":\"workspace.new\"}",
                "{\"type\":\"keybinds_focus_follows_pointer\",\"value\":true}",
                "{\"type\":\"theme_builtin\",\"value\":\"deepmono\"}",
                "{\"type\":\"theme_appearance\",\"value\":\"dark\"}");
        for (String patch : patches) {
            String key = agent.key("unsupported");
            JsonNode answer = call(
                    session,
                    "lomi_settings_update",
                    op(
                            "{\"workspaceId\":\"" + ws + "\",\"patch\":" + patch + ",\"expectedSettingsRevision\":\""
                                    + revision + "\"}",
                            key));
            assertThat(answer.path("code").asString()).as(patch).isEqualTo("UNSUPPORTED_CAPABILITY");
            String named = JSON.readTree(patch).has("field")
                    ? JSON.readTree(patch).path("field").asString()
                    : JSON.readTree(patch).path("type").asString();
            assertThat(answer.path("message").asString()).as(patch).contains(named);
            assertThat(refused(
                            session,
                            "lomi_operation_get",
                            json(
                                    "retryEpoch",
                                    agent.epoch().value(),
                                    "requestKey",
                                    key,
                                    "tool",
                                    "lomi_settings_update")))
                    .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        }
        assertThat(broker.decisions.list()).isEmpty();
        assertThat(refused(
                        session,
                        "lomi_settings_update",
                        op("{\"workspaceId\":\"" + ws
                                + "\",\"section\":\"editor\",\"patch\":{\"tabSize\":3},"
                                + "\"expectedSettingsRevision\":\"" + revision + "\"}")))
                .as("the former flat shape")
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void settingsOpenTakesTheReferencesPagesAndAnswersThoseWithoutMeaningUnsupported() {
        JsonNode opened =
                ok(session, "lomi_settings_open", op("{\"workspaceId\":\"" + ws + "\",\"page\":\"agent-control\"}"));
        assertThat(opened.path("result").path("kind").asString()).isEqualTo("settings_opened");
        assertThat(opened.path("result").path("page").asString()).isEqualTo("agent-control");
        assertThat(ok(session, "lomi_settings_open", op("{\"workspaceId\":\"" + ws + "\",\"page\":\"terminal\"}"))
                        .path("state")
                        .asString())
                .isEqualTo("succeeded");
        for (String page : List.of("keybinds", "themes", "plugins", "about", "chat-ai", "android")) {
            JsonNode answer = call(
                    session, "lomi_settings_open", op("{\"workspaceId\":\"" + ws + "\",\"page\":\"" + page + "\"}"));
            assertThat(answer.path("code").asString()).as(page).isEqualTo("UNSUPPORTED_CAPABILITY");
            assertThat(answer.path("message").asString()).contains(page);
        }
        assertThat(refused(session, "lomi_settings_open", op("{\"workspaceId\":\"" + ws + "\",\"page\":\"nowhere\"}")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void theTypedOutputSchemasRefuseAnswersThatBreakThem() {
        ObjectNode settings =
                (ObjectNode) broker.call(session, "lomi_settings_read", json("workspaceId", ws, "section", "editor"));
        ObjectNode file = (ObjectNode)
                broker.call(session, "lomi_files_read", json("workspaceId", ws, "relativePath", "notes.md"));
        List<Object[]> broken = List.of(
                new Object[] {"lomi_settings_read", settings, "/data/section", "themes"},
                new Object[] {"lomi_settings_read", settings, "/data/values/tabSize", "4"},
                new Object[] {"lomi_files_read", file, "/data/encoding", "latin1"},
                new Object[] {"lomi_files_read", file, "/data/lineEndings", "windows"},
                new Object[] {"lomi_files_read", file, "/data/nextUtf16", "15"});
        for (Object[] change : broken) {
            ObjectNode answer = ((ObjectNode) change[1]).deepCopy();
            String pointer = (String) change[2];
            ObjectNode parent = (ObjectNode) answer.at(pointer.substring(0, pointer.lastIndexOf('/')));
            parent.put(pointer.substring(pointer.lastIndexOf('/') + 1), (String) change[3]);
            assertThat(Conformance.violation(
                            ToolCatalog.standard()
                                    .find((String) change[0])
                                    .orElseThrow()
                                    .outputSchema(),
                            answer))
                    .as("%s %s=%s", change[0], pointer, change[3])
                    .isPresent();
        }
    }

    // --- the helper binds with the same declarations

    @Test
    void theHelpersBindingAcceptsTheReferenceFormsAndRefusesTheIntendedOnes() {
        String hex = "a".repeat(64);
        String workspace = "\"workspaceId\":\"" + ws + "\"";
        String durable =
                ",\"expectedRevision\":\"3\",\"retryEpoch\":\"" + agent.epoch().value() + "\",\"requestKey\":\"k-1\"";
        accepts(FileSpecs.LIST, "{" + workspace + ",\"cursor\":null}");
        accepts(FileSpecs.READ, "{" + workspace + ",\"relativePath\":\"a.txt\",\"expectedDiskRevision\":null}");
        accepts(
                FileSpecs.SEARCH,
                "{" + workspace
                        + ",\"query\":{\"text\":\"x\",\"include\":\"*.rs,*.toml\"},\"limit\":200,\"cursor\":null}");
        accepts(
                FileSpecs.MUTATE,
                "{" + workspace
                        + ",\"operation\":{\"type\":\"move\",\"relativePath\":\"a.txt\",\"targetRelativePath\":\"b/a.txt\","
                        + "\"expectedDiskRevision\":\"" + hex + "\",\"expectedParentRevision\":\"" + hex + "\"}"
                        + durable + "}");
        accepts(
                EditorSpecs.READ,
                "{" + workspace
                        + ",\"panelId\":\"p-1\",\"relativePath\":\"a.txt\",\"documentId\":null,\"expectedBufferRevision\":null}");
        accepts(
                EditorSpecs.OPEN,
                "{" + workspace + ",\"relativePath\":\"a.txt\",\"presentation\":\"preview\"" + durable + "}");
        accepts(
                ArtifactSpecs.IMPORT,
                "{" + workspace + ",\"relativePath\":\"a.apk\",\"kind\":\"android_apk\",\"expectedByteLength\":12,"
                        + "\"expectedSha256\":\"" + hex + "\"" + durable + "}");
        accepts(
                SettingsSpecs.READ,
                "{" + workspace + ",\"section\":\"keybinds\",\"offset\":0,\"limit\":200,\"expectedRevision\":null}");
        accepts(
                SettingsSpecs.UPDATE,
                "{" + workspace
                        + ",\"patch\":{\"type\":\"terminal_field\",\"field\":\"appearance.fontSize\",\"value\":13},"
                        + "\"expectedSettingsRevision\":\"" + hex + "\"" + durable + "}");
        accepts(SettingsSpecs.OPEN, "{" + workspace + ",\"page\":\"keybinds\"" + durable + "}");

        refuses(FileSpecs.LIST, "{" + workspace + ",\"x\":1}");
        refuses(FileSpecs.LIST, "{" + workspace + ",\"limit\":0}");
        refuses(FileSpecs.READ, "{" + workspace + ",\"relativePath\":\"a.txt\",\"startUtf16\":4}");
        refuses(
                FileSpecs.MUTATE,
                "{" + workspace + ",\"operation\":{\"type\":\"create\",\"relativePath\":\"a.txt\",\"kind\":\"file\","
                        + "\"expectedParentRevision\":\"" + hex + "\",\"newName\":\"b\"}" + durable + "}");
        refuses(
                ArtifactSpecs.IMPORT,
                "{" + workspace + ",\"relativePath\":\"a\",\"kind\":\"file\",\"expectedByteLength\":\"12\","
                        + "\"expectedSha256\":\"" + hex + "\"" + durable + "}");
        refuses(
                SettingsSpecs.UPDATE,
                "{" + workspace
                        + ",\"patch\":{\"type\":\"terminal_field\",\"field\":\"appearance.nothing\",\"value\":1},"
                        + "\"expectedSettingsRevision\":\"" + hex + "\"" + durable + "}");
        refuses(
                SettingsSpecs.UPDATE,
                "{" + workspace
                        + ",\"patch\":{\"type\":\"editor_tab_size\",\"value\":17},\"expectedSettingsRevision\":\"" + hex
                        + "\"" + durable + "}");
    }

    // --- helpers

    /** Every answer, ok or error, is checked against the tool's published outputSchema (typed results included). */
    private JsonNode call(Session who, String tool, String arguments) {
        JsonNode envelope = broker.call(who, tool, arguments);
        assertThat(Conformance.violation(
                        ToolCatalog.standard()
                                .outputSchema(ToolCatalog.standard().find(tool).orElseThrow()),
                        envelope))
                .as("%s answer conforms to its outputSchema: %s", tool, envelope)
                .isEmpty();
        return envelope;
    }

    private JsonNode ok(Session who, String tool, String arguments) {
        JsonNode envelope = call(who, tool, arguments);
        assertThat(envelope.path("status").asString())
                .as("%s %s -> %s", tool, arguments, envelope)
                .isEqualTo("ok");
        return envelope.path("data");
    }

    private ErrorCode refused(Session who, String tool, String arguments) {
        JsonNode envelope = call(who, tool, arguments);
        assertThat(envelope.path("status").asString())
                .as("%s %s -> %s", tool, arguments, envelope)
                .isEqualTo("error");
        return ErrorCode.valueOf(envelope.path("code").asString());
    }

    private static void accepts(ToolSpec<?> spec, String arguments) {
        assertThat(spec.bind(JSON.readTree(arguments)))
                .as(spec.name() + " " + arguments)
                .isNotNull();
    }

    private static void refuses(ToolSpec<?> spec, String arguments) {
        assertThatThrownBy(() -> spec.bind(JSON.readTree(arguments)))
                .as(spec.name() + " " + arguments)
                .isInstanceOf(LomiException.class)
                .satisfies(e -> assertThat(((LomiException) e).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    }

    private String search(String query, int limit, String cursor) {
        ObjectNode arguments = (ObjectNode) JSON.readTree(json("workspaceId", ws, "limit", limit, "cursor", cursor));
        arguments.set("query", JSON.readTree(query));
        return arguments.toString();
    }

    private static List<String> paths(JsonNode found) {
        List<String> paths = new ArrayList<>();
        found.path("matches").forEach(m -> paths.add(m.path("relativePath").asString()));
        return paths;
    }

    private String op(String arguments) {
        return op(arguments, agent.key("ref"));
    }

    private String op(String arguments, String key) {
        ObjectNode node = (ObjectNode) JSON.readTree(arguments);
        node.put("expectedRevision", broker.revision());
        node.put("retryEpoch", agent.epoch().value());
        node.put("requestKey", key);
        return node.toString();
    }

    private String mutate(String operation) {
        ObjectNode node = (ObjectNode) JSON.readTree(json("workspaceId", ws));
        node.set("operation", JSON.readTree(operation));
        return op(node.toString());
    }

    private String dirRevision(String directory) {
        return ok(session, "lomi_files_list", json("workspaceId", ws, "relativeDirectory", directory))
                .path("directoryRevision")
                .asString();
    }

    private String diskRevision(String path) {
        return ok(session, "lomi_files_read", json("workspaceId", ws, "relativePath", path))
                .path("diskRevision")
                .asString();
    }
}
