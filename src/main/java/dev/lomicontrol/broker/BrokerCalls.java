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
    private final Ledger ledger;

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
        this.ledger = ledger;
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
    }

    /** Runs one call; never throws for expected refusals (they become error envelopes). */
    public JsonNode call(Session session, String tool, JsonNode arguments) {
        try {
            session.requireAlive();
            episodes.touch(session.id());
            String name = tool == null ? "" : tool;
            String scope = SCOPES.get(name);
            if (scope != null && !session.grant().allows(scope)) {
                throw new LomiException(ErrorCode.SCOPE_DENIED, name + " needs the " + scope + " scope, which this session was not granted");
            }
            return withLedgerWarning(Envelope.ok(dispatch(session, name, arguments)));
        } catch (LomiException e) {
            return withLedgerWarning(Envelope.error(e.code(), e.getMessage()));
        }
    }

    /** From 80 % of a ledger cap every answer carries {@code ledgerWarning}; the helper's lomi_status repeats the last one seen. */
    private JsonNode withLedgerWarning(tools.jackson.databind.node.ObjectNode envelope) {
        ledger.headroom().agentWarning().ifPresent(warning -> envelope.put("ledgerWarning", warning));
        return envelope;
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
        switch (tool) {
            case "lomi_workspace_list":
                return workspaces.list(session, arguments);
            case "lomi_connect":
                return workspaces.connect(session, arguments);
            case "lomi_operation_get":
                return operations.get(session, arguments);
            case "lomi_operation_cancel":
                return operations.cancel(session, arguments);
            case "lomi_events_read":
                return operations.events(session, arguments);
            case "lomi_session_attach":
                return episodeCalls.attach(session, arguments);
            case "lomi_session_detach":
                return episodeCalls.detach(session, arguments);
            case "lomi_episodes":
                return episodeCalls.list(session, arguments);
            case "lomi_panel_list":
                return layout.panelList(session, arguments);
            case "lomi_workspace_create":
                return layout.workspaceCreate(session, arguments);
            case "lomi_workspace_update":
                requireCloseScope(session, arguments);
                return layout.workspaceUpdate(session, arguments);
            case "lomi_project_open":
                return layout.projectOpen(session, arguments);
            case "lomi_project_close":
                return layout.projectClose(session, arguments);
            case "lomi_panel_focus":
                return layout.panelFocus(session, arguments);
            case "lomi_panel_close":
                return layout.panelClose(session, arguments);
            case "lomi_panel_move":
                return layout.panelMove(session, arguments);
            case "lomi_panel_control":
                return terminals.control(session, arguments);
            case "lomi_terminal_create":
                return terminals.create(session, arguments);
            case "lomi_terminal_run":
                return terminals.run(session, arguments);
            case "lomi_terminal_input":
                return terminals.input(session, arguments);
            case "lomi_terminal_interrupt":
                return terminals.interrupt(session, arguments);
            case "lomi_terminal_read":
                return terminals.read(session, arguments);
            case "lomi_files_list":
                return files.list(session, arguments);
            case "lomi_files_read":
                return files.read(session, arguments);
            case "lomi_files_search":
                return files.search(session, arguments);
            case "lomi_files_mutate":
                return files.mutate(session, arguments);
            case "lomi_editor_open":
                return editors.open(session, arguments);
            case "lomi_editor_read":
                return editors.read(session, arguments);
            case "lomi_editor_apply_edits":
                return editors.applyEdits(session, arguments);
            case "lomi_editor_save":
                return editors.save(session, arguments);
            case "lomi_artifact_import":
                return artifacts.importFile(session, arguments);
            case "lomi_artifact_read":
                return artifacts.read(session, arguments);
            case "lomi_artifact_export":
                return artifacts.export(session, arguments);
            case "lomi_settings_read":
                return settingsCalls.read(session, arguments);
            case "lomi_settings_update":
                return settingsCalls.update(session, arguments);
            case "lomi_settings_open":
                return settingsCalls.open(session, arguments);
            case "lomi_git_status":
                return git.status(session, arguments);
            case "lomi_git_diff":
                return git.diff(session, arguments);
            case "lomi_git_history":
                return git.history(session, arguments);
            case "lomi_git_commit":
                return git.commit(session, arguments);
            case "lomi_git_remotes":
                return git.remotes(session, arguments);
            case "lomi_git_open":
                return git.open(session, arguments);
            case "lomi_git_mutate":
                return git.mutate(session, arguments);
            default:
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "unknown tool " + tool);
        }
    }

    /** {@code lomi_workspace_update} with {@code action:"close"} additionally needs workspace.close. */
    private static void requireCloseScope(Session session, JsonNode arguments) {
        if (arguments != null && arguments.isObject() && "close".equals(arguments.path("action").asString("")) && !session.grant().allows("workspace.close")) {
            throw new LomiException(ErrorCode.SCOPE_DENIED, "closing a workspace needs the workspace.close scope");
        }
    }
}
