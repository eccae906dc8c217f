package dev.lomicontrol.broker;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.ledger.EffectState;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.ledger.OperationState;
import dev.lomicontrol.ledger.Reservation;
import dev.lomicontrol.pairing.Scopes;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.PanelKind;
import dev.lomicontrol.projects.WorkspaceView;
import dev.lomicontrol.settings.Settings;
import dev.lomicontrol.terminal.CommandRun;
import dev.lomicontrol.terminal.InputAck;
import dev.lomicontrol.terminal.Lease;
import dev.lomicontrol.terminal.OutputPage;
import dev.lomicontrol.terminal.PromptState;
import dev.lomicontrol.terminal.RunOutcome;
import dev.lomicontrol.terminal.Terminal;
import dev.lomicontrol.terminal.Terminals;
import dev.lomicontrol.terminal.screen.ScreenSnapshot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Terminal tools over real PTYs (SPEC §10): create, run, input, interrupt, read, and claiming input
 * of a terminal another session created. A run settles from the exit code the shell reports through
 * its OSC 133 integration — never from silence. The terminal that hosts the calling agent (its
 * helper descends from the terminal's shell) refuses input from that agent.
 */
final class TerminalCalls implements NativeStop, AutoCloseable {

    static final long RUN_ANSWER_WAIT_MS = 750;
    private static final Pattern DECIMAL = Pattern.compile("0|[1-9][0-9]{0,17}");
    private static final Pattern HEX32 = Pattern.compile("[0-9a-f]{32}");
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Logger log = LoggerFactory.getLogger(TerminalCalls.class);

    private final Terminals terminals;
    private final Layout layout;
    private final Ledger ledger;
    private final PanelTargets panels;
    private final OperationRunner runner;
    private final Map<OperationId, Running> runs = new ConcurrentHashMap<>();
    private final ExecutorService settler = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "lomi-terminal-settler");
        thread.setDaemon(true);
        return thread;
    });

    /** A dispatched run: its terminal, the run, the lease it was sent with and whether a cancel asked to stop it. */
    private static final class Running {
        final Terminal terminal;
        final CommandRun run;
        final String leaseId;
        final String session;
        volatile boolean cancelRequested;

        Running(Terminal terminal, CommandRun run, String leaseId, String session) {
            this.terminal = terminal;
            this.run = run;
            this.leaseId = leaseId;
            this.session = session;
        }
    }

    private final Settings settings;

    TerminalCalls(Terminals terminals, Layout layout, Ledger ledger, PanelTargets panels, OperationRunner runner, Settings settings) {
        this.settings = settings;
        this.terminals = terminals;
        this.layout = layout;
        this.ledger = ledger;
        this.panels = panels;
        this.runner = runner;
    }

    ObjectNode create(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, LayoutCalls.with("workspaceId", "cwdRelative", "profileId", "title", "columns", "rows",
                "expectedRevision"));
        WorkspaceCalls.Listed listed = panels.workspace(session, args);
        String profile = args.choice("profileId", Optional.of(settings.terminal().defaultProfile()), "bash", "zsh");
        String cwdRelative = args.optionalString("cwdRelative").orElse(".");
        String title = args.optionalString("title").orElse(profile);
        if (title.isEmpty() || title.length() > 256 || title.chars().anyMatch(Character::isISOControl)) {
            throw Arguments.invalid("title is 1-256 characters without control characters");
        }
        int columns = args.integer("columns", 20, 1024, OptionalInt.of(120));
        int rows = args.integer("rows", 5, 1024, OptionalInt.of(32));
        long expected = Revisions.expected(args);
        Path root = listed.project().root();
        Path[] cwd = new Path[1];
        return runner.immediate(LayoutCalls.request(session, "lomi_terminal_create", arguments, args, listed, cwdRelative, expected), () -> {
            Revisions.require(expected, layout.revision());
            cwd[0] = insideProject(root, cwdRelative);
            if (!Terminals.installedProfiles().contains(profile)) {
                throw new LomiException(ErrorCode.UNSUPPORTED_CAPABILITY, "the " + profile + " profile is not installed on this host; use "
                        + String.join(" or ", Terminals.installedProfiles()));
            }
            if (!terminals.sandbox().enabled() && !session.grant().allows(Scopes.TERMINAL_UNSANDBOXED)) {
                throw new LomiException(ErrorCode.SCOPE_DENIED, "the admin turned the terminal sandbox off; an unsandboxed terminal needs the "
                        + Scopes.TERMINAL_UNSANDBOXED + " scope, which no default grant contains");
            }
            terminals.sandbox().requireUsable();
        }, operation -> {
            Terminal terminal = terminals.start(profile, root, cwd[0], columns, rows, settings.terminal().scrollbackBytes());
            try {
                Lease lease = terminal.grantLease(session.id().value());
                return layout.change(OptionalLong.of(expected), edit -> {
                    Panel panel = edit.addPanel(listed.workspace().id(), PanelKind.TERMINAL, title, Optional.of(terminal.id()),
                            Optional.of(session.id().value()), Optional.of(profile), cwdRelative);
                    ObjectNode data = LayoutCalls.result("terminal_created", edit.newRevision());
                    data.put("workspaceId", listed.workspace().id().value());
                    data.put("panelId", panel.id());
                    data.put("tabId", edit.view(listed.workspace().id()).tabOf(panel.id()).map(t -> t.id()).orElse(""));
                    data.put("terminalSessionId", terminal.id());
                    data.put("leaseId", lease.id());
                    data.put("profileId", profile);
                    return data;
                });
            } catch (RuntimeException e) {
                terminal.kill();
                throw e;
            }
        });
    }

    /** Runs one command at a ready prompt; answers the operation (settled if the command ends within a moment). */
    ObjectNode run(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, LayoutCalls.with("workspaceId", "panelId", "terminalSessionId", "leaseId", "command"));
        Bound bound = bind(session, args);
        String leaseId = lease(args);
        String command = args.requiredString("command");
        OperationRunner.Request request = LayoutCalls.request(session, "lomi_terminal_run", arguments, args, bound.target.listed(),
                bound.terminal.id(), -1);
        Reservation reservation = runner.reserveForDispatch(request, () -> {
            requireNotHosting(session, bound.terminal);
            requireLease(session, bound.terminal, leaseId);
            if (bound.terminal.latest().filter(r -> !r.completed() && !r.outcome().isDone()).isPresent()) {
                throw new LomiException(ErrorCode.TARGET_BUSY, "a command is still running in this terminal");
            }
            if (bound.terminal.prompt() != PromptState.READY) {
                throw new LomiException(ErrorCode.PROMPT_STATE_UNKNOWN, "the prompt is " + wire(bound.terminal.prompt())
                        + ", not ready; read the terminal and wait for a fresh prompt");
            }
        });
        if (reservation instanceof Reservation.Duplicate duplicate) {
            return OperationJson.of(duplicate.operation());
        }
        Operation running = ((Reservation.Reserved) reservation).operation();
        CommandRun run;
        try {
            run = bound.terminal.run(leaseId, command);
        } catch (LomiException refusal) {
            return OperationJson.of(runner.settle(running.id(), OperationState.FAILED, EffectState.NONE, Optional.empty(), Optional.of(refusal.code())));
        } catch (RuntimeException e) {
            log.warn("terminal {}: writing the command failed: {}", bound.terminal.id(), e.toString());
            return OperationJson.of(runner.settle(running.id(), OperationState.OUTCOME_UNKNOWN, EffectState.UNKNOWN, Optional.empty(), Optional.empty()));
        }
        Running entry = new Running(bound.terminal, run, leaseId, session.id().value());
        runs.put(running.id(), entry);
        java.util.concurrent.CompletableFuture<Operation> settled = run.outcome().thenApplyAsync(outcome -> settleRun(running.id(), entry, outcome), settler);
        try {
            return OperationJson.of(settled.get(RUN_ANSWER_WAIT_MS, TimeUnit.MILLISECONDS));
        } catch (TimeoutException e) {
            return OperationJson.of(ledger.get(session.id(), running.id()).orElse(running));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OperationJson.of(running);
        } catch (java.util.concurrent.ExecutionException e) {
            return OperationJson.of(ledger.get(session.id(), running.id()).orElse(running));
        }
    }

    /** One Ctrl+C to the latest observed, unfinished run; reports the dispatch, not the exit. */
    ObjectNode interrupt(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, LayoutCalls.with("workspaceId", "panelId", "terminalSessionId", "leaseId", "operationId"));
        Bound bound = bind(session, args);
        String leaseId = lease(args);
        OperationId target = new OperationId(args.requiredString("operationId"));
        Running[] found = new Running[1];
        return runner.immediate(LayoutCalls.request(session, "lomi_terminal_interrupt", arguments, args, bound.target.listed(), target.value(), -1), () -> {
            requireNotHosting(session, bound.terminal);
            requireLease(session, bound.terminal, leaseId);
            found[0] = interruptible(session, bound.terminal, target);
        }, operation -> {
            Running running = found[0] == null ? interruptible(session, bound.terminal, target) : found[0];
            bound.terminal.interrupt(running.run, leaseId);
            ObjectNode data = JSON.objectNode();
            data.put("kind", "terminal_interrupt");
            data.put("targetOperationId", target.value());
            data.put("dispatched", true);
            return data;
        });
    }

    /** Ordered input without a receipt: same sequence and payload confirm the earlier send instead of repeating it. */
    ObjectNode input(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, "workspaceId", "panelId", "terminalSessionId", "leaseId", "inputSequence", "input");
        Bound bound = bind(session, args);
        String leaseId = lease(args);
        String sequenceText = args.requiredString("inputSequence");
        if (!DECIMAL.matcher(sequenceText).matches() || sequenceText.equals("0")) {
            throw Arguments.invalid("inputSequence is a decimal number from 1 (nextInputSequence of lomi_terminal_read)");
        }
        Arguments input = args.object("input", "type", "text", "key");
        byte[] payload = payload(input);
        requireNotHosting(session, bound.terminal);
        requireLease(session, bound.terminal, leaseId);
        InputAck ack = bound.terminal.input(leaseId, Long.parseLong(sequenceText), payload);
        ObjectNode data = JSON.objectNode();
        data.put("kind", "terminal_input");
        data.put("terminalSessionId", bound.terminal.id());
        data.put("inputSequence", Long.toString(ack.inputSequence()));
        data.put("state", ack.state());
        data.put("repeated", ack.repeated());
        data.put("nextInputSequence", Long.toString(ack.nextInputSequence()));
        return data;
    }

    ObjectNode read(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, "workspaceId", "panelId", "terminalSessionId", "mode", "cursor", "maxBytes", "operationId");
        Bound bound = bind(session, args);
        String mode = args.choice("mode", Optional.of("output"), "output", "command", "raw", "screen");
        int maxBytes = args.integer("maxBytes", 1, 65536, OptionalInt.of(16384));
        if (args.has("operationId") != mode.equals("command")) {
            throw Arguments.invalid(mode.equals("command") ? "mode command needs operationId (a lomi_terminal_run operation)"
                    : "operationId is only for mode command");
        }
        Terminal terminal = bound.terminal;
        if (mode.equals("screen")) {
            if (args.has("cursor")) {
                throw Arguments.invalid("mode screen takes no cursor");
            }
            return screen(terminal);
        }
        Optional<String> cursorText = args.optionalString("cursor");
        if (cursorText.isPresent() && !DECIMAL.matcher(cursorText.get()).matches()) {
            throw Arguments.invalid("cursor is a decimal byte offset (nextCursor of an earlier read)");
        }
        long cursor = cursorText.map(Long::parseLong).orElse(-1L);
        Optional<Running> command = Optional.empty();
        OutputPage page;
        if (mode.equals("command")) {
            OperationId id = new OperationId(args.requiredString("operationId"));
            Running running = runs.get(id);
            if (running == null || running.terminal != terminal || !running.session.equals(session.id().value())) {
                throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "no command " + id + " of this session in this terminal");
            }
            command = Optional.of(running);
            page = terminal.readCommand(running.run, cursor, maxBytes);
        } else if (mode.equals("raw")) {
            page = terminal.readRaw(Math.max(cursor, 0), maxBytes);
        } else {
            page = terminal.readText(Math.max(cursor, 0), maxBytes);
        }
        ObjectNode data = JSON.objectNode();
        data.put("kind", "terminal_output");
        data.put("mode", mode);
        data.put("terminalSessionId", terminal.id());
        if (mode.equals("raw")) {
            data.put("data", Base64.getEncoder().encodeToString(page.bytes()));
        } else {
            data.put("text", page.text());
        }
        data.put("cursor", Long.toString(page.cursor()));
        data.put("nextCursor", Long.toString(page.nextCursor()));
        data.put("availableFrom", Long.toString(page.availableFrom()));
        data.put("gap", page.gap() && (cursor >= 0 || mode.equals("command")));
        data.put("end", page.end());
        data.put("prompt", wire(terminal.prompt()));
        data.put("exited", !terminal.isAlive());
        WireJson.put(data, "shellExitCode", terminal.exitCode());
        data.put("leaseHeld", terminal.lease().filter(l -> l.holder().equals(session.id().value())).isPresent());
        data.put("nextInputSequence", Long.toString(terminal.nextInputSequence()));
        data.put("streamSequence", Long.toString(terminal.streamSequence()));
        data.set("command", command.map(running -> (JsonNode) commandJson(running.run, Optional.of(args.requiredString("operationId"))))
                .orElse(JSON.nullNode()));
        return data;
    }

    /** claim (the admin approves; the previous holder's lease dies) or release (this session's lease dies; the shell keeps running). */
    ObjectNode control(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, LayoutCalls.with("workspaceId", "panelId", "terminalSessionId", "action"));
        Bound bound = bind(session, args);
        String action = args.choice("action", Optional.empty(), "claim", "release");
        Terminal terminal = bound.terminal;
        OperationRunner.Request request = LayoutCalls.request(session, "lomi_panel_control", arguments, args, bound.target.listed(), terminal.id(), -1);
        if (action.equals("release")) {
            return runner.immediate(request, () -> {
                if (terminal.lease().filter(l -> l.holder().equals(session.id().value())).isEmpty()) {
                    throw new LomiException(ErrorCode.INVALID_ARGUMENT, "this session holds no input lease on terminal " + terminal.id());
                }
            }, operation -> {
                terminal.revokeLeasesOf(session.id().value(), "released by its holder");
                return controlResult("release", terminal, Optional.empty());
            });
        }
        ObjectNode plan = JSON.objectNode();
        plan.put("action", "claim terminal input");
        plan.put("terminalSessionId", terminal.id());
        plan.put("panelId", bound.target.panel().id());
        plan.put("title", bound.target.panel().title());
        plan.put("client", session.clientLabel());
        plan.put("session", session.id().value());
        plan.put("currentHolder", terminal.lease().map(Lease::holder).orElse("nobody"));
        return runner.afterApproval(request, () -> {
            if (!terminal.isAlive()) {
                throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "terminal " + terminal.id() + " has exited");
            }
            requireNotHosting(session, terminal);
        }, "give " + session.clientLabel() + " the input of terminal '" + bound.target.panel().title() + "' (" + terminal.id() + ")", plan, operation -> {
            if (!terminal.isAlive()) {
                throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "terminal " + terminal.id() + " has exited");
            }
            session.requireAlive();
            Lease lease = terminal.grantLease(session.id().value());
            return controlResult("claim", terminal, Optional.of(lease.id()));
        });
    }

    /** The session's connection ended: its leases die (runs in flight settle outcome_unknown). */
    void sessionEnded(Session session) {
        for (Terminal terminal : terminals.all()) {
            terminal.revokeLeasesOf(session.id().value(), "session ended");
        }
    }

    // --- what the layout asks about terminal panels

    public String runtimeState(Panel panel) {
        Optional<Terminal> terminal = live(panel);
        if (terminal.isEmpty() || !terminal.get().isAlive()) {
            return "exited";
        }
        if (busy(terminal.get())) {
            return "running";
        }
        return terminal.get().prompt() == PromptState.READY ? "ready" : "unobserved";
    }

    public boolean busy(Panel panel) {
        return live(panel).filter(Terminal::isAlive).map(TerminalCalls::busy).orElse(false);
    }

    public boolean controlledBy(Session session, Panel panel) {
        return live(panel).flatMap(Terminal::lease).filter(l -> l.holder().equals(session.id().value())).isPresent();
    }

    public boolean ownedByOther(Session session, Panel panel) {
        return live(panel).filter(Terminal::isAlive).isPresent() && !panel.ownerSession().filter(session.id().value()::equals).isPresent();
    }

    public void end(Panel panel) {
        live(panel).ifPresent(Terminal::kill);
    }

    // --- NativeStop: a cancelled run gets exactly one Ctrl+C

    @Override
    public boolean requestStop(Operation operation) {
        Running running = runs.get(operation.id());
        if (running == null || running.run.completed()) {
            return false;
        }
        running.cancelRequested = true;
        try {
            running.terminal.interrupt(running.run, running.leaseId);
            return true;
        } catch (LomiException e) {
            log.info("operation {}: no Ctrl+C sent ({})", operation.id(), e.getMessage());
            return false;
        }
    }

    @Override
    public void close() {
        settler.shutdown();
    }

    private Operation settleRun(OperationId id, Running entry, RunOutcome outcome) {
        ObjectNode result = JSON.objectNode();
        result.put("kind", "terminal_run");
        result.put("terminalSessionId", entry.terminal.id());
        result.put("runId", entry.run.id());
        WireJson.put(result, "exitCode", entry.run.exitCode());
        result.put("completed", entry.run.completed());
        result.put("startCursor", Long.toString(entry.run.startCursor()));
        WireJson.putDecimal(result, "endCursor", entry.run.endCursor());
        if (outcome instanceof RunOutcome.Exited exited) {
            if (exited.code() == 0) {
                return runner.settle(id, OperationState.SUCCEEDED, EffectState.COMPLETE, Optional.of(result), Optional.empty());
            }
            boolean cancelling = entry.cancelRequested || ledger.get(new dev.lomicontrol.core.SessionId(entry.session), id)
                    .map(o -> o.state() == OperationState.CANCELLING).orElse(false);
            if (cancelling && exited.code() == 130) {
                return runner.settle(id, OperationState.CANCELLED, EffectState.PARTIAL, Optional.of(result), Optional.empty());
            }
            return runner.settle(id, OperationState.FAILED, EffectState.COMPLETE, Optional.of(result), Optional.empty());
        }
        return runner.settle(id, OperationState.OUTCOME_UNKNOWN, EffectState.UNKNOWN, Optional.of(result), Optional.empty());
    }

    private Running interruptible(Session session, Terminal terminal, OperationId target) {
        Running running = runs.get(target);
        if (running == null || running.terminal != terminal || !running.session.equals(session.id().value())) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "no command " + target + " of this session in this terminal");
        }
        if (terminal.latest().filter(r -> r == running.run).isEmpty() || !running.run.startedObserved() || running.run.completed()) {
            throw new LomiException(ErrorCode.TARGET_BUSY, "only the latest command, once observed running and before it ends, can be interrupted");
        }
        return running;
    }

    private ObjectNode screen(Terminal terminal) {
        ScreenSnapshot snapshot = terminal.screen();
        ObjectNode data = JSON.objectNode();
        data.put("kind", "terminal_screen");
        data.put("terminalSessionId", terminal.id());
        data.put("columns", snapshot.columns());
        data.put("rows", snapshot.rows());
        ObjectNode cursor = data.putObject("cursor");
        cursor.put("row", snapshot.cursorRow());
        cursor.put("column", snapshot.cursorColumn());
        cursor.put("visible", snapshot.cursorVisible());
        data.put("buffer", snapshot.alternate() ? "alternate" : "normal");
        snapshot.lines().forEach(data.putArray("lines")::add);
        data.put("text", String.join("\n", snapshot.lines()));
        data.put("title", snapshot.title() == null ? "" : snapshot.title());
        data.put("streamSequence", Long.toString(terminal.streamSequence()));
        data.put("exited", !terminal.isAlive());
        return data;
    }

    private static ObjectNode commandJson(CommandRun run, Optional<String> operationId) {
        ObjectNode node = JSON.objectNode();
        node.put("runId", run.id());
        operationId.ifPresent(id -> node.put("operationId", id));
        node.put("startedObserved", run.startedObserved());
        node.put("completed", run.completed());
        WireJson.put(node, "exitCode", run.exitCode());
        node.put("startCursor", Long.toString(run.startCursor()));
        WireJson.putDecimal(node, "endCursor", run.endCursor());
        return node;
    }

    private ObjectNode controlResult(String action, Terminal terminal, Optional<String> leaseId) {
        ObjectNode data = JSON.objectNode();
        data.put("kind", "panel_control");
        data.put("action", action);
        data.put("terminalSessionId", terminal.id());
        WireJson.put(data, "leaseId", leaseId);
        return data;
    }

    /** A terminal panel of a granted workspace and its live terminal; a terminal that is gone is TARGET_NOT_FOUND. */
    private Bound bind(Session session, Arguments args) {
        PanelTargets.PanelTarget target = panels.panel(session, args);
        String terminalId = args.requiredString("terminalSessionId");
        if (target.panel().kind() != PanelKind.TERMINAL) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "panel " + target.panel().id() + " is not a terminal");
        }
        Terminal terminal = terminals.find(terminalId).orElseThrow(() -> new LomiException(ErrorCode.TARGET_NOT_FOUND,
                "terminal " + terminalId + " is not running (terminals do not survive a broker restart); create a new one"));
        return new Bound(target, terminal);
    }

    private record Bound(PanelTargets.PanelTarget target, Terminal terminal) {}

    private Optional<Terminal> live(Panel panel) {
        return panel.terminalSessionId().flatMap(terminals::find);
    }

    private static boolean busy(Terminal terminal) {
        return terminal.latest().filter(r -> !r.completed() && !r.outcome().isDone()).isPresent() || terminal.prompt() == PromptState.RUNNING;
    }

    private static String lease(Arguments args) {
        String lease = args.requiredString("leaseId");
        if (!HEX32.matcher(lease).matches()) {
            throw Arguments.invalid("leaseId is the 32-hex lease from lomi_terminal_create or lomi_panel_control");
        }
        return lease;
    }

    /** The lease is the terminal's current one and belongs to this session: a lease id is not a bearer token. */
    private static void requireLease(Session session, Terminal terminal, String leaseId) {
        Optional<Lease> lease = terminal.lease();
        if (lease.isEmpty() || !lease.get().id().equals(leaseId) || !lease.get().holder().equals(session.id().value())) {
            throw new LomiException(ErrorCode.CONTROL_REVOKED, "lease " + leaseId + " is not valid for terminal " + terminal.id()
                    + (terminal.isAlive() ? "" : " (the shell exited)") + "; claim input again with lomi_panel_control");
        }
    }

    /** The calling agent's own terminal is protected: its helper process descends from that shell. */
    private static void requireNotHosting(Session session, Terminal terminal) {
        if (session.peerPid() > 1 && ProcessAncestry.of(session.peerPid()).contains(terminal.shellPid())) {
            throw new LomiException(ErrorCode.SCOPE_DENIED, "terminal " + terminal.id() + " hosts the calling agent itself; it is protected from its input");
        }
    }

    private static byte[] payload(Arguments input) {
        String type = input.choice("type", Optional.empty(), "text", "key");
        if (type.equals("text")) {
            if (input.has("key")) {
                throw Arguments.invalid("input {type:\"text\"} takes text, not key");
            }
            String text = input.requiredString("text");
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            if (bytes.length == 0 || bytes.length > 65536 || text.indexOf('\0') >= 0) {
                throw Arguments.invalid("input text is 1..65536 bytes without NUL");
            }
            return bytes;
        }
        if (input.has("text")) {
            throw Arguments.invalid("input {type:\"key\"} takes key, not text");
        }
        switch (input.choice("key", Optional.empty(), "enter", "tab", "escape", "backspace", "ctrl_c", "ctrl_d")) {
            case "enter":
                return new byte[] {'\r'};
            case "tab":
                return new byte[] {'\t'};
            case "escape":
                return new byte[] {0x1b};
            case "backspace":
                return new byte[] {0x7f};
            case "ctrl_c":
                return new byte[] {0x03};
            default:
                return new byte[] {0x04};
        }
    }

    /** {@code cwdRelative} resolved inside the project root without escaping it (no absolute path, no {@code ..}, no link out). */
    private static Path insideProject(Path root, String cwdRelative) {
        if (cwdRelative.isEmpty() || cwdRelative.length() > 4096 || cwdRelative.indexOf('\0') >= 0 || cwdRelative.indexOf('\\') >= 0
                || cwdRelative.startsWith("/")) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "cwdRelative is a relative path inside the project");
        }
        for (String part : cwdRelative.split("/", -1)) {
            if (part.equals("..") || (part.isEmpty() && !cwdRelative.equals("."))) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "cwdRelative may not contain '..' or empty components");
            }
        }
        try {
            Path real = root.resolve(cwdRelative).toRealPath();
            if (!real.startsWith(root.toRealPath()) || !java.nio.file.Files.isDirectory(real, LinkOption.NOFOLLOW_LINKS)) {
                throw new LomiException(ErrorCode.SCOPE_DENIED, "cwdRelative " + cwdRelative + " leaves the project or is not a directory");
            }
            return real;
        } catch (IOException e) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "no directory " + cwdRelative + " in the project");
        }
    }

    private static String wire(PromptState state) {
        return state.name().toLowerCase(Locale.ROOT);
    }

}
