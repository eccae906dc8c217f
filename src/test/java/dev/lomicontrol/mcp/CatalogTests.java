package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.ipc.Envelope;
import dev.lomicontrol.pairing.Scopes;
import dev.lomicontrol.tools.Effect;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Every catalog tool publishes complete schemas, and real results conform to them. */
class CatalogTests {

    static final String OP_ID = "0123456789abcdef0123456789abcdef01234567";
    /** The fields of an episode as the broker puts them (flat, without braces so they can be embedded). */
    static final String EPISODE =
            "\"episodeId\":\"e1\",\"externalId\":\"thread-1\",\"state\":\"attached\",\"attachments\":1,"
                    + "\"openedAt\":\"2026-11-30T10:00:00Z\",\"lastActivity\":\"2026-11-30T10:01:00Z\"";

    static final String CLOSED = EPISODE.replace("attached", "closed")
            + ",\"closedAt\":\"2026-11-30T10:02:00Z\",\"closeReason\":\"closed\"," + "\"ending\":\"closed\"";
    static final String OPERATION = "{\"kind\":\"operation\",\"operationId\":\"" + OP_ID
            + "\",\"tool\":\"lomi_terminal_run\",\"state\":\"running\","
            + "\"effectState\":\"unknown\",\"workspaceId\":\"w1\"}";

    static final String SESSION = "0123456789abcdef0123456789abcdef";
    static final String LEASE = "fedcba9876543210fedcba9876543210";
    static final String DURABLE = "\"retryEpoch\":\"" + OP_ID + "\",\"requestKey\":\"req-1\"";
    static final String REVISION = "\"expectedRevision\":\"12\"";
    static final String TERMINAL =
            "\"workspaceId\":\"w1\",\"panelId\":\"p7\",\"terminalSessionId\":\"" + SESSION + "\"";
    static final String LEASED = TERMINAL + ",\"leaseId\":\"" + LEASE + "\"";
    static final String COMMAND =
            "\"command\":{\"runId\":\"r1\",\"operationId\":\"" + OP_ID + "\",\"startedObserved\":true,"
                    + "\"completed\":true,\"exitCode\":0,\"startCursor\":\"100\",\"endCursor\":\"180\"}";
    static final String OUTPUT = "{\"kind\":\"terminal_output\",\"mode\":\"output\",\"terminalSessionId\":\"" + SESSION
            + "\",\"text\":\"hi\\n\","
            + "\"cursor\":\"0\",\"nextCursor\":\"3\",\"availableFrom\":\"0\",\"gap\":false,\"end\":true,\"prompt\":\"ready\",\"exited\":false,"
            + "\"shellExitCode\":null,\"leaseHeld\":true,\"nextInputSequence\":\"1\",\"streamSequence\":\"3\",\"command\":null}";
    static final String SCREEN =
            "{\"kind\":\"terminal_screen\",\"terminalSessionId\":\"" + SESSION + "\",\"columns\":120,\"rows\":2,"
                    + "\"cursor\":{\"row\":1,\"column\":2,\"visible\":true},\"buffer\":\"normal\",\"lines\":[\"hi\",\"$ \"],\"text\":\"hi\\n$ \","
                    + "\"title\":\"bash\",\"streamSequence\":\"3\",\"exited\":false}";

    static final String DISK = "1b".repeat(32);
    static final String PARENT = "2c".repeat(32);
    static final String DIRECTORY = "3d".repeat(32);
    static final String TARGET_PARENT = "4e".repeat(32);
    static final String DOC = "doc-0123456789abcdef";
    static final String BUFFER = DOC + ":7";
    static final String ART = "art-fedcba9876543210";
    static final String EDITOR = "\"workspaceId\":\"w1\",\"panelId\":\"e1\",\"relativePath\":\"README.md\"";
    static final String HEAD = "5f".repeat(20);
    static final String OBSERVED = "6a".repeat(32);
    static final String GIT = "\"workspaceId\":\"w1\"";
    static final String COMMIT_INFO =
            "\"commit\":\"" + HEAD + "\",\"parents\":[\"" + "7b".repeat(20) + "\"],\"author\":\"Ann\","
                    + "\"email\":\"ann@example.com\",\"authoredAt\":\"2026-11-30T10:00:00Z\",\"summary\":\"Fix it\"";
    static final String EDITOR_DOCUMENT = EDITOR + ",\"documentId\":\"" + DOC + "\",\"expectedBufferRevision\":\""
            + BUFFER + "\"," + "\"expectedDiskRevision\":\"" + DISK + "\"";

