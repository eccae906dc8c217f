package dev.lomicontrol.console;

import dev.lomicontrol.tools.Doc;
import dev.lomicontrol.tools.Encoder;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The documents the console's {@code --json} options print: one JSON object per command, with
 * stable field names (these records; docs/OPERATIONS.md "Scripting" lists them and their schemas
 * are derived from these records by {@link dev.lomicontrol.tools.RecordSchemas}). Times are ISO-8601
 * instants; absent values are {@code null}, never missing.
 */
final class ConsoleJson {

    private ConsoleJson() {}

    /** The document as one line of JSON. */
    static String write(Record document) {
        return Encoder.encode(document).toString();
    }

    record Status(
            String instance,
            String startedAt,
            long uptimeSeconds,
            String dataDirectory,
            Optional<String> controlSocket,
            Optional<String> adminSocket,
            Optional<String> discoveryFile,
            int sessions,

            @Doc("agent connections held now (pairing, handshaking or connected)")
            int connections,

            @Doc("lomi.control.max-connections") int maxConnections,

            @Doc("connections answered broker_full since the start")
            long refusedConnections,

            int pendingPairings,
            boolean yolo,
            long receipts,
            int receiptCap,
            long epochs,
            int epochCap,
            String integrity,
            boolean writerHealthy,
            List<String> warnings) {}

    record Pairings(boolean yolo, List<String> warnings, List<PairingRequest> requests) {}

    record PairingRequest(
            String id,
            String client,

            @Doc("SHA-256 of the client's session certificate")
            String certificateSha256,

            long pid,
            String expiresAt,
            long expiresInSeconds) {}

    record Sessions(
            @Doc("agent connections held now (sessions and helpers still pairing or handshaking)")
            int connections,

            @Doc("lomi.control.max-connections") int maxConnections,
            List<Session> sessions) {}

    record Session(
            String id,
            String client,
            long pid,
            List<String> projects,
            List<String> scopes,

            @Doc("the adb serials or AVD names the grant names; [\"*\"] every device (YOLO)")
            List<String> androidDevices,

            @Doc("the app packages android.launch and android.logs may name; [\"*\"] every package")
            List<String> androidPackages,

            String connectedAt) {}

    record BrowserOrigins(List<BrowserOrigin> origins) {}

    record BrowserOrigin(
            String projectId,
            @Doc("scheme://host[:port]") String origin,
            String approvedAt,
            @Doc("the decision that approved it") String approvedBy) {}

    record Decisions(List<String> notices, List<Decision> decisions) {}

    record Decision(
            String operationId,
            String tool,
            String summary,
            String postedAt,
            @Doc("the exact plan the admin decides on") JsonNode plan) {}

    record Ledger(
            String database,
            String instance,
            long receipts,
            int receiptCap,
            long epochs,
            int epochCap,
            List<StateCount> byState,
            long expiredReceipts,
            long expiredEpochs,
            long unreconciledOutcomeUnknown,
            Optional<String> oldestOperation,
            Optional<LastExport> lastExport,
            long historyHead,
            String integrity,
            boolean writerHealthy,
            long commits,
            long purgeableReceipts,
            long purgeableEpochs,
            dev.lomicontrol.ledger.CapLevel receiptLevel,
            dev.lomicontrol.ledger.CapLevel epochLevel) {}

    record Clients(
            @Doc("false until the broker has a registration key: entries cannot be compared yet")
            boolean comparable,

            List<Client> entries) {}

    record Client(
            String client,
            String scope,
            Optional<String> file,

            @Doc("current, stale, hand-edited, present, absent, no-file, unreadable, n/a or ui")
            String state,

            List<String> differences,
            String detail,

            @Doc(
                    "the tools the entry's helper serves, read from its args; null without an entry in the shape client register writes")
            Optional<Selection> selection) {}

    record ClientShow(
            String client,
            String scope,

            @Doc(
                    "the client's config file for this scope; null for a client configured in its UI or without this scope")
            Optional<String> file,

            @Doc("the state of the entry that file holds now, as client list words it; null without a file to read")
            Optional<String> state,

            @Doc("the tools the entry that file holds now serves; null without an entry of ours")
            Optional<Selection> written,

            String command,
            List<String> args,

            @Doc("the tools the entry client register writes serves")
            Selection selection,

            @Doc("why: this host's default (naming what it left out) or chosen with --toolsets")
            String why) {}

    record Selection(
            @Doc("the served toolsets, core always among them, in catalog order")
            List<String> toolsets,

            @Doc("true: only the tools that change nothing (--read-only)")
            boolean readOnly,

            @Doc("how many tools the helper lists") int tools,

            @Doc(
                    "what those tools cost a model in every request: name, description and input schema as compact JSON, in bytes")
            int modelFacingBytes) {}

