package dev.lomicontrol.broker;

import dev.lomicontrol.artifacts.ArtifactStore;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.decisions.DecisionBoard;
import dev.lomicontrol.episodes.Episodes;
import dev.lomicontrol.ipc.Envelope;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.pairing.Pairings;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.editor.Documents;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.settings.Settings;
import dev.lomicontrol.terminal.Terminals;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import dev.lomicontrol.tools.Encoder;
import dev.lomicontrol.tools.ToolCatalog;
import dev.lomicontrol.tools.ToolSpec;
import java.util.function.BooleanSupplier;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;

/**
 * The broker's side of tool calls from an authenticated session. Every call first checks that the
 * session still has authority (CONTROL_REVOKED otherwise) and holds the tool's scope (SCOPE_DENIED),
 * counts as traffic that keeps the session's episode alive, validates its arguments natively
 * (unknown fields and out-of-range values are INVALID_ARGUMENT) and answers a Control API envelope
 * whose data names its {@code kind}. Workspaces outside the grant and other sessions' receipts are
 * invisible (TARGET_NOT_FOUND, the same as an unknown id).
 */
@Component
public class BrokerCalls implements AutoCloseable {

    /** The grant scope each broker tool needs (SPEC §9; workspace.read is part of every grant). */
    static final Map<String, String> SCOPES = Map.ofEntries(
            Map.entry("lomi_workspace_list", "workspace.read"),
            Map.entry("lomi_connect", "workspace.read"),
            Map.entry("lomi_operation_get", "workspace.read"),
            Map.entry("lomi_operation_cancel", "workspace.read"),
            Map.entry("lomi_events_read", "workspace.read"),
            Map.entry("lomi_session_attach", "workspace.read"),
            Map.entry("lomi_session_detach", "workspace.read"),
            Map.entry("lomi_episodes", "workspace.read"),
            Map.entry("lomi_panel_list", "workspace.read"),
            Map.entry("lomi_workspace_create", "workspace.write"),
            Map.entry("lomi_workspace_update", "workspace.write"),
            Map.entry("lomi_project_open", "project.open"),
            Map.entry("lomi_project_close", "project.close"),
            Map.entry("lomi_panel_focus", "panel.focus"),
            Map.entry("lomi_panel_close", "panel.close"),
            Map.entry("lomi_panel_move", "panel.move"),
            Map.entry("lomi_panel_control", "terminal.execute"),
            Map.entry("lomi_terminal_create", "terminal.execute"),
            Map.entry("lomi_terminal_run", "terminal.execute"),
            Map.entry("lomi_terminal_input", "terminal.execute"),
            Map.entry("lomi_terminal_interrupt", "terminal.execute"),
            Map.entry("lomi_terminal_read", "terminal.read"),
            Map.entry("lomi_files_list", "files.read"),
            Map.entry("lomi_files_read", "files.read"),
            Map.entry("lomi_files_search", "files.read"),
            Map.entry("lomi_files_mutate", "files.mutate"),
            Map.entry("lomi_editor_open", "editor.read"),
            Map.entry("lomi_editor_read", "editor.read"),
            Map.entry("lomi_editor_apply_edits", "editor.write"),
            Map.entry("lomi_editor_save", "editor.write"),
            Map.entry("lomi_artifact_import", "artifact.import"),
            Map.entry("lomi_artifact_read", "artifact.import"),
            Map.entry("lomi_artifact_export", "artifact.export"),
            Map.entry("lomi_settings_read", "settings.read"),
            Map.entry("lomi_settings_update", "settings.write"),
            Map.entry("lomi_settings_open", "settings.open"),
            Map.entry("lomi_git_status", "git.read"),
            Map.entry("lomi_git_diff", "git.read"),
            Map.entry("lomi_git_history", "git.read"),
            Map.entry("lomi_git_commit", "git.read"),
            Map.entry("lomi_git_remotes", "git.read"),
            Map.entry("lomi_git_open", "git.read"),
            Map.entry("lomi_git_mutate", "git.write"));

    private final Episodes episodes;
    private final WorkspaceCalls workspaces;
    private final OperationCalls operations;
    private final EpisodeCalls episodeCalls;
    private final OperationRunner runner;
    private final LayoutCalls layout;
    private final TerminalCalls terminals;
    private final FileCalls files;
    private final EditorCalls editors;
    private final ArtifactCalls artifacts;
    private final SettingsCalls settingsCalls;
    private final GitCalls git;
    private final ToolHandlers handlers = new ToolHandlers();
    private final Map<String, LegacyCall> legacy = new java.util.HashMap<>();

    /** A tool not yet bound through its declaration: the adapter reads the raw arguments itself. */
    @FunctionalInterface
    interface LegacyCall {
        JsonNode call(Session session, JsonNode arguments);
    }

    @Autowired
    public BrokerCalls(Projects projects, Ledger ledger, BrokerRuntime runtime, Episodes episodes, NativeStop nativeStop, Clock clock,
            Terminals terminals, DecisionBoard decisions, Pairings pairings, Settings settings, ArtifactStore artifactStore) {
        this(projects, ledger, runtime, episodes, nativeStop, clock, terminals, decisions, pairings::yolo, OperationRunner.DECISION_TIMEOUT, settings,
                artifactStore);
    }