    /** A valid call of every layout, terminal, file, editor, artifact and settings tool, as an agent written for the reference sends it. */
    static final Map<String, String> VALID = Map.ofEntries(
            Map.entry(
                    "lomi_workspace_create",
                    "{\"workspaceId\":\"w1\",\"name\":\"feature\"," + REVISION + "," + DURABLE + "}"),
            Map.entry(
                    "lomi_workspace_update",
                    "{\"workspaceId\":\"w1\",\"name\":\"renamed\"," + REVISION + "," + DURABLE + "}"),
            Map.entry(
                    "lomi_project_open",
                    "{\"workspaceId\":\"w1\",\"projectPath\":\"/home/u/other\",\"name\":\"other\"," + REVISION + ","
                            + DURABLE + "}"),
            Map.entry(
                    "lomi_project_close",
                    "{\"projectId\":\"p1\",\"workspaceId\":\"w1\"," + REVISION + "," + DURABLE + "}"),
            Map.entry("lomi_panel_list", "{\"workspaceId\":\"w1\",\"limit\":50,\"cursor\":\"c1\"}"),
            Map.entry("lomi_panel_focus", "{" + TERMINAL + "," + REVISION + "," + DURABLE + "}"),
            Map.entry(
                    "lomi_panel_close", "{\"workspaceId\":\"w1\",\"panelId\":\"p7\"," + REVISION + "," + DURABLE + "}"),
            Map.entry(
                    "lomi_panel_move",
                    "{\"workspaceId\":\"w1\",\"movement\":{\"type\":\"reorder_tab\",\"tabId\":\"t1\",\"beforeTabId\":null},"
                            + REVISION + "," + DURABLE + "}"),
            Map.entry("lomi_panel_control", "{" + TERMINAL + ",\"action\":\"claim\"," + DURABLE + "}"),
            Map.entry(
                    "lomi_terminal_create",
                    "{\"workspaceId\":\"w1\",\"cwdRelative\":\"src/app\",\"profileId\":\"bash\",\"title\":\"build\","
                            + "\"columns\":120,\"rows\":32," + REVISION + "," + DURABLE + "}"),
            Map.entry("lomi_terminal_run", "{" + LEASED + ",\"command\":\"ls -la | wc -l\"," + DURABLE + "}"),
            Map.entry(
                    "lomi_terminal_input",
                    "{" + LEASED + ",\"inputSequence\":\"1\",\"input\":{\"type\":\"text\",\"text\":\"echo hi\"}}"),
            Map.entry("lomi_terminal_interrupt", "{" + LEASED + ",\"operationId\":\"" + OP_ID + "\"," + DURABLE + "}"),
            Map.entry(
                    "lomi_terminal_read", "{" + TERMINAL + ",\"mode\":\"output\",\"cursor\":\"0\",\"maxBytes\":4096}"),
            Map.entry(
                    "lomi_files_list",
                    "{\"workspaceId\":\"w1\",\"relativeDirectory\":\"src\",\"limit\":100,\"cursor\":\"c1\"}"),
            Map.entry(
                    "lomi_files_read",
                    "{\"workspaceId\":\"w1\",\"relativePath\":\"src/Main.java\",\"startUtf16\":4096,\"maxChars\":4096,"
                            + "\"expectedDiskRevision\":\"" + DISK + "\"}"),
            Map.entry(
                    "lomi_files_search",
                    "{\"workspaceId\":\"w1\",\"relativeDirectory\":\"\",\"query\":{\"text\":\"TODO\",\"regex\":false,"
                            + "\"caseSensitive\":true,\"wholeWord\":true,\"include\":\"**/*.java,*.md\",\"exclude\":\"build/**\"},\"limit\":50,\"cursor\":null}"),
            Map.entry(
                    "lomi_files_mutate",
                    "{\"workspaceId\":\"w1\",\"operation\":{\"type\":\"rename\",\"relativePath\":\"src/a.txt\","
                            + "\"newName\":\"b.txt\",\"expectedDiskRevision\":\"" + DISK
                            + "\",\"expectedParentRevision\":\"" + PARENT + "\"},"
                            + REVISION + "," + DURABLE + "}"),
            Map.entry(
                    "lomi_editor_open",
                    "{\"workspaceId\":\"w1\",\"relativePath\":\"README.md\",\"presentation\":\"split\"," + REVISION
                            + "," + DURABLE + "}"),
            Map.entry(
                    "lomi_editor_read",
                    "{" + EDITOR + ",\"documentId\":\"" + DOC + "\",\"expectedBufferRevision\":\"" + BUFFER + "\","
                            + "\"startUtf16\":4096,\"maxChars\":8192}"),
            Map.entry(
                    "lomi_editor_apply_edits",
                    "{" + EDITOR_DOCUMENT + ",\"edits\":[{\"fromUtf16\":0,\"toUtf16\":5,\"insert\":\"Hello\"},"
                            + "{\"fromUtf16\":10,\"toUtf16\":12,\"insert\":\"\"},{\"fromUtf16\":20,\"toUtf16\":20,\"insert\":\"a\\nb\"}],"
                            + REVISION + "," + DURABLE + "}"),
            Map.entry("lomi_editor_save", "{" + EDITOR_DOCUMENT + "," + REVISION + "," + DURABLE + "}"),
            Map.entry(
                    "lomi_artifact_import",
                    "{\"workspaceId\":\"w1\",\"relativePath\":\"dist/app.bin\",\"kind\":\"file\","
                            + "\"expectedByteLength\":1024,\"expectedSha256\":\"" + DISK + "\"," + REVISION + ","
                            + DURABLE + "}"),
            Map.entry("lomi_artifact_read", "{\"workspaceId\":\"w1\",\"artifactId\":\"" + ART + "\"}"),
            Map.entry(
                    "lomi_artifact_export",
                    "{\"workspaceId\":\"w1\",\"artifactId\":\"" + ART + "\",\"expectedSha256\":\"" + DISK + "\","
                            + "\"relativePath\":\"out/copy.bin\",\"expectedParentRevision\":\"" + PARENT + "\","
                            + REVISION + "," + DURABLE + "}"),
            Map.entry("lomi_settings_read", "{\"workspaceId\":\"w1\",\"section\":\"agentControl\"}"),
            Map.entry(
                    "lomi_settings_update",
                    "{\"workspaceId\":\"w1\",\"patch\":{\"type\":\"editor_tab_size\",\"value\":2},"
                            + "\"expectedSettingsRevision\":\"editor:1\"," + REVISION + "," + DURABLE + "}"),
            Map.entry(
                    "lomi_settings_open",
                    "{\"workspaceId\":\"w1\",\"page\":\"agent-control\"," + REVISION + "," + DURABLE + "}"),
            Map.entry("lomi_git_status", "{" + GIT + ",\"limit\":50,\"cursor\":\"6a6a6a6a6a6a6a6a:50\"}"),
            Map.entry(
                    "lomi_git_diff",
                    "{" + GIT + ",\"relativePath\":\"src/Main.java\",\"comparison\":\"staged\",\"startUtf16\":4096,"
                            + "\"maxChars\":4096,\"expectedObservationRevision\":\"" + OBSERVED + "\"}"),
            Map.entry(
                    "lomi_git_history",
                    "{" + GIT + ",\"relativePath\":\"src/Main.java\",\"commit\":\"" + HEAD + "\",\"skip\":20,"
                            + "\"limit\":20}"),
            Map.entry(
                    "lomi_git_commit",
                    "{" + GIT + ",\"commit\":\"" + HEAD + "\",\"filesSkip\":100,\"filesLimit\":100}"),
            Map.entry("lomi_git_remotes", "{" + GIT + "}"),
            Map.entry(
                    "lomi_git_open",
                    "{" + GIT + ",\"view\":{\"type\":\"diff\",\"relativePath\":\"src/Main.java\",\"staged\":true},"
                            + REVISION + "," + DURABLE + "}"),
            Map.entry(
                    "lomi_git_mutate",
                    "{" + GIT
                            + ",\"repositoryRelative\":\"\",\"operation\":\"push\",\"paths\":[],\"remote\":\"origin\","
                            + "\"reference\":\"refs/heads/main\",\"sourceCommit\":\"" + HEAD
                            + "\",\"expectedRemoteCommit\":null," + REVISION + ","
                            + DURABLE + "}"));