    record StateCount(String state, long count) {}

    record ChatConnections(List<ChatConnection> connections) {}

    record ChatConnection(
            String id,
            String kind,
            String baseUrl,
            String model,
            int maxOutputTokens,

            @Doc("where the key is read from: env:NAME, file:PATH or none (never the key)")
            String key) {}

    record Chats(List<Chat> conversations) {}

    record Chat(
            String id,
            String projectId,
            String title,
            String conversationRevision,
            String draftRevision,
            int messages,
            boolean tools,
            @Doc("client:LABEL or session:ID") List<String> sharedWith,
            String updatedAt) {}

    @Doc("terminal new --json")
    record TerminalCreated(
            String panelId,
            String tabId,
            String workspaceId,
            String projectId,
            String terminalSessionId,
            String title,

            @Doc("bash or zsh (the terminal settings' defaultProfile)")
            String profile,

            @Doc("false only while the admin has the terminal sandbox off")
            boolean sandboxed,

            @Doc("the layout's domainRevision after the panel was added")
            String domainRevision) {}

    @Doc("browser screenshot --json")
    record Screenshot(
            String panelId,

            @Doc("the live browser generation the panel showed")
            String generation,

            @Doc("the page's URL when it was taken") String url,
            @Doc("the absolute path of the PNG written") String file,
            int width,
            int height,
            long bytes) {}

    record TerminalScreen(
            String panelId,
            String terminalSessionId,

            @Doc("grows whenever the shell writes; terminal screen --since VERSION waits for a larger one")
            long version,

            boolean alive,
            @Doc("the shell's exit status once it exited") Optional<Integer> exitCode,

            @Doc("who holds the input (a console connection of terminal attach), else null")
            Optional<String> heldBy,

            int columns,
            int rows,
            @Doc("zero-based") int cursorRow,
            @Doc("zero-based") int cursorColumn,
            boolean cursorVisible,

            @Doc("a full-screen program switched to the alternate buffer")
            boolean alternate,

            @Doc("the visible rows, trailing blanks trimmed; control characters shown escaped (\\u001b)")
            List<String> lines) {}

    record LastExport(String path, String sha256, long historyHead, String at) {}

    record WorkspaceList(List<WorkspaceRow> workspaces) {}

    record WorkspaceRow(
            String workspaceId,
            String projectId,
            String projectName,
            String name,
            int tabs,
            int panels,
            Optional<String> activePanelId,

            @Doc("the domain revision the workspace's layout was read at")
            long revision) {}

    record PanelList(List<PanelRow> panels) {}

    record PanelRow(
            String workspaceId,
            String panelId,

            @Doc("scratch, terminal, editor, git, browser or chat")
            String kind,

            String title,

            @Doc("the session that created the panel; null when no agent did")
            Optional<String> ownerSession,

            @Doc("that session's client label while it is connected; null otherwise")
            Optional<String> ownerClient,

            @Doc("not_started, starting, running, ready, unobserved or exited")
            String state,

            Optional<String> terminalSessionId,

            @Doc(
                    "who holds the terminal's input: the admin's console connection while attached, else the session id of the lease holder; null when nobody does")
            Optional<String> inputHolder,

            @Doc("the terminal's current or last command; null before the first")
            Optional<String> command,

            @Doc("that command's exit code; null while it runs or when the shell did not report one")
            Optional<Integer> exitCode) {}

    record EpisodeList(List<EpisodeRow> episodes) {}

    record EpisodeRow(
            String episodeId,

            @Doc("the client's own conversation or thread id")
            String externalId,

            @Doc("attached, detached or closed") String state,

            @Doc("the session holding it; null unless attached")
            Optional<String> session,

            @Doc("that session's client label; null unless attached")
            Optional<String> client,

            String openedAt,
            String lastActivity,
            int attachments,
            Optional<String> detachedSince,
            Optional<String> closedAt,

            @Doc("closed, expired (interrupted) or shutdown; null while open")
            Optional<String> closeReason) {}

    private static final tools.jackson.databind.json.JsonMapper JSON =
            tools.jackson.databind.json.JsonMapper.builder().build();

    /** A decision's plan (verbatim JSON text) as the JSON it is; text that is not JSON stays a string. */
    static JsonNode plan(String text) {
        try {
            return JSON.readTree(text);
        } catch (tools.jackson.core.JacksonException e) {
            return JSON.getNodeFactory().textNode(text);
        }
    }

    static Optional<String> time(Optional<java.time.Instant> instant) {
        return instant.map(java.time.Instant::toString);
    }
}
