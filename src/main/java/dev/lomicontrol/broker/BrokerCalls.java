package dev.lomicontrol.broker;

import dev.lomicontrol.artifacts.ArtifactStore;
import dev.lomicontrol.artifacts.tools.ArtifactCalls;
import dev.lomicontrol.browser.tools.BrowserCalls;
import dev.lomicontrol.chat.Chat;
import dev.lomicontrol.chat.tools.ChatCalls;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.decisions.DecisionBoard;
import dev.lomicontrol.editor.Documents;
import dev.lomicontrol.editor.tools.EditorCalls;
import dev.lomicontrol.episodes.Episodes;
import dev.lomicontrol.episodes.tools.EpisodeCalls;
import dev.lomicontrol.files.tools.FileCalls;
import dev.lomicontrol.files.tools.ProjectFolders;
import dev.lomicontrol.git.tools.GitCalls;
import dev.lomicontrol.ipc.Envelope;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.operations.LivePanels;
import dev.lomicontrol.operations.NativeStop;
import dev.lomicontrol.operations.OperationCalls;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.OperationWaits;
import dev.lomicontrol.operations.PanelTargets;
import dev.lomicontrol.operations.PanelsByKind;
import dev.lomicontrol.operations.ToolHandlers;
import dev.lomicontrol.operations.UnavailableTools;
import dev.lomicontrol.operations.Waits;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Pairings;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.PanelKind;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.projects.tools.LayoutCalls;
import dev.lomicontrol.projects.tools.WorkspaceCalls;
import dev.lomicontrol.settings.Settings;
import dev.lomicontrol.settings.tools.SettingsCalls;
import dev.lomicontrol.terminal.Terminals;
import dev.lomicontrol.terminal.tools.TerminalCalls;
import dev.lomicontrol.tools.Binder;
import dev.lomicontrol.tools.Encoder;
import dev.lomicontrol.tools.ToolCatalog;
import dev.lomicontrol.tools.ToolSpec;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.EnumMap;
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

    private final Episodes episodes;
    private final WorkspaceAccess access;
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
    private final BrowserCalls browserCalls;
    private final dev.lomicontrol.browser.Browsers browsers;
    private final ChatCalls chatCalls;
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(BrokerCalls.class);
    private static final tools.jackson.databind.json.JsonMapper SIZE =
            tools.jackson.databind.json.JsonMapper.builder().build();
    private final ToolHandlers handlers;
    private final Ledger ledger;
    private final Waits waits;

    @Autowired
    public BrokerCalls(
            Projects projects,
            Ledger ledger,
            BrokerRuntime runtime,
            Episodes episodes,
            NativeStop nativeStop,
            Clock clock,
            Terminals terminals,
            DecisionBoard decisions,
            Pairings pairings,
            Settings settings,
            ArtifactStore artifactStore,
            TerminalRunProperties run,
            dev.lomicontrol.browser.Browsers browsers,
            dev.lomicontrol.projects.BrowserOrigins origins,
            Chat chat) {
        this(
                projects,
                ledger,
                runtime,
                episodes,
                nativeStop,
                clock,
                terminals,
                decisions,
                pairings::yolo,
                OperationRunner.DECISION_TIMEOUT,
                settings,
                artifactStore,
                run.outputTailBytes(),
                browsers,
                origins,
                chat);
    }

    BrokerCalls(
            Projects projects,
            Ledger ledger,
            BrokerRuntime runtime,
            Episodes episodes,
            NativeStop nativeStop,
            Clock clock,
            Terminals terminals,
            DecisionBoard decisions,
            BooleanSupplier yolo,
            java.time.Duration decisionTimeout,
            Settings settings,
            ArtifactStore artifactStore,
            dev.lomicontrol.browser.Browsers browsers,
            dev.lomicontrol.projects.BrowserOrigins origins,
            Chat chat) {
        this(
                projects,
                ledger,
                runtime,
                episodes,
                nativeStop,
                clock,
                terminals,
                decisions,
                yolo,
                decisionTimeout,
                settings,
                artifactStore,
                TerminalRunProperties.DEFAULT_OUTPUT_TAIL_BYTES,
                browsers,
                origins,
                chat);
    }

    BrokerCalls(
            Projects projects,
            Ledger ledger,
            BrokerRuntime runtime,
            Episodes episodes,
            NativeStop nativeStop,
            Clock clock,
            Terminals terminals,
            DecisionBoard decisions,
            BooleanSupplier yolo,
            java.time.Duration decisionTimeout,
            Settings settings,
            ArtifactStore artifactStore,
            int runOutputTailBytes,
            dev.lomicontrol.browser.Browsers browsers,
            dev.lomicontrol.projects.BrowserOrigins origins,
            Chat chat) {
        this.episodes = episodes;
        this.browsers = browsers;
        this.ledger = ledger;
        this.waits = new Waits(ledger);
        OperationWaits operationWaits = new OperationWaits(ledger, waits);
        this.handlers = new ToolHandlers(operationWaits);
        Layout layoutStore = new Layout(projects, ledger, clock, new SecureRandom());
        this.access = new WorkspaceAccess(projects, ledger, runtime.instanceId(), clock);
        this.runner = new OperationRunner(ledger, decisions, yolo, clock, decisionTimeout);
        PanelTargets panels = new PanelTargets(access, layoutStore);
        this.terminals = new TerminalCalls(
                terminals, layoutStore, ledger, panels, runner, settings, waits, operationWaits, runOutputTailBytes);
        ProjectFolders folders = new ProjectFolders();
        this.files = new FileCalls(
                access, folders, runner, layoutStore, runtime.dataDirectory().resolve("trash-recovery"));
        this.editors = new EditorCalls(
                new Documents(new SecureRandom(), EditorCalls.MAX_DOCUMENTS),
                settings,
                panels,
                files,
                runner,
                layoutStore);
        this.browserCalls = new BrowserCalls(browsers, origins, artifactStore, layoutStore, panels, runner);
        this.git = new GitCalls(files, runner, layoutStore);
        Map<PanelKind, LivePanels> live = new EnumMap<>(
                Map.of(PanelKind.TERMINAL, this.terminals, PanelKind.EDITOR, editors, PanelKind.BROWSER, browserCalls));
        live.putAll(git.panels());
        this.layout = new LayoutCalls(
                projects, layoutStore, access, panels, runner, new PanelsByKind(live), runtime.instanceId());
        this.chatCalls =
                new ChatCalls(chat.conversations(), chat.connections(), chat.replies(), access, runner, layoutStore);
        NativeStop stop = operation -> this.terminals.requestStop(operation)
                || chatCalls.requestStop(operation)
                || nativeStop.requestStop(operation);
        this.artifacts = new ArtifactCalls(artifactStore, files, runner, layoutStore);
        this.settingsCalls = new SettingsCalls(settings, access, runner, layoutStore, clock, decisions);
        this.operations = new OperationCalls(ledger, access, stop, runner::withdrawn, waits, operationWaits);
        this.episodeCalls = new EpisodeCalls(episodes, clock);
        new WorkspaceCalls(access).register(handlers);
        this.operations.register(handlers);
        this.episodeCalls.register(handlers);
        this.layout.register(handlers);
        this.terminals.register(handlers);
        this.files.register(handlers);
        this.editors.register(handlers);
        this.artifacts.register(handlers);
        this.settingsCalls.register(handlers);
        this.git.register(handlers);
        this.browserCalls.register(handlers);
        this.chatCalls.register(handlers);
        UnavailableTools.register(handlers);
        handlers.requireCovers(ToolCatalog.standard());
    }

    /**
     * Runs one call; never throws for expected refusals (they become error envelopes). An unknown
     * tool is INVALID_ARGUMENT (the helper never forwards one); the scope is checked before the
     * arguments are bound. An unexpected failure (a bug, not a refusal) is OUTCOME_UNKNOWN, logged
     * with its stack: the session and its connection go on (they used to end, and with them the
     * session's retry epoch and leases), and a state-changing call can be sent again with its
     * requestKey, which never runs it twice.
     */
    public JsonNode call(Session session, String tool, JsonNode arguments) {
        try {
            session.requireAlive();
            episodes.touch(session.id());
            String name = tool == null ? "" : tool;
            ToolSpec<?> spec = handlers.spec(name)
                    .orElseThrow(() -> new LomiException(
                            ErrorCode.INVALID_ARGUMENT,
                            "unknown tool '" + name + "'; call one of the tools the helper lists (tools/list)"));
            if (!session.grant().allows(spec.scope())) {
                throw new LomiException(
                        ErrorCode.SCOPE_DENIED, dev.lomicontrol.core.ErrorMessages.missingScope(name, spec.scope()));
            }
            Binder.requireArgumentSize(name, arguments == null ? 0 : SIZE.writeValueAsBytes(arguments).length);
            return withLedgerWarning(Envelope.ok(Encoder.encode(handlers.call(session, name, arguments))));
        } catch (LomiException e) {
            return withLedgerWarning(Envelope.error(e.code(), e.getMessage()));
        } catch (RuntimeException e) {
            log.error("session {}: {} failed unexpectedly; answered OUTCOME_UNKNOWN", session.id(), tool, e);
            return withLedgerWarning(Envelope.error(
                    ErrorCode.OUTCOME_UNKNOWN,
                    "the broker failed unexpectedly while handling " + tool + " ("
                            + e.getClass().getSimpleName()
                            + "); its outcome is unknown. A call that changes state: send it again with the same"
                            + " retryEpoch and requestKey, which answers the operation it made, if any, and never"
                            + " runs it twice"));
        }
    }

    /** From 80 % of a ledger cap every answer carries {@code ledgerWarning}; the helper's lomi_status repeats the last one seen. */
    private JsonNode withLedgerWarning(tools.jackson.databind.node.ObjectNode envelope) {
        ledger.headroom().agentWarning().ifPresent(warning -> envelope.put("ledgerWarning", warning));
        return envelope;
    }

    /** The session's connection is gone: its retry epoch is forgotten, its leases and pending decisions end, its episode detaches. */
    public void sessionEnded(Session session) {
        access.sessionEnded(session);
        runner.sessionEnded(session.id());
        terminals.sessionEnded(session);
        browserCalls.sessionEnded(session);
        episodes.sessionEnded(session.id());
    }

    /** Calls waiting right now ({@code waitMs}); each holds its own connection's thread, none holds another. */
    public int waitingCalls() {
        return waits.waiting();
    }

    @Override
    public void close() {
        waits.close();
        runner.close();
        terminals.close();
        browsers.close();
    }
}