    /** Hand-made data as the broker answers it (SPEC §4–§9), one per broker tool. */
    static final Map<String, String> BROKER_DATA = Map.ofEntries(
            Map.entry(
                    "lomi_workspace_create",
                    settled(
                            "lomi_workspace_create",
                            "{\"kind\":\"workspace_created\",\"workspaceId\":\"w2\","
                                    + "\"projectId\":\"p1\",\"panelId\":\"s1\",\"domainRevision\":\"13\"}")),
            Map.entry(
                    "lomi_workspace_update",
                    settled(
                            "lomi_workspace_update",
                            "{\"kind\":\"workspace_updated\",\"action\":\"rename\","
                                    + "\"workspaceId\":\"w1\",\"domainRevision\":\"13\"}")),
            Map.entry(
                    "lomi_project_open",
                    OPERATION
                            .replace("lomi_terminal_run", "lomi_project_open")
                            .replace("running", "awaiting_user")
                            .replace("unknown", "none")),
            Map.entry(
                    "lomi_project_close",
                    settled(
                            "lomi_project_close",
                            "{\"kind\":\"project_closed\",\"projectId\":\"p1\","
                                    + "\"closedWorkspaceIds\":[\"w1\",\"w2\"],\"domainRevision\":\"14\"}")),
            Map.entry(
                    "lomi_panel_list",
                    "{\"kind\":\"panel_list\",\"workspaceId\":\"w1\",\"domainRevision\":\"12\",\"activePanelId\":\"p7\","
                            + "\"tabs\":[{\"tabId\":\"t1\",\"panelIds\":[\"s1\",\"p7\"],\"layout\":{\"split\":\"row\",\"children\":[\"s1\",\"p7\"]}}],"
                            + "\"panels\":[{\"panelId\":\"s1\",\"tabId\":\"t1\",\"kind\":\"scratch\",\"title\":\"scratch\",\"terminalSessionId\":null,"
                            + "\"ownership\":\"none\",\"runtimeState\":\"not_started\",\"inputControlled\":false,\"focused\":false},{\"panelId\":\"p7\","
                            + "\"tabId\":\"t1\",\"kind\":\"terminal\",\"title\":\"build\",\"terminalSessionId\":\""
                            + SESSION + "\",\"ownership\":"
                            + "\"this_session\",\"runtimeState\":\"ready\",\"inputControlled\":true,\"focused\":true}],\"hasMore\":false,"
                            + "\"nextCursor\":null}"),
            Map.entry(
                    "lomi_panel_focus",
                    settled(
                            "lomi_panel_focus",
                            "{\"kind\":\"panel_focused\",\"workspaceId\":\"w1\",\"panelId\":\"p7\","
                                    + "\"domainRevision\":\"13\"}")),
            Map.entry(
                    "lomi_panel_close",
                    OPERATION
                            .replace("lomi_terminal_run", "lomi_panel_close")
                            .replace("running", "failed")
                            .replace("unknown", "none")
                            .replace("}", ",\"errorCode\":\"TARGET_BUSY\"}")),
            Map.entry(
                    "lomi_panel_move",
                    settled(
                            "lomi_panel_move",
                            "{\"kind\":\"panel_moved\",\"workspaceId\":\"w1\",\"movement\":"
                                    + "\"reorder_tab\",\"domainRevision\":\"13\"}")),
            Map.entry(
                    "lomi_panel_control",
                    settled(
                            "lomi_panel_control",
                            "{\"kind\":\"panel_control\",\"action\":\"release\"," + "\"terminalSessionId\":\"" + SESSION
                                    + "\",\"leaseId\":null}")),
            Map.entry(
                    "lomi_terminal_create",
                    settled(
                            "lomi_terminal_create",
                            "{\"kind\":\"terminal_created\",\"workspaceId\":\"w1\","
                                    + "\"panelId\":\"p7\",\"tabId\":\"t1\",\"terminalSessionId\":\"" + SESSION
                                    + "\",\"leaseId\":\"" + LEASE + "\","
                                    + "\"profileId\":\"bash\",\"domainRevision\":\"13\"}")),
            Map.entry("lomi_terminal_run", OPERATION),
            Map.entry(
                    "lomi_terminal_input",
                    "{\"kind\":\"terminal_input\",\"terminalSessionId\":\"" + SESSION + "\",\"inputSequence\":\"1\","
                            + "\"state\":\"dispatched\",\"repeated\":false,\"nextInputSequence\":\"2\"}"),
            Map.entry(
                    "lomi_terminal_interrupt",
                    settled(
                            "lomi_terminal_interrupt",
                            "{\"kind\":\"terminal_interrupt\",\"targetOperationId\":\"" + OP_ID
                                    + "\",\"dispatched\":true}")),
            Map.entry("lomi_terminal_read", OUTPUT),
            Map.entry(
                    "lomi_files_list",
                    "{\"kind\":\"files_list\",\"workspaceId\":\"w1\",\"relativeDirectory\":\"\",\"directoryRevision\":\""
                            + PARENT
                            + "\",\"entries\":[{\"name\":\"src\",\"relativePath\":\"src\",\"kind\":\"directory\",\"byteLength\":\"0\"},"
                            + "{\"name\":\"README.md\",\"relativePath\":\"README.md\",\"kind\":\"file\",\"byteLength\":\"1234\"}],\"filtered\":true,"
                            + "\"hasMore\":false,\"nextCursor\":null}"),
            Map.entry(
                    "lomi_files_read",
                    "{\"kind\":\"file_text\",\"workspaceId\":\"w1\",\"relativePath\":\"src/Main.java\",\"text\":"
                            + "\"class Main {}\\r\\n\",\"startUtf16\":0,\"nextUtf16\":15,\"totalUtf16\":15,\"truncated\":false,\"diskRevision\":\""
                            + DISK
                            + "\",\"encoding\":\"utf-8\",\"lineEndings\":\"crlf\"}"),
            Map.entry(
                    "lomi_files_search",
                    "{\"kind\":\"files_search\",\"workspaceId\":\"w1\",\"matches\":[{\"relativePath\":"
                            + "\"src/Main.java\",\"diskRevision\":\"" + DISK
                            + "\",\"line\":3,\"columnUtf16\":5,\"lengthUtf16\":4,\"preview\":"
                            + "\"    TODO fix\"}],\"truncated\":false,\"filesScanned\":12,\"skipped\":1}"),
            Map.entry(
                    "lomi_files_mutate",
                    settled(
                            "lomi_files_mutate",
                            "{\"kind\":\"files_mutated\",\"type\":\"trash\",\"relativePath\":"
                                    + "\"old\",\"entryKind\":\"directory\",\"diskRevision\":null,\"parentRevision\":\""
                                    + PARENT + "\",\"directoryRevision\":"
                                    + "null,\"recoveryPath\":\"/home/u/.local/share/lomi-control/trash-recovery/"
                                    + OP_ID + "\"}")),
            Map.entry(
                    "lomi_editor_open",
                    settled(
                            "lomi_editor_open",
                            "{\"kind\":\"editor_opened\",\"workspaceId\":\"w1\",\"panelId\":"
                                    + "\"e1\",\"documentId\":\"" + DOC + "\",\"bufferRevision\":\"" + DOC
                                    + ":0\",\"diskRevision\":\"" + DISK + "\","
                                    + "\"dirty\":false,\"encoding\":\"utf-8\",\"lineEndings\":\"lf\",\"lengthUtf16\":8,\"domainRevision\":\"13\"}")),
            Map.entry(
                    "lomi_editor_read",
                    "{\"kind\":\"editor_text\",\"workspaceId\":\"w1\",\"panelId\":\"e1\",\"documentId\":\"" + DOC
                            + "\",\"bufferRevision\":\"" + BUFFER + "\",\"diskRevision\":\"" + DISK
                            + "\",\"dirty\":true,\"changedOnDisk\":false,"
                            + "\"text\":\"# Title\\n\",\"startUtf16\":0,\"nextUtf16\":8,\"totalUtf16\":8,\"truncated\":false}"),
            Map.entry(
                    "lomi_editor_apply_edits",
                    settled(
                            "lomi_editor_apply_edits",
                            "{\"kind\":\"editor_edited\",\"documentId\":\"" + DOC + "\",\"bufferRevision\":\"" + DOC
                                    + ":8\",\"lengthUtf16\":13,\"dirty\":true}")),
            Map.entry(
                    "lomi_editor_save",
                    settled(
                            "lomi_editor_save",
                            "{\"kind\":\"editor_saved\",\"documentId\":\"" + DOC + "\"," + "\"bufferRevision\":\""
                                    + BUFFER + "\",\"diskRevision\":\"" + PARENT + "\",\"byteLength\":\"13\"}")),
            Map.entry(
                    "lomi_artifact_import",
                    settled(
                            "lomi_artifact_import",
                            "{\"kind\":\"artifact_imported\",\"artifactId\":\"" + ART + "\",\"sha256\":\"" + DISK
                                    + "\",\"byteLength\":\"1024\",\"expiresAt\":\"2026-12-01T10:00:00Z\"}")),
            Map.entry(
                    "lomi_artifact_read",
                    "{\"kind\":\"artifact\",\"artifactId\":\"" + ART + "\",\"sha256\":\"" + DISK + "\","
                            + "\"byteLength\":\"3\",\"sourceRelativePath\":\"dist/app.bin\",\"createdAt\":\"2026-11-30T10:00:00Z\",\"expiresAt\":"
                            + "\"2026-12-01T10:00:00Z\",\"sourceChanged\":false,\"contentBase64\":\"aGkK\"}"),
            Map.entry(
                    "lomi_artifact_export",
                    settled(
                            "lomi_artifact_export",
                            "{\"kind\":\"artifact_exported\",\"artifactId\":\"" + ART
                                    + "\",\"relativePath\":\"out/copy.bin\",\"diskRevision\":\"" + DISK
                                    + "\",\"parentRevision\":\"" + TARGET_PARENT + "\"}")),
            Map.entry(
                    "lomi_settings_read",
                    "{\"kind\":\"settings\",\"section\":\"editor\",\"values\":{\"tabSize\":4,\"insertSpaces\":true,"
                            + "\"insertFinalNewline\":true},\"settingsRevision\":\"editor:1\",\"readOnly\":false}"),
            Map.entry(
                    "lomi_settings_update",
                    OPERATION
                            .replace("lomi_terminal_run", "lomi_settings_update")
                            .replace("running", "awaiting_user")
                            .replace("unknown", "none")),
            Map.entry(
                    "lomi_settings_open",
                    settled(
                            "lomi_settings_open",
                            "{\"kind\":\"settings_opened\",\"page\":\"agent-control\"," + "\"requestId\":\"r1\"}")),
            Map.entry(
                    "lomi_git_status",
                    "{\"kind\":\"git_status\"," + GIT + ",\"observationRevision\":\"" + OBSERVED + "\",\"branch\":"
                            + "\"main\",\"head\":\"" + HEAD
                            + "\",\"changes\":[{\"relativePath\":\"b.txt\",\"oldPath\":\"a.txt\",\"staged\":"
                            + "\"renamed\",\"worktree\":\"modified\",\"binary\":false,\"conflicted\":false}],\"totalChanges\":1,\"filtered\":true,"
                            + "\"hasMore\":false,\"nextCursor\":null}"),
            Map.entry(
                    "lomi_git_diff",
                    "{\"kind\":\"git_diff\"," + GIT + ",\"relativePath\":\"b.txt\",\"comparison\":\"worktree\","
                            + "\"commit\":null,\"text\":\"@@ -1 +1 @@\\n-a\\n+b\\n\",\"startUtf16\":0,\"nextUtf16\":20,\"totalUtf16\":20,"
                            + "\"truncated\":false,\"binary\":false,\"observationRevision\":\"" + OBSERVED + "\"}"),
            Map.entry(
                    "lomi_git_history",
                    "{\"kind\":\"git_history\"," + GIT + ",\"startCommit\":\"" + HEAD + "\",\"commits\":[{"
                            + COMMIT_INFO + "}],\"hasMore\":true,\"nextSkip\":1}"),
            Map.entry(
                    "lomi_git_commit",
                    "{\"kind\":\"git_commit\"," + GIT + "," + COMMIT_INFO + ",\"message\":\"Fix it\\n\\nBody\","
                            + "\"files\":[{\"relativePath\":\"b.txt\",\"oldPath\":null,\"change\":\"modified\"}],\"totalFiles\":1,"
                            + "\"hasMoreFiles\":false,\"nextFilesSkip\":null}"),
            Map.entry(
                    "lomi_git_remotes",
                    "{\"kind\":\"git_remotes\"," + GIT + ",\"remotes\":[{\"name\":\"origin\",\"fetchUrls\":"
                            + "[\"https://***@example.com/r.git\"],\"pushUrls\":[]}],\"truncated\":false}"),
            Map.entry(
                    "lomi_git_open",
                    settled(
                            "lomi_git_open",
                            "{\"kind\":\"git_opened\"," + GIT + ",\"panelId\":\"g1\",\"view\":"
                                    + "{\"type\":\"commit\",\"commit\":\"" + HEAD + "\"},\"domainRevision\":\"14\"}")),
            Map.entry(
                    "lomi_git_mutate",
                    OPERATION
                            .replace("lomi_terminal_run", "lomi_git_mutate")
                            .replace("running", "awaiting_user")
                            .replace("unknown", "none")),
            Map.entry(
                    "lomi_connect",
                    "{\"kind\":\"connection\",\"instanceId\":\"" + "a".repeat(32) + "\",\"workspaceId\":\"w1\","
                            + "\"projectId\":\"p1\",\"retryEpoch\":\"" + OP_ID
                            + "\",\"retryEpochExpiresAt\":\"2026-12-01T10:00:00Z\","
                            + "\"scopes\":[\"workspace.read\"]}"),
            Map.entry(
                    "lomi_workspace_list",
                    "{\"kind\":\"workspace_list\",\"domainRevision\":\"12\",\"workspaces\":[{\"workspaceId\":\"w1\","
                            + "\"projectId\":\"p1\",\"name\":\"main\",\"projectName\":\"demo\",\"projectPath\":\"/home/u/demo\"}],\"hasMore\":false}"),
            Map.entry("lomi_operation_get", OPERATION),
            Map.entry("lomi_operation_cancel", OPERATION.replace("running", "cancelling")),
            Map.entry(
                    "lomi_events_read",
                    "{\"kind\":\"events\",\"workspaceId\":\"w1\",\"events\":[{\"sequence\":1,\"kind\":\"operation_state\","
                            + "\"operationId\":\"" + OP_ID
                            + "\",\"tool\":\"lomi_terminal_run\",\"state\":\"queued\",\"effectState\":\"none\","
                            + "\"timestampSeconds\":1796000000}],\"nextCursor\":\"c1\",\"hasMore\":false,\"gap\":false}"),
            Map.entry(
                    "lomi_session_attach",
                    "{\"kind\":\"episode\"," + EPISODE + ",\"resumed\":false,\"reattachGraceSeconds\":900}"),
            Map.entry("lomi_session_detach", "{\"kind\":\"episode\"," + CLOSED + "}"),
            Map.entry(
                    "lomi_episodes",
                    "{\"kind\":\"episodes\",\"attached\":1,\"detached\":0,\"reattachGraceSeconds\":900,\"episodes\":[{"
                            + EPISODE
                            + ",\"held\":true,\"mine\":true,\"holdingSession\":\"s1\",\"lastActivitySecondsAgo\":3}],\"recentlyClosed\":[{"
                            + CLOSED + "}],\"mine\":{" + EPISODE
                            + ",\"held\":true,\"mine\":true,\"lastActivitySecondsAgo\":3}}"));