    BrokerCalls(Projects projects, Ledger ledger, BrokerRuntime runtime, Episodes episodes, NativeStop nativeStop, Clock clock,
            Terminals terminals, DecisionBoard decisions, BooleanSupplier yolo, java.time.Duration decisionTimeout, Settings settings,
            ArtifactStore artifactStore) {
        this.episodes = episodes;
        Layout layoutStore = new Layout(ledger, clock, new SecureRandom());
        this.workspaces = new WorkspaceCalls(projects, ledger, runtime, clock);
        this.runner = new OperationRunner(ledger, decisions, yolo, clock, decisionTimeout);
        PanelTargets panels = new PanelTargets(workspaces, layoutStore);
        this.terminals = new TerminalCalls(terminals, layoutStore, ledger, panels, runner, settings);
        ProjectFolders folders = new ProjectFolders();
        this.files = new FileCalls(workspaces, folders, runner, layoutStore, runtime.dataDirectory().resolve("trash-recovery"));
        this.editors = new EditorCalls(new Documents(new SecureRandom(), EditorCalls.MAX_DOCUMENTS), settings, panels, files, runner, layoutStore);
        this.layout = new LayoutCalls(projects, layoutStore, workspaces, panels, runner, new PanelsByKind(this.terminals, editors), runtime.instanceId());
        NativeStop stop = operation -> this.terminals.requestStop(operation) || nativeStop.requestStop(operation);
        this.artifacts = new ArtifactCalls(artifactStore, files, runner, layoutStore);
        this.settingsCalls = new SettingsCalls(settings, workspaces, runner, layoutStore, clock, decisions);
        this.git = new GitCalls(files, runner, layoutStore);
        this.operations = new OperationCalls(ledger, workspaces, stop, runner::withdrawn);
        this.episodeCalls = new EpisodeCalls(episodes, clock);
        this.workspaces.register(handlers);
        this.operations.register(handlers);
        this.episodeCalls.register(handlers);
        this.layout.register(handlers);
        this.terminals.register(handlers);
        this.files.register(handlers);
        this.editors.register(handlers);
        this.artifacts.register(handlers);
        this.settingsCalls.register(handlers);
        this.git.register(handlers);
        UnavailableTools.register(handlers);
        handlers.requireCovers(ToolCatalog.standard());
        this.workspaces.registerLegacy(legacy);
        this.operations.registerLegacy(legacy);
        this.episodeCalls.registerLegacy(legacy);
        this.layout.registerLegacy(legacy);
        this.terminals.registerLegacy(legacy);
        this.files.registerLegacy(legacy);
        this.editors.registerLegacy(legacy);
        this.artifacts.registerLegacy(legacy);
        this.settingsCalls.registerLegacy(legacy);
        this.git.registerLegacy(legacy);
    }

    /** Runs one call; never throws for expected refusals (they become error envelopes). */
    public JsonNode call(Session session, String tool, JsonNode arguments) {
        try {
            session.requireAlive();
            episodes.touch(session.id());
            String name = tool == null ? "" : tool;
            if (handlers.handles(name)) {
                ToolSpec<?> spec = handlers.spec(name).orElseThrow();
                if (!session.grant().allows(spec.scope())) {
                    throw new LomiException(ErrorCode.SCOPE_DENIED, name + " needs the " + spec.scope() + " scope, which this session was not granted");
                }
                return Envelope.ok(Encoder.encode(handlers.call(session, name, arguments)));
            }
            String scope = SCOPES.get(name);
            if (scope != null && !session.grant().allows(scope)) {
                throw new LomiException(ErrorCode.SCOPE_DENIED, name + " needs the " + scope + " scope, which this session was not granted");
            }
            return Envelope.ok(dispatch(session, name, arguments));
        } catch (LomiException e) {
            return Envelope.error(e.code(), e.getMessage());
        }
    }

    /** The session's connection is gone: its retry epoch is forgotten, its leases and pending decisions end, its episode detaches. */
    public void sessionEnded(Session session) {
        workspaces.sessionEnded(session);
        runner.sessionEnded(session.id());
        terminals.sessionEnded(session);
        episodes.sessionEnded(session.id());
    }

    @Override
    public void close() {
        runner.close();
        terminals.close();
    }

    private JsonNode dispatch(Session session, String tool, JsonNode arguments) {
        LegacyCall call = legacy.get(tool);
        if (call == null) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "unknown tool " + tool);
        }
        if (tool.equals("lomi_workspace_update")) {
            requireCloseScope(session, arguments);
        }
        return call.call(session, arguments);
    }

    /** {@code lomi_workspace_update} with {@code action:"close"} additionally needs workspace.close. */
    private static void requireCloseScope(Session session, JsonNode arguments) {
        if (arguments != null && arguments.isObject() && "close".equals(arguments.path("action").asString("")) && !session.grant().allows("workspace.close")) {
            throw new LomiException(ErrorCode.SCOPE_DENIED, "closing a workspace needs the workspace.close scope");
        }
    }
}
