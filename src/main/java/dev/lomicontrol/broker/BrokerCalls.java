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
import dev.lomicontrol.operations.ToolFeature;
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
import java.util.List;
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
    private final OperationRunner runner;
    /** Every feature, in the order they register; a session's end and the broker's close reach them in it too. */
    private final List<ToolFeature> features;

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
        this.ledger = ledger;
        this.waits = new Waits(ledger);
        OperationWaits operationWaits = new OperationWaits(ledger, waits);
        this.handlers = new ToolHandlers(operationWaits);
        Layout layoutStore = new Layout(projects, ledger, clock, new SecureRandom());
        this.access = new WorkspaceAccess(projects, ledger, runtime.instanceId(), clock);
        this.runner = new OperationRunner(ledger, decisions, yolo, clock, decisionTimeout);
        PanelTargets panels = new PanelTargets(access, layoutStore);
        WorkspaceCalls workspaces = new WorkspaceCalls(access);
        EpisodeCalls episodeCalls = new EpisodeCalls(episodes, clock);
        TerminalCalls terminalCalls = new TerminalCalls(
                terminals, layoutStore, ledger, panels, runner, settings, waits, operationWaits, runOutputTailBytes);
        FileCalls files = new FileCalls(
                access,
                new ProjectFolders(),
                runner,
                layoutStore,
                runtime.dataDirectory().resolve("trash-recovery"));
        EditorCalls editors = new EditorCalls(
                new Documents(new SecureRandom(), EditorCalls.MAX_DOCUMENTS),
                settings,
                panels,
                files,
                runner,
                layoutStore);
        ArtifactCalls artifacts = new ArtifactCalls(artifactStore, files, runner, layoutStore);
        SettingsCalls settingsCalls = new SettingsCalls(settings, access, runner, layoutStore, clock, decisions);
        GitCalls git = new GitCalls(files, runner, layoutStore);
        BrowserCalls browserCalls = new BrowserCalls(browsers, origins, artifactStore, layoutStore, panels, runner);
        ChatCalls chatCalls =
                new ChatCalls(chat.conversations(), chat.connections(), chat.replies(), access, runner, layoutStore);
        // The layout asks every feature about its live panels and lomi_operation_cancel asks every feature
        // for a native stop; neither of the two answers such a question, so they ask the features built before.
        List<ToolFeature> asked = List.of(
                workspaces,
                episodeCalls,
                terminalCalls,
                files,
                editors,
                artifacts,
                settingsCalls,
                git,
                browserCalls,
                chatCalls);
        LayoutCalls layout =
                new LayoutCalls(projects, layoutStore, access, panels, runner, panelsOf(asked), runtime.instanceId());
        OperationCalls operations = new OperationCalls(
                ledger, access, stopsOf(asked, nativeStop), runner::withdrawn, waits, operationWaits);
        this.features = List.of(
                workspaces,
                operations,
                episodeCalls,
                layout,
                terminalCalls,
                files,
                editors,
                artifacts,
                settingsCalls,
                git,
                browserCalls,
                chatCalls,
                UnavailableTools.feature());
        features.forEach(feature -> feature.register(handlers));
        handlers.requireCovers(ToolCatalog.standard());
    }

    /** Each panel kind answered by the one feature that owns it (a kind claimed twice is a wiring error). */
    private static PanelsByKind panelsOf(List<ToolFeature> features) {
        Map<PanelKind, LivePanels> byKind = new EnumMap<>(PanelKind.class);
        for (ToolFeature feature : features) {
            feature.panels().forEach((kind, live) -> {
                if (byKind.putIfAbsent(kind, live) != null) {
                    throw new IllegalStateException("two features answer for " + kind + " panels");
                }
            });
        }
        return new PanelsByKind(byKind);
    }

    /** The features' native stops in their order, then {@code last} (the bean; a recorder in tests): the first to take the request ends the chain. */
    private static NativeStop stopsOf(List<ToolFeature> features, NativeStop last) {
        return operation ->
                features.stream().anyMatch(feature -> feature.requestStop(operation)) || last.requestStop(operation);
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
        features.forEach(feature -> feature.sessionEnded(session));
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
        features.forEach(ToolFeature::close);
    }
}