    final Catalog catalog = Catalog.standard();

    @Test
    void theCatalogHasAll77ToolsInAFixedOrder() {
        assertThat(catalog.all())
                .extracting(ToolDefinition::name)
                .containsExactly(
                        "lomi_status",
                        "lomi_diagnostics",
                        "lomi_connect",
                        "lomi_workspace_list",
                        "lomi_operation_get",
                        "lomi_operation_cancel",
                        "lomi_events_read",
                        "lomi_session_attach",
                        "lomi_session_detach",
                        "lomi_episodes",
                        "lomi_workspace_create",
                        "lomi_workspace_update",
                        "lomi_project_open",
                        "lomi_project_close",
                        "lomi_panel_list",
                        "lomi_panel_focus",
                        "lomi_panel_close",
                        "lomi_panel_move",
                        "lomi_panel_control",
                        "lomi_terminal_create",
                        "lomi_terminal_run",
                        "lomi_terminal_input",
                        "lomi_terminal_interrupt",
                        "lomi_terminal_read",
                        "lomi_files_list",
                        "lomi_files_read",
                        "lomi_files_search",
                        "lomi_files_mutate",
                        "lomi_editor_open",
                        "lomi_editor_read",
                        "lomi_editor_apply_edits",
                        "lomi_editor_save",
                        "lomi_artifact_import",
                        "lomi_artifact_read",
                        "lomi_artifact_export",
                        "lomi_settings_read",
                        "lomi_settings_update",
                        "lomi_settings_open",
                        "lomi_git_status",
                        "lomi_git_diff",
                        "lomi_git_history",
                        "lomi_git_commit",
                        "lomi_git_remotes",
                        "lomi_git_open",
                        "lomi_git_mutate",
                        "lomi_browser_open",
                        "lomi_browser_navigate",
                        "lomi_browser_snapshot",
                        "lomi_browser_wait",
                        "lomi_browser_click",
                        "lomi_browser_fill",
                        "lomi_browser_key",
                        "lomi_browser_scroll",
                        "lomi_browser_logs",
                        "lomi_browser_screenshot",
                        "lomi_browser_upload",
                        "lomi_browser_download",
                        "lomi_chat_list",
                        "lomi_chat_read",
                        "lomi_chat_export",
                        "lomi_chat_open",
                        "lomi_chat_draft",
                        "lomi_chat_send",
                        "lomi_chat_stop",
                        "lomi_android_list",
                        "lomi_android_open",
                        "lomi_android_start",
                        "lomi_android_stop",
                        "lomi_android_input",
                        "lomi_android_snapshot",
                        "lomi_android_screenshot",
                        "lomi_android_logcat",
                        "lomi_android_launch",
                        "lomi_android_install_apk",
                        "lomi_android_setup_plan",
                        "lomi_android_setup_apply",
                        "lomi_android_device_manage");
    }

    @Test
    void everyListedToolHasATitleClosedInputSchemaOutputSchemaAndAnnotations() {
        JsonNode tools = listed(catalog, ProtocolVersion.V2025_11_25).get("tools");

        assertThat(tools.size()).isEqualTo(catalog.all().size());
        for (JsonNode tool : tools.values()) {
            String name = tool.get("name").asString();
            assertThat(tool.get("title").asString()).as(name).isNotBlank();
            assertThat(tool.get("description").asString()).as(name).hasSizeGreaterThan(20);
            assertThat(tool.at("/inputSchema/type").asString()).as(name).isEqualTo("object");
            assertThat(tool.at("/inputSchema/additionalProperties").isBoolean()
                            && !tool.at("/inputSchema/additionalProperties").asBoolean())
                    .as(name + " input is closed")
                    .isTrue();
            assertThat(tool.get("inputSchema").propertyNames())
                    .as(name + " has no top-level composition")
                    .doesNotContain("oneOf", "anyOf", "allOf", "not", "if");
            assertThat(tool.at("/outputSchema/type").asString()).as(name).isEqualTo("object");
            assertThat(tool.at("/outputSchema/oneOf").size())
                    .as(name + " output is ok|error")
                    .isEqualTo(2);
        }
    }

    /** The {@code tools/list} result as a client reads it (its schemas are written as the build's bytes). */
    static JsonNode listed(Catalog catalog, ProtocolVersion version) {
        try {
            return McpJson.parse(McpJson.line(catalog.listResult(version)));
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The reference's annotations (catalog.md §3, from its server.rs) as R(eadOnly) D(estructive)
     * I(dempotent) O(penWorld); our three episode tools are ours.
     */
    static final Map<String, String> REFERENCE_HINTS = hints(
            "R-I- lomi_status lomi_diagnostics lomi_connect lomi_workspace_list lomi_operation_get lomi_events_read lomi_panel_list "
                    + "lomi_terminal_read lomi_files_list lomi_files_read lomi_files_search lomi_editor_read lomi_git_status lomi_git_diff "
                    + "lomi_git_history lomi_git_commit lomi_git_remotes lomi_artifact_read lomi_settings_read lomi_browser_snapshot "
                    + "lomi_browser_wait lomi_browser_logs lomi_browser_screenshot lomi_chat_list lomi_chat_read lomi_chat_export "
                    + "lomi_android_list lomi_android_snapshot lomi_android_screenshot lomi_android_logcat lomi_episodes",
            "--I- lomi_operation_cancel lomi_workspace_create lomi_project_open lomi_panel_focus lomi_panel_move lomi_panel_control "
                    + "lomi_editor_open lomi_git_open lomi_artifact_import lomi_settings_update lomi_settings_open lomi_chat_open "
                    + "lomi_android_open lomi_android_start",
            "-DI- lomi_workspace_update lomi_project_close lomi_panel_close lomi_chat_draft lomi_chat_stop lomi_android_stop "
                    + "lomi_android_install_apk lomi_android_device_manage",
            "-DIO lomi_terminal_create lomi_terminal_run lomi_terminal_input lomi_terminal_interrupt lomi_files_mutate "
                    + "lomi_editor_apply_edits lomi_editor_save lomi_git_mutate lomi_browser_click lomi_browser_fill lomi_browser_key "
                    + "lomi_browser_scroll lomi_browser_upload lomi_android_input lomi_android_launch lomi_android_setup_apply",
            "--IO lomi_artifact_export lomi_browser_open lomi_browser_navigate lomi_browser_download lomi_chat_send",
            "R-IO lomi_android_setup_plan",
            "-D-- lomi_session_attach lomi_session_detach");

    private static Map<String, String> hints(String... groups) {
        Map<String, String> hints = new java.util.TreeMap<>();
        for (String group : groups) {
            String[] words = group.split(" ");
            for (int i = 1; i < words.length; i++) {
                hints.put(words[i], words[0]);
            }
        }
        return hints;
    }

    @Test
    void annotationsAreTheReferencesForEveryTool() {
        assertThat(REFERENCE_HINTS).hasSize(77);
        JsonNode tools = listed(catalog, ProtocolVersion.V2025_11_25).get("tools");
        Map<String, String> published = new java.util.TreeMap<>();
        for (JsonNode tool : tools.values()) {
            JsonNode a = tool.get("annotations");
            published.put(
                    tool.get("name").asString(),
                    (a.get("readOnlyHint").asBoolean() ? "R" : "-")
                            + (a.get("destructiveHint").asBoolean() ? "D" : "-")
                            + (a.get("idempotentHint").asBoolean() ? "I" : "-")
                            + (a.get("openWorldHint").asBoolean() ? "O" : "-"));
        }
        assertThat(published).isEqualTo(REFERENCE_HINTS);
        for (ToolDefinition tool : catalog.all()) {
            assertThat(tool.annotations().get("readOnlyHint").asBoolean())
                    .as(tool.name() + " read-only hint = effect")
                    .isEqualTo(tool.effect() == Effect.RO);
        }
    }

    @Test
    void statusAndDiagnosticsBeforePairingConformToTheirOutputSchemas() throws Exception {
        InProcessServer session = new InProcessServer();
        for (String tool : List.of("lomi_status", "lomi_diagnostics")) {
            JsonNode result = session.call(
                            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                                    + "\"}}")
                    .get("result");

            assertThat(result.get("isError").asBoolean()).isFalse();
            assertThat(conformance(tool, result.get("structuredContent")))
                    .as(tool)
                    .isEmpty();
            assertThat(McpMapper.MAPPER.readTree(result.at("/content/0/text").asString()))
                    .isEqualTo(result.get("structuredContent"));
        }
    }

    @Test
    void theStatusNamesNoWorkspaceOrProjectAndListsEveryCapability() throws Exception {
        JsonNode data = new InProcessServer()
                .call("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"lomi_status\"}}")
                .at("/result/structuredContent/data");

        assertThat(data.propertyNames())
                .doesNotContain("workspaces", "workspaceId", "projectId", "projectName", "projectPath");
        assertThat(data.get("capabilities").size()).isEqualTo(catalog.all().size());
        assertThat(data.get("ipcVersion").asInt()).isEqualTo(1);
    }

    @Test
    void everyErrorEnvelopeConformsToEveryToolsOutputSchema() {
        for (ToolDefinition tool : catalog.all()) {
            assertThat(conformance(tool.name(), Envelope.error(ErrorCode.PAIRING_REQUIRED, "approve me")))
                    .as(tool.name())
                    .isEmpty();
        }
    }

    @Test
    void answersThatBreakTheContractDoNotConform() {
        JsonNode wrongKind =
                SchemaValidatorTests.json(BROKER_DATA.get("lomi_operation_get").replace("\"operation\"", "\"op\""));
        JsonNode badState =
                SchemaValidatorTests.json(BROKER_DATA.get("lomi_operation_get").replace("running", "done"));

        assertThat(conformance("lomi_operation_get", Envelope.ok(wrongKind))).isPresent();
        assertThat(conformance("lomi_operation_get", Envelope.ok(badState))).isPresent();
        assertThat(conformance(
                        "lomi_status",
                        SchemaValidatorTests.json(
                                "{\"controlApiVersion\":\"1.0\",\"status\":\"error\",\"code\":\"NOPE\","
                                        + "\"message\":\"x\"}")))
                .isPresent();
    }

    @Test
    void theResendRuleAllowsOnlyUnsentCallsAndReads() {
        assertThat(Bridge.mayResend(Optional.of(Effect.RO), true)).isTrue();
        assertThat(Bridge.mayResend(Optional.of(Effect.OP), true)).isFalse();
        assertThat(Bridge.mayResend(Optional.of(Effect.MUT), true)).isFalse();
        assertThat(Bridge.mayResend(Optional.empty(), true))
                .as("an unknown tool is not idempotent")
                .isFalse();
        for (Effect effect : Effect.values()) {
            assertThat(Bridge.mayResend(Optional.of(effect), false))
                    .as(effect + " not sent")
                    .isTrue();
        }
        assertThat(Bridge.mayResend(Optional.empty(), false)).isTrue();
    }

    @Test
    void everyToolWithAReferenceCallHasItsEffectAndGrantScope() {
        Map<String, String> scopes = Map.ofEntries(
                Map.entry("lomi_workspace_create", "OP workspace.write"),
                Map.entry("lomi_workspace_update", "OP workspace.write"),
                Map.entry("lomi_project_open", "OP project.open"),
                Map.entry("lomi_project_close", "OP project.close"),
                Map.entry("lomi_panel_list", "RO workspace.read"),
                Map.entry("lomi_panel_focus", "OP panel.focus"),
                Map.entry("lomi_panel_close", "OP panel.close"),
                Map.entry("lomi_panel_move", "OP panel.move"),
                Map.entry("lomi_panel_control", "OP terminal.execute"),
                Map.entry("lomi_terminal_create", "OP terminal.execute"),
                Map.entry("lomi_terminal_run", "OP terminal.execute"),
                Map.entry("lomi_terminal_input", "ORDERED terminal.execute"),
                Map.entry("lomi_terminal_interrupt", "OP terminal.execute"),
                Map.entry("lomi_terminal_read", "RO terminal.read"),
                Map.entry("lomi_files_list", "RO files.read"),
                Map.entry("lomi_files_read", "RO files.read"),
                Map.entry("lomi_files_search", "RO files.read"),
                Map.entry("lomi_files_mutate", "OP files.mutate"),
                Map.entry("lomi_editor_open", "OP editor.read"),
                Map.entry("lomi_editor_read", "RO editor.read"),
                Map.entry("lomi_editor_apply_edits", "OP editor.write"),
                Map.entry("lomi_editor_save", "OP editor.write"),
                Map.entry("lomi_artifact_import", "OP artifact.import"),
                Map.entry("lomi_artifact_read", "RO artifact.import"),
                Map.entry("lomi_artifact_export", "OP artifact.export"),
                Map.entry("lomi_settings_read", "RO settings.read"),
                Map.entry("lomi_settings_update", "OP settings.write"),
                Map.entry("lomi_settings_open", "OP settings.open"),
                Map.entry("lomi_git_status", "RO git.read"),
                Map.entry("lomi_git_diff", "RO git.read"),
                Map.entry("lomi_git_history", "RO git.read"),
                Map.entry("lomi_git_commit", "RO git.read"),
                Map.entry("lomi_git_remotes", "RO git.read"),
                Map.entry("lomi_git_open", "OP git.read"),
                Map.entry("lomi_git_mutate", "OP git.write"));

        assertThat(scopes.keySet()).isEqualTo(VALID.keySet());
        for (Map.Entry<String, String> expected : scopes.entrySet()) {
            ToolDefinition tool = catalog.find(expected.getKey()).orElseThrow();
            assertThat(tool.effect() + " " + tool.scope().orElse("-"))
                    .as(tool.name())
                    .isEqualTo(expected.getValue());
            assertThat(tool.answeredBy()).as(tool.name()).isEqualTo(ToolDefinition.AnsweredBy.BROKER);
            assertThat(Scopes.all())
                    .as(tool.name() + " names a scope a grant can hold")
                    .contains(tool.scope().orElseThrow());
        }
    }

    @Test
    void everyReferenceStyleCallIsAcceptedAndAnUnknownFieldRefused() {
        for (Map.Entry<String, String> call : VALID.entrySet()) {
            ObjectNode arguments = arguments(call.getValue());
            assertThat(violation(call.getKey(), arguments)).as(call.getKey()).isEmpty();

            arguments.put("surprise", true);
            assertThat(violation(call.getKey(), arguments))
                    .as(call.getKey())
                    .hasValueSatisfying(problem -> assertThat(problem).startsWith("arguments.surprise: unknown field"));
        }
    }

    @Test
    void everyDurableToolRequiresAValidRetryEpochAndRequestKey() {
        List<ToolDefinition> durable = catalog.all().stream()
                .filter(tool -> tool.effect() == Effect.OP && VALID.containsKey(tool.name()))
                .toList();

        assertThat(durable)
                .extracting(ToolDefinition::name)
                .containsExactlyInAnyOrderElementsOf(VALID.keySet().stream()
                        .filter(name -> !List.of(
                                        "lomi_panel_list",
                                        "lomi_terminal_input",
                                        "lomi_terminal_read",
                                        "lomi_files_list",
                                        "lomi_files_read",
                                        "lomi_files_search",
                                        "lomi_editor_read",
                                        "lomi_artifact_read",
                                        "lomi_settings_read",
                                        "lomi_git_status",
                                        "lomi_git_diff",
                                        "lomi_git_history",
                                        "lomi_git_commit",
                                        "lomi_git_remotes")
                                .contains(name))
                        .toList());
        for (ToolDefinition tool : durable) {
            for (String field : List.of("retryEpoch", "requestKey")) {
                ObjectNode without = arguments(VALID.get(tool.name()));
                without.remove(field);
                assertThat(violation(tool.name(), without))
                        .as(tool.name())
                        .hasValueSatisfying(
                                refusal -> assertThat(refusal).startsWith("arguments." + field + ": is required"));
            }
            assertThat(violation(tool.name(), with(tool.name(), "retryEpoch", "\"" + OP_ID.toUpperCase() + "\"")))
                    .as(tool.name())
                    .isPresent();
            assertThat(violation(tool.name(), with(tool.name(), "requestKey", "\"a key\"")))
                    .as(tool.name())
                    .isPresent();
            assertThat(violation(tool.name(), with(tool.name(), "requestKey", "\"" + "k".repeat(129) + "\"")))
                    .as(tool.name())
                    .isPresent();
        }
        assertThat(catalog.find("lomi_terminal_input")
                        .orElseThrow()
                        .inputSchema()
                        .at("/properties")
                        .has("retryEpoch"))
                .isFalse();
    }

    @Test
    void workspaceUpdateTakesExactlyOneOfRenameSelectOrClose() {
        String base = "{\"workspaceId\":\"w1\"," + REVISION + "," + DURABLE;

        assertThat(violation("lomi_workspace_update", arguments(base + ",\"name\":\"renamed\"}")))
                .isEmpty();
        assertThat(violation("lomi_workspace_update", arguments(base + ",\"action\":\"select\"}")))
                .isEmpty();
        assertThat(violation("lomi_workspace_update", arguments(base + ",\"action\":\"close\"}")))
                .isEmpty();
        assertThat(violation("lomi_workspace_update", arguments(base + "}")))
                .hasValueSatisfying(
                        problem -> assertThat(problem).contains("exactly one of the forms", "name", "action"));
        assertThat(violation("lomi_workspace_update", arguments(base + ",\"name\":\"x\",\"action\":\"select\"}")))
                .hasValueSatisfying(problem -> assertThat(problem).contains("exactly one of the forms"));
        assertThat(violation("lomi_workspace_update", arguments(base + ",\"action\":\"delete\"}")))
                .isPresent();
        assertThat(violation("lomi_workspace_update", arguments(base + ",\"name\":\" \"}")))
                .as("a blank name")
                .isPresent();
    }

    @Test
    void panelMoveTakesExactlyTheFieldsOfOneMovement() {
        assertFieldTakes(
                "lomi_panel_move",
                "movement",
                List.of(
                        "{\"type\":\"reorder_tab\",\"tabId\":\"t1\"}",
                        "{\"type\":\"reorder_tab\",\"tabId\":\"t1\",\"beforeTabId\":\"t0\"}",
                        "{\"type\":\"dock_tab\",\"tabId\":\"t1\",\"targetTabId\":\"t2\",\"side\":\"left\"}",
                        "{\"type\":\"move_pane\",\"panelId\":\"p1\",\"targetPanelId\":\"p2\",\"side\":\"bottom\"}",
                        "{\"type\":\"transfer_tab\",\"tabId\":\"t1\",\"targetWorkspaceId\":\"w2\",\"beforeTabId\":null}"),
                List.of(
                        "{\"type\":\"reorder_tab\"}",
                        "{\"type\":\"dock_tab\",\"tabId\":\"t1\",\"targetTabId\":\"t2\"}",
                        "{\"type\":\"reorder_tab\",\"tabId\":\"t1\",\"targetTabId\":\"t2\",\"side\":\"left\"}",
                        "{\"type\":\"move_pane\",\"panelId\":\"p1\",\"targetPanelId\":\"p2\",\"side\":\"left\",\"tabId\":\"t1\"}",
                        "{\"type\":\"dock_tab\",\"tabId\":\"t1\",\"targetTabId\":\"t2\",\"side\":\"middle\"}",
                        "{\"type\":\"teleport\",\"tabId\":\"t1\"}",
                        "{\"tabId\":\"t1\"}",
                        "{}"));
    }

    @Test
    void terminalInputTakesEitherTextOrAKey() {
        assertFieldTakes(
                "lomi_terminal_input",
                "input",
                List.of(
                        "{\"type\":\"text\",\"text\":\"ls\"}",
                        "{\"type\":\"key\",\"key\":\"ctrl_c\"}",
                        "{\"type\":\"key\",\"key\":\"enter\"}"),
                List.of(
                        "{\"type\":\"text\"}",
                        "{\"type\":\"key\"}",
                        "{\"type\":\"text\",\"key\":\"enter\"}",
                        "{\"type\":\"text\",\"text\":\"ls\",\"key\":\"enter\"}",
                        "{\"type\":\"key\",\"key\":\"f1\"}",
                        "{\"type\":\"text\",\"text\":\"\"}",
                        "{\"type\":\"text\",\"text\":\"a\\u0000b\"}",
                        "{\"text\":\"ls\"}"));
        assertThat(violation("lomi_terminal_input", with("lomi_terminal_input", "inputSequence", "\"0\"")))
                .isPresent();
        assertThat(violation("lomi_terminal_input", with("lomi_terminal_input", "inputSequence", "1")))
                .as("a number, not a string")
                .isPresent();
    }

    @Test
    void terminalReadNeedsAnOperationIdInCommandModeAndOnlyThere() {
        assertThat(violation("lomi_terminal_read", arguments("{" + TERMINAL + "}")))
                .isEmpty();
        assertThat(violation(
                        "lomi_terminal_read",
                        arguments("{" + TERMINAL + ",\"mode\":\"command\",\"operationId\":\"" + OP_ID + "\"}")))
                .isEmpty();
        assertThat(violation("lomi_terminal_read", arguments("{" + TERMINAL + ",\"mode\":\"screen\"}")))
                .isEmpty();
        assertThat(violation("lomi_terminal_read", arguments("{" + TERMINAL + ",\"mode\":\"command\"}")))
                .isPresent();
        assertThat(violation("lomi_terminal_read", arguments("{" + TERMINAL + ",\"operationId\":\"" + OP_ID + "\"}")))
                .isPresent();
        assertThat(violation(
                        "lomi_terminal_read",
                        arguments("{" + TERMINAL + ",\"mode\":\"raw\",\"operationId\":\"" + OP_ID + "\"}")))
                .isPresent();
    }

    @Test
    void idsRevisionsPathsAndSizesAreCheckedBeforeTheBrokerSeesThem() {
        Map<String, List<String>> refused = Map.of(
                "lomi_terminal_run",
                        List.of(
                                "terminalSessionId=\"" + SESSION.toUpperCase() + "\"",
                                "leaseId=\"abc\"",
                                "command=\"ls\\nrm -rf x\"",
                                "command=\"\"",
                                "command=\"" + "x".repeat(16385) + "\"",
                                "panelId=\"a b\""),
                "lomi_workspace_create",
                        List.of("expectedRevision=\"012\"", "expectedRevision=12", "name=\"\"", "name=\"a\\tb\""),
                "lomi_project_open",
                        List.of("projectPath=\"relative/dir\"", "projectPath=\"/" + "d".repeat(4096) + "\""),
                "lomi_terminal_create",
                        List.of(
                                "cwdRelative=\"/etc\"",
                                "cwdRelative=\"a\\\\b\"",
                                "columns=19",
                                "rows=1025",
                                "profileId=\"fish\""),
                "lomi_terminal_read", List.of("maxBytes=65537", "maxBytes=0", "cursor=\"-1\"", "mode=\"pixels\""),
                "lomi_panel_list", List.of("limit=501", "limit=0"),
                "lomi_terminal_interrupt", List.of("operationId=\"" + SESSION + "\""));
        for (Map.Entry<String, List<String>> tool : refused.entrySet()) {
            for (String change : tool.getValue()) {
                String[] field = change.split("=", 2);
                assertThat(violation(tool.getKey(), with(tool.getKey(), field[0], field[1])))
                        .as(tool.getKey() + " " + change)
                        .hasValueSatisfying(problem -> assertThat(problem).startsWith("arguments." + field[0]));
            }
        }
    }

    @Test
    void aCallThatBreaksAUnionIsRefusedByTheHelperAndAValidOneIsForwarded() throws Exception {
        InProcessServer session = new InProcessServer();
        String twoMovements =
                "{\"workspaceId\":\"w1\",\"movement\":{\"type\":\"reorder_tab\",\"tabId\":\"t1\",\"panelId\":\"p1\"},"
                        + REVISION + "," + DURABLE + "}";

        JsonNode refused =
                session.call(toolCall(1, "lomi_panel_move", twoMovements)).get("result");
        JsonNode forwarded = session.call(toolCall(2, "lomi_panel_move", VALID.get("lomi_panel_move")))
                .get("result");

        assertThat(refused.get("isError").asBoolean()).isTrue();
        assertThat(refused.at("/structuredContent/code").asString()).isEqualTo("INVALID_ARGUMENT");
        assertThat(refused.at("/structuredContent/message").asString())
                .contains("lomi_panel_move", "arguments.movement.panelId: unknown field");
        assertThat(forwarded.at("/structuredContent/code").asString())
                .as("no broker: refused only for that")
                .isEqualTo("APP_UNAVAILABLE");
    }

    @Test
    void aLaterPageOfAFileOrABufferNamesTheRevisionOfTheFirst() {
        String file = "{\"workspaceId\":\"w1\",\"relativePath\":\"a.txt\"";
        String disk = ",\"expectedDiskRevision\":\"" + DISK + "\"";
        assertThat(violation("lomi_files_read", arguments(file + "}"))).isEmpty();
        assertThat(violation("lomi_files_read", arguments(file + ",\"startUtf16\":0}")))
                .isEmpty();
        assertThat(violation("lomi_files_read", arguments(file + ",\"startUtf16\":1" + disk + "}")))
                .isEmpty();
        assertThat(violation("lomi_files_read", arguments(file + ",\"startUtf16\":1}")))
                .hasValueSatisfying(problem -> assertThat(problem).contains("expectedDiskRevision: is required"));

        String buffer = ",\"expectedBufferRevision\":\"" + BUFFER + "\"";
        assertThat(violation("lomi_editor_read", arguments("{" + EDITOR + "}"))).isEmpty();
        assertThat(violation("lomi_editor_read", arguments("{" + EDITOR + ",\"startUtf16\":0,\"maxChars\":2}")))
                .isEmpty();
        assertThat(violation("lomi_editor_read", arguments("{" + EDITOR + ",\"startUtf16\":8" + buffer + "}")))
                .isEmpty();
        assertThat(violation(
                        "lomi_editor_read",
                        arguments("{" + EDITOR + ",\"startUtf16\":8,\"documentId\":\"" + DOC + "\"}")))
                .hasValueSatisfying(problem -> assertThat(problem).contains("expectedBufferRevision: is required"));
    }

    @Test
    void fileEditorArtifactAndSettingsFieldsAreCheckedBeforeTheBrokerSeesThem() {
        String upper = "\"" + DISK.toUpperCase() + "\"";
        String edit = "{\"fromUtf16\":0,\"toUtf16\":1,\"insert\":\"x\"}";
        Map<String, List<String>> refused = Map.ofEntries(
                Map.entry(
                        "lomi_files_list",
                        List.of(
                                "relativeDirectory=\"/src\"",
                                "relativeDirectory=\"src\\\\lib\"",
                                "limit=0",
                                "limit=201",
                                "cursor=\"\"")),
                Map.entry(
                        "lomi_files_read",
                        List.of(
                                "maxChars=1",
                                "maxChars=8193",
                                "relativePath=\"/etc/passwd\"",
                                "relativePath=\"a\\\\b\"",
                                "relativePath=\"\"",
                                "relativePath=\"a\\u0000b\"",
                                "relativePath=\"" + "d".repeat(4097) + "\"",
                                "startUtf16=-1",
                                "expectedDiskRevision=" + upper,
                                "expectedDiskRevision=\"" + DISK.substring(1) + "\"")),
                Map.entry(
                        "lomi_files_search",
                        List.of(
                                "limit=0",
                                "limit=257",
                                "relativeDirectory=\"/\"",
                                "query={\"text\":\"\"}",
                                "query={\"text\":\"" + "q".repeat(1025) + "\"}",
                                "query={\"text\":\"x\",\"include\":[\"\"]}",
                                "query={\"text\":\"x\",\"exclude\":[" + "\"*.log\",".repeat(32) + "\"*.tmp\"]}",
                                "query={\"text\":\"x\",\"regex\":1}",
                                "query={\"text\":\"x\",\"glob\":\"*\"}")),
                Map.entry("lomi_files_mutate", List.of("expectedRevision=\"012\"")),
                Map.entry(
                        "lomi_editor_open",
                        List.of("presentation=\"raw\"", "relativePath=\"\\\\\\\\server\\\\share\"")),
                Map.entry(
                        "lomi_editor_read",
                        List.of(
                                "maxChars=1",
                                "maxChars=8193",
                                "documentId=\"doc-0123\"",
                                "documentId=\"" + ART + "\"",
                                "expectedBufferRevision=\"" + DOC + "\"",
                                "expectedBufferRevision=\"" + DOC + ":-1\"",
                                "expectedBufferRevision=\"" + DOC + ":01\"",
                                "panelId=\"a b\"")),
                Map.entry(
                        "lomi_editor_apply_edits",
                        List.of(
                                "edits=[]",
                                "edits=[" + (edit + ",").repeat(64) + edit + "]",
                                "edits=[{\"fromUtf16\":-1,\"toUtf16\":1,\"insert\":\"x\"}]",
                                "edits=[{\"fromUtf16\":0,\"toUtf16\":16777217,\"insert\":\"x\"}]",
                                "edits=[{\"fromUtf16\":0,\"toUtf16\":1,\"insert\":\"a\\r\\nb\"}]",
                                "edits=[{\"fromUtf16\":0,\"toUtf16\":1,\"insert\":\"" + "x".repeat(65537) + "\"}]",
                                "edits=[{\"fromUtf16\":0,\"toUtf16\":1,\"insert\":\"x\",\"text\":\"y\"}]",
                                "expectedDiskRevision=\"sha\"",
                                "expectedBufferRevision=\"" + BUFFER.replace("doc-", "buf-") + "\"")),
                Map.entry(
                        "lomi_editor_save",
                        List.of("expectedDiskRevision=" + upper, "documentId=\"art-0123456789abcdef\"")),
                Map.entry(
                        "lomi_artifact_import",
                        List.of(
                                "kind=\"apk\"",
                                "expectedByteLength=\"-1\"",
                                "expectedByteLength=-1",
                                "expectedSha256=" + upper)),
                Map.entry("lomi_artifact_read", List.of("artifactId=\"art-XYZ\"", "artifactId=\"" + DOC + "\"")),
                Map.entry("lomi_artifact_export", List.of("relativePath=\"/abs\"", "expectedParentRevision=\"12\"")),
                Map.entry("lomi_settings_read", List.of("section=\"plugins\"")),
                Map.entry(
                        "lomi_settings_update",
                        List.of("section=\"themes\"", "patch=[]", "patch={\"type\":\"editor_tab_size\",\"value\":17}")),
                Map.entry("lomi_settings_open", List.of("page=\"nowhere\"")));

        assertThat(refused.keySet()).as("every new tool").hasSize(14);
        for (Map.Entry<String, List<String>> tool : refused.entrySet()) {
            for (String change : tool.getValue()) {
                String[] field = change.split("=", 2);
                assertThat(violation(tool.getKey(), with(tool.getKey(), field[0], field[1])))
                        .as(tool.getKey() + " " + change)
                        .hasValueSatisfying(problem -> assertThat(problem).startsWith("arguments." + field[0]));
            }
        }
        assertThat(violation("lomi_files_list", with("lomi_files_list", "relativeDirectory", "\"\"")))
                .as("\"\" is the root")
                .isEmpty();
        assertThat(violation("lomi_files_list", arguments("{\"workspaceId\":\"w1\"}")))
                .isEmpty();
        assertThat(violation(
                        "lomi_files_search",
                        arguments("{\"workspaceId\":\"w1\",\"query\":{\"text\":\"a.*b\",\"regex\":true}}")))
                .isEmpty();
        assertThat(violation(
                        "lomi_editor_apply_edits",
                        with("lomi_editor_apply_edits", "edits", "[" + (edit + ",").repeat(63) + edit + "]")))
                .as("64 edits")
                .isEmpty();
        assertThat(violation(
                        "lomi_editor_apply_edits",
                        with(
                                "lomi_editor_apply_edits",
                                "edits",
                                "[{\"fromUtf16\":3,\"toUtf16\":3,\"insert\":\"" + "x".repeat(65536) + "\"}]")))
                .isEmpty();
    }

    @Test
    void aBrokenMutationOrPatchIsRefusedByTheHelperAndAValidCallIsForwarded() throws Exception {
        InProcessServer session = new InProcessServer();
        String twoTypes = VALID.get("lomi_files_mutate").replace("\"newName\"", "\"kind\":\"file\",\"newName\"");
        String wrongSection =
                VALID.get("lomi_settings_update").replace("\"value\":2}", "\"value\":2,\"scrollbackBytes\":65536}");

        JsonNode mutation =
                session.call(toolCall(1, "lomi_files_mutate", twoTypes)).get("result");
        JsonNode patch =
                session.call(toolCall(2, "lomi_settings_update", wrongSection)).get("result");
        JsonNode forwarded = session.call(toolCall(3, "lomi_files_mutate", VALID.get("lomi_files_mutate")))
                .get("result");

        assertThat(mutation.at("/structuredContent/code").asString()).isEqualTo("INVALID_ARGUMENT");
        assertThat(mutation.at("/structuredContent/message").asString())
                .contains("lomi_files_mutate", "arguments.operation.kind: unknown field");
        assertThat(patch.at("/structuredContent/code").asString()).isEqualTo("INVALID_ARGUMENT");
        assertThat(patch.at("/structuredContent/message").asString())
                .contains("arguments.patch.scrollbackBytes: unknown field");
        assertThat(forwarded.at("/structuredContent/code").asString())
                .as("no broker: refused only for that")
                .isEqualTo("APP_UNAVAILABLE");
    }

    private Optional<String> conformance(String tool, JsonNode envelope) {
        return SchemaValidator.firstViolation(catalog.find(tool).orElseThrow().outputSchema(), envelope, "result");
    }

    /** The helper's check of a call's arguments: the published input schema, then the tool's constraint. */
    private Optional<String> violation(String tool, JsonNode arguments) {
        return ToolCalls.violation(catalog.find(tool).orElseThrow(), arguments);
    }

    /** The valid call of {@code tool} with one field replaced by a JSON value. */
    private static ObjectNode with(String tool, String field, String json) {
        ObjectNode arguments = arguments(VALID.get(tool));
        arguments.set(field, SchemaValidatorTests.json(json));
        return arguments;
    }

    private static ObjectNode arguments(String json) {
        return (ObjectNode) SchemaValidatorTests.json(json);
    }

    private static String toolCall(int id, String tool, String arguments) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + arguments + "}}";
    }

    /** A {@code lomi_settings_update} call of {@code section} with {@code patch} based on {@code revision}. */
    private static String settings(String section, String patch, String revision) {
        return "{\"workspaceId\":\"w1\",\"section\":\"" + section + "\",\"patch\":" + patch
                + ",\"expectedSettingsRevision\":\"" + revision + "\"," + REVISION + "," + DURABLE + "}";
    }

    /** A succeeded operation of {@code tool} with its typed result. */
    private static String settled(String tool, String result) {
        return "{\"kind\":\"operation\",\"operationId\":\"" + OP_ID + "\",\"tool\":\"" + tool
                + "\",\"state\":\"succeeded\"," + "\"effectState\":\"complete\",\"workspaceId\":\"w1\",\"result\":"
                + result + "}";
    }

    /** Each of {@code accepted} as {@code field} of {@code tool} conforms; each of {@code refused} is refused at that field. */
    private void assertFieldTakes(String tool, String field, List<String> accepted, List<String> refused) {
        for (String value : accepted) {
            assertThat(violation(tool, with(tool, field, value))).as(value).isEmpty();
        }
        for (String value : refused) {
            assertThat(violation(tool, with(tool, field, value)))
                    .as(value)
                    .hasValueSatisfying(problem -> assertThat(problem).startsWith("arguments." + field));
        }
    }
}
