package dev.lomicontrol.terminal.tools;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.ledger.EffectState;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.ledger.OperationError;
import dev.lomicontrol.ledger.OperationState;
import dev.lomicontrol.ledger.Reservation;
import dev.lomicontrol.operations.LivePanels;
import dev.lomicontrol.operations.OperationJson;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.OperationWaits;
import dev.lomicontrol.operations.PanelTargets;
import dev.lomicontrol.operations.Revisions;
import dev.lomicontrol.operations.ToolFeature;
import dev.lomicontrol.operations.ToolHandlers;
import dev.lomicontrol.operations.Waits;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Scopes;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.PanelKind;
import dev.lomicontrol.settings.Settings;
import dev.lomicontrol.terminal.CommandRun;
import dev.lomicontrol.terminal.InputAck;
import dev.lomicontrol.terminal.Lease;
import dev.lomicontrol.terminal.OutputPage;
import dev.lomicontrol.terminal.PromptState;
import dev.lomicontrol.terminal.RunOutcome;
import dev.lomicontrol.terminal.Terminal;
import dev.lomicontrol.terminal.Terminals;
import dev.lomicontrol.terminal.api.TerminalSpecs;
import dev.lomicontrol.terminal.screen.ScreenSnapshot;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.DisplayName;
import dev.lomicontrol.tools.Encoder;
import dev.lomicontrol.tools.Hex32;
import dev.lomicontrol.tools.HostNeed;
import dev.lomicontrol.tools.HostQualification;
import dev.lomicontrol.tools.Token;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Terminal tools over real PTYs (SPEC §10): create, run, input, interrupt, read, and claiming input
 * of a terminal another session created. A run settles from the exit code the shell reports through
 * its OSC 133 integration — never from silence. The terminal that hosts the calling agent (its
 * helper descends from the terminal's shell) refuses input from that agent.
 */
@Component
public final class TerminalCalls implements ToolFeature, LivePanels {

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

    private final Settings settings;

    private final FirstCommand firstCommand;

    private final Waits waits;

    public TerminalCalls(
            Terminals terminals,
            Layout layout,
            Ledger ledger,
            PanelTargets panels,
            OperationRunner runner,
            Settings settings,
            Waits waits,
            OperationWaits operationWaits,
            TerminalRunProperties run) {
        this.settings = settings;
        this.waits = waits;
        this.firstCommand = new FirstCommand(runner, ledger, settler, FirstCommand.PROMPT_TIMEOUT);
        TerminalFollows follows = new TerminalFollows(
                terminals,
                id -> Optional.ofNullable(runs.get(id))
                        .map(running -> new TerminalFollows.RunRef(running.run, running.terminal)),
                id -> firstCommand
                        .waiting(id)
                        .or(() -> Optional.ofNullable(runs.get(id)).flatMap(running -> running.created)),
                run.outputTailBytes());
        operationWaits.follow(TerminalSpecs.CREATE, follows.create());
        operationWaits.follow(TerminalSpecs.RUN, follows.run());
        this.terminals = terminals;
        this.layout = layout;
        this.ledger = ledger;
        this.panels = panels;
        this.runner = runner;
    }

    /**
     * A new shell in a new panel; {@code cwdRelative} "" (or ".") is the project root, no profile is the
     * default one. With a {@code command} (checked before anything is reserved or started) the same
     * operation then runs it at the shell's first ready prompt, as lomi_terminal_run would, and
     * settles with the run in its result ({@link FirstCommand}).
     */
    public Object create(Session session, TerminalSpecs.Create in) {
        in.command().ifPresent(Terminal::validateCommand);
        WorkspaceAccess.Listed listed = panels.workspace(session, in.workspaceId());
        String profile = in.profileId()
                .map(TerminalCalls::wire)
                .orElse(settings.terminal().defaultProfile());
        String cwdRelative = in.directory();
        long expected = in.expectedRevision().asLong();
        Path root = listed.project().root();
        Path[] cwd = new Path[1];
        OperationRunner.Request request =
                OperationRunner.Request.of(session, TerminalSpecs.CREATE, in, listed, cwdRelative, expected);
        OperationRunner.Admission admission = () -> {
            Revisions.require(expected, layout.revision());
            cwd[0] = insideProject(root, cwdRelative);
            if (!Terminals.installedProfiles().contains(profile)) {
                throw new LomiException(
                        ErrorCode.UNSUPPORTED_CAPABILITY,
                        "the " + profile + " profile is not installed on this host; use "
                                + String.join(" or ", Terminals.installedProfiles()));
            }
            if (!terminals.sandbox().enabled() && !session.grant().allows(Scopes.TERMINAL_UNSANDBOXED)) {
                throw new LomiException(
                        ErrorCode.SCOPE_DENIED,
                        "the admin turned the terminal sandbox off; an unsandboxed terminal needs the "
                                + Scopes.TERMINAL_UNSANDBOXED + " scope, which no default grant contains; ask"
                                + " the user to turn the sandbox on or to pair again granting "
                                + Scopes.TERMINAL_UNSANDBOXED);
            }
            terminals.sandbox().requireUsable();
        };
        if (in.command().isEmpty()) {
            return runner.immediate(
                    request,
                    admission,
                    operation -> Encoder.encode(
                            open(session, listed, profile, cwd[0], in).created()));
        }
        Reservation reservation = runner.reserveForDispatch(request, admission);
        if (reservation instanceof Reservation.Duplicate duplicate) {
            return OperationJson.of(duplicate.operation());
        }
        Operation running = ((Reservation.Reserved) reservation).operation();
        Opened opened;
        try {
            opened = open(session, listed, profile, cwd[0], in);
        } catch (LomiException refusal) {
            boolean unknown = refusal.code() == ErrorCode.OUTCOME_UNKNOWN;
            return OperationJson.of(runner.settle(
                    running.id(),
                    unknown ? OperationState.OUTCOME_UNKNOWN : OperationState.FAILED,
                    unknown ? EffectState.UNKNOWN : EffectState.NONE,
                    Optional.empty(),
                    Optional.of(OperationError.of(refusal))));
        } catch (RuntimeException e) {
            log.warn("operation {}: starting the terminal failed: {}", running.id(), e.toString());
            return OperationJson.of(runner.settle(
                    running.id(),
                    OperationState.OUTCOME_UNKNOWN,
                    EffectState.UNKNOWN,
                    Optional.empty(),
                    Optional.of(new OperationError(
                            ErrorCode.OUTCOME_UNKNOWN,
                            "starting the terminal failed unexpectedly ("
                                    + e.getClass().getSimpleName()
                                    + "); list the layout (lomi_layout_get) to see whether it exists"))));
        }
        String command = in.command().get();
        firstCommand.start(
                running,
                session.id(),
                opened.terminal(),
                opened.created(),
                () -> dispatch(
                        running,
                        opened.terminal(),
                        opened.created().leaseId().value(),
                        command,
                        session.id().value(),
                        opened.created().workspaceId(),
                        opened.created().panelId(),
                        Optional.of(opened.created())));
        return OperationJson.of(ledger.get(session.id(), running.id()).orElse(running));
    }

    /** A started terminal, its panel and the create's result. */
    private record Opened(Terminal terminal, TerminalSpecs.Created created) {}

    /** Starts the shell, gives the session its lease and adds its panel (the terminal is killed if the panel fails). */
    private Opened open(
            Session session, WorkspaceAccess.Listed listed, String profile, Path cwd, TerminalSpecs.Create in) {
        String title = in.title().map(DisplayName::value).orElse(profile);
        String cwdRelative = in.directory();
        long expected = in.expectedRevision().asLong();
        Terminal terminal = terminals.start(
                profile,
                listed.project().root(),
                cwd,
                in.columns(),
                in.rows(),
                settings.terminal().scrollbackBytes());
        try {
            Lease lease = terminal.grantLease(session.id().value());
            TerminalSpecs.Created created = layout.change(OptionalLong.of(expected), edit -> {
                Panel panel = edit.addPanel(
                        listed.workspace().id(),
                        PanelKind.TERMINAL,
                        title,
                        Optional.of(terminal.id()),
                        Optional.of(session.id().value()),
                        Optional.of(profile),
                        cwdRelative);
                String tab = edit.view(listed.workspace().id())
                        .tabOf(panel.id())
                        .map(t -> t.id())
                        .orElse("");
                return new TerminalSpecs.Created(
                        listed.workspace().id(),
                        new Token(panel.id()),
                        new Token(tab),
                        new Hex32(terminal.id()),
                        new Hex32(lease.id()),
                        TerminalSpecs.Profile.valueOf(profile.toUpperCase(Locale.ROOT)),
                        Decimal.of(edit.newRevision()),
                        Optional.empty(),
                        Optional.empty());
            });
            return new Opened(terminal, created);
        } catch (RuntimeException e) {
            terminal.kill();
            throw e;
        }
    }

    /** Runs one command at a ready prompt; answers the running operation (its answer then waits: see {@link TerminalFollows#run}). */
    public Object run(Session session, TerminalSpecs.Run in) {
        Bound bound = bind(session, in.workspaceId(), in.panelId(), in.terminalSessionId());
        String leaseId = in.leaseId().value();
        OperationRunner.Request request = OperationRunner.Request.of(
                session, TerminalSpecs.RUN, in, bound.target.listed(), bound.terminal.id(), -1);
        Reservation reservation = runner.reserveForDispatch(request, () -> {
            requireNotHosting(session, bound.terminal);
            requireLease(session, bound.terminal, leaseId);
            if (bound.terminal
                    .latest()
                    .filter(r -> !r.completed() && !r.outcome().isDone())
                    .isPresent()) {
                throw new LomiException(ErrorCode.TARGET_BUSY, "a command is still running in this terminal");
            }
            if (bound.terminal.prompt() != PromptState.READY) {
                throw new LomiException(
                        ErrorCode.PROMPT_STATE_UNKNOWN,
                        "the prompt is " + bound.terminal.prompt().wireName()
                                + ", not ready; read the terminal and wait for a fresh prompt");
            }
        });
        if (reservation instanceof Reservation.Duplicate duplicate) {
            return OperationJson.of(duplicate.operation());
        }
        Operation running = ((Reservation.Reserved) reservation).operation();
        // the answer waits (RunFollow: waitMs, or 750 ms without it) for the settlement the ledger announces
        return OperationJson.of(dispatch(
                running,
                bound.terminal,
                leaseId,
                in.command(),
                session.id().value(),
                in.workspaceId(),
                in.panelId(),
                Optional.empty()));
    }

    /**
     * Types {@code command} into the terminal for the running operation and settles it when the shell
     * reports the exit ({@link #settleRun}); a create's command ({@code created}) keeps the terminal
     * it made in the result of every settlement.
     */
    private Operation dispatch(
            Operation running,
            Terminal terminal,
            String leaseId,
            String command,
            String session,
            WorkspaceId workspace,
            Token panel,
            Optional<TerminalSpecs.Created> created) {
        Optional<JsonNode> made = created.map(Encoder::encode);
        CommandRun run;
        try {
            run = terminal.run(leaseId, command);
        } catch (LomiException refusal) {
            return runner.settle(
                    running.id(),
                    OperationState.FAILED,
                    created.isPresent() ? EffectState.PARTIAL : EffectState.NONE,
                    made,
                    Optional.of(OperationError.of(refusal)));
        } catch (RuntimeException e) {
            log.warn("terminal {}: writing the command failed: {}", terminal.id(), e.toString());
            return runner.settle(
                    running.id(),
                    OperationState.OUTCOME_UNKNOWN,
                    EffectState.UNKNOWN,
                    made,
                    Optional.of(new OperationError(
                            ErrorCode.OUTCOME_UNKNOWN,
                            "writing the command to the terminal failed part-way ("
                                    + e.getClass().getSimpleName()
                                    + "); read the terminal (lomi_terminal_read) to see whether it ran before"
                                    + " running it again")));
        }
        Running entry = new Running(terminal, run, leaseId, session, workspace, panel, created);
        runs.put(running.id(), entry);
        run.outcome().thenApplyAsync(outcome -> settleRun(running.id(), entry, outcome), settler);
        return running;
    }

    /** One Ctrl+C to the latest observed, unfinished run; reports the dispatch, not the exit. */
    public Object interrupt(Session session, TerminalSpecs.Interrupt in) {
        Bound bound = bind(session, in.workspaceId(), in.panelId(), in.terminalSessionId());
        String leaseId = in.leaseId().value();
        OperationId target = in.operationId();
        Running[] found = new Running[1];
        return runner.immediate(
                OperationRunner.Request.of(
                        session, TerminalSpecs.INTERRUPT, in, bound.target.listed(), target.value(), -1),
                () -> {
                    requireNotHosting(session, bound.terminal);
                    requireLease(session, bound.terminal, leaseId);
                    found[0] = interruptible(session, bound.terminal, target);
                },
                operation -> {
                    Running running = found[0] == null ? interruptible(session, bound.terminal, target) : found[0];
                    bound.terminal.interrupt(running.run, leaseId);
                    return Encoder.encode(new TerminalSpecs.Interrupted(
                            in.workspaceId(), in.panelId(), in.terminalSessionId(), target, true));
                });
    }

    /** Ordered input without a receipt: same sequence and payload confirm the earlier send instead of repeating it. */
    public TerminalSpecs.InputAcknowledged input(Session session, TerminalSpecs.Input in) {
        Bound bound = bind(session, in.workspaceId(), in.panelId(), in.terminalSessionId());
        String leaseId = in.leaseId().value();
        byte[] payload = payload(in.input());
        requireNotHosting(session, bound.terminal);
        requireLease(session, bound.terminal, leaseId);
        InputAck ack = bound.terminal.input(leaseId, in.inputSequence().asLong(), payload);
        return new TerminalSpecs.InputAcknowledged(
                in.workspaceId(),
                in.panelId(),
                in.terminalSessionId(),
                Decimal.of(ack.inputSequence()),
                TerminalSpecs.InputState.valueOf(ack.state().toUpperCase(Locale.ROOT)),
                ack.repeated(),
                Decimal.of(ack.nextInputSequence()));
    }

    /**
     * Reads the terminal. With a wait (modes output and command), a read that finds nothing past
     * its cursor waits for the terminal's next output (or its exit, or in mode command the run's end),
     * woken by the terminal's reader, not by polling.
     */
    public TerminalSpecs.ReadResult read(Session session, TerminalSpecs.Read in, java.time.Duration wait) {
        Bound bound = bind(session, in.workspaceId(), in.panelId(), in.terminalSessionId());
        Terminal terminal = bound.terminal;
        if (in.mode() == TerminalSpecs.Mode.SCREEN) {
            return screen(terminal, in.minimumParsedSequence(), in.maxBytes());
        }
        Optional<Running> running = Optional.empty();
        if (in.mode() == TerminalSpecs.Mode.COMMAND) {
            OperationId id = in.operationId().orElseThrow();
            Running found = runs.get(id);
            if (found == null
                    || found.terminal != terminal
                    || !found.session.equals(session.id().value())) {
                throw new LomiException(
                        ErrorCode.TARGET_NOT_FOUND, "no command " + id + " of this session in this terminal");
            }
            running = Optional.of(found);
        }
        Optional<Running> command = running;
        if (in.mode() == TerminalSpecs.Mode.RAW) {
            return output(session, in, terminal, command);
        }
        TerminalSpecs.Output[] last = new TerminalSpecs.Output[1];
        return waits.until(
                session,
                wait,
                waiter -> waiter.also(terminal.onChange(waiter::wake)),
                () -> {
                    last[0] = output(session, in, terminal, command);
                    boolean news = !last[0].text().orElse("").isEmpty()
                            || last[0].exited()
                            || command.map(r -> r.run.completed()).orElse(false);
                    return news ? Optional.of(last[0]) : Optional.empty();
                },
                () -> last[0]);
    }

    /** One page of modes output, command or raw, as it stands now. */
    private TerminalSpecs.Output output(
            Session session, TerminalSpecs.Read in, Terminal terminal, Optional<Running> running) {
        long cursor = in.cursor().map(Decimal::asLong).orElse(-1L);
        Optional<TerminalSpecs.Command> command = Optional.empty();
        OutputPage page;
        TerminalSpecs.OutputMode mode;
        if (running.isPresent()) {
            command = Optional.of(command(running.get().run, in.operationId().orElseThrow()));
            page = terminal.readCommand(running.get().run, cursor, in.maxBytes());
            mode = TerminalSpecs.OutputMode.COMMAND;
        } else if (in.mode() == TerminalSpecs.Mode.RAW) {
            page = terminal.readRaw(Math.max(cursor, 0), in.maxBytes());
            mode = TerminalSpecs.OutputMode.RAW;
        } else {
            page = terminal.readText(Math.max(cursor, 0), in.maxBytes());
            mode = TerminalSpecs.OutputMode.OUTPUT;
        }
        boolean raw = mode == TerminalSpecs.OutputMode.RAW;
        Decimal stream = Decimal.of(terminal.streamSequence());
        return new TerminalSpecs.Output(
                mode,
                in.terminalSessionId(),
                raw ? Optional.empty() : Optional.of(page.text()),
                raw ? Optional.of(Base64.getEncoder().encodeToString(page.bytes())) : Optional.empty(),
                Decimal.of(page.cursor()),
                Decimal.of(page.nextCursor()),
                Decimal.of(page.availableFrom()),
                page.gap() && (cursor >= 0 || mode == TerminalSpecs.OutputMode.COMMAND),
                page.end(),
                TerminalSpecs.Prompt.valueOf(terminal.prompt().name()),
                !terminal.isAlive(),
                boxed(terminal.exitCode()),
                terminal.lease()
                        .filter(l -> l.holder().equals(session.id().value()))
                        .isPresent(),
                Decimal.of(terminal.nextInputSequence()),
                stream,
                stream,
                command);
    }

    /**
     * claim (the admin approves; the previous holder's lease dies) or release (this session's lease
     * dies; the shell keeps running). The reference's Android form is accepted and answered
     * HOST_UNQUALIFIED: this host runs no managed emulator.
     */
    public Object control(Session session, TerminalSpecs.Control request) {
        if (request instanceof TerminalSpecs.AndroidControl) {
            throw new LomiException(
                    ErrorCode.HOST_UNQUALIFIED,
                    "lomi_panel_control of an Android device: "
                            + HostQualification.reason(HostNeed.ANDROID)
                                    .orElse("the Android tools are not available on this host")
                            + "; nothing was done");
        }
        TerminalSpecs.TerminalControl in = (TerminalSpecs.TerminalControl) request;
        Bound bound = bind(session, in.workspaceId(), in.panelId(), in.terminalSessionId());
        Terminal terminal = bound.terminal;
        OperationRunner.Request operation = OperationRunner.Request.of(
                session, TerminalSpecs.PANEL_CONTROL, in, bound.target.listed(), terminal.id(), -1);
        if (in.action() == TerminalSpecs.ControlAction.RELEASE) {
            return runner.immediate(
                    operation,
                    () -> {
                        if (terminal.lease()
                                .filter(l -> l.holder().equals(session.id().value()))
                                .isEmpty()) {
                            throw new LomiException(
                                    ErrorCode.INVALID_ARGUMENT,
                                    "this session holds no input lease on terminal " + terminal.id());
                        }
                    },
                    done -> {
                        terminal.revokeLeasesOf(session.id().value(), "released by its holder");
                        return controlResult(in, Optional.empty());
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
        return runner.afterApproval(
                operation,
                () -> {
                    if (!terminal.isAlive()) {
                        throw new LomiException(
                                ErrorCode.TARGET_NOT_FOUND, "terminal " + terminal.id() + " has exited");
                    }
                    requireNotHosting(session, terminal);
                },
                "give " + session.clientLabel() + " the input of terminal '"
                        + bound.target.panel().title() + "' (" + terminal.id() + ")",
                plan,
                done -> {
                    if (!terminal.isAlive()) {
                        throw new LomiException(
                                ErrorCode.TARGET_NOT_FOUND, "terminal " + terminal.id() + " has exited");
                    }
                    session.requireAlive();
                    Lease lease = terminal.grantLease(session.id().value());
                    return controlResult(in, Optional.of(lease.id()));
                });
    }

    /** The session's connection ended: its leases die (runs in flight settle outcome_unknown). */
    @Override
    public void sessionEnded(Session session) {
        for (Terminal terminal : terminals.all()) {
            terminal.revokeLeasesOf(session.id().value(), "session ended");
        }
    }

    // --- what the layout asks about terminal panels

    @Override
    public Map<PanelKind, LivePanels> panels() {
        return Map.of(PanelKind.TERMINAL, this);
    }

    @Override
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

    @Override
    public boolean busy(Panel panel) {
        return live(panel).filter(Terminal::isAlive).map(TerminalCalls::busy).orElse(false);
    }

    @Override
    public boolean controlledBy(Session session, Panel panel) {
        return live(panel)
                .flatMap(Terminal::lease)
                .filter(l -> l.holder().equals(session.id().value()))
                .isPresent();
    }

    @Override
    public boolean ownedByOther(Session session, Panel panel) {
        return live(panel).filter(Terminal::isAlive).isPresent()
                && !panel.ownerSession().filter(session.id().value()::equals).isPresent();
    }

    @Override
    public void end(Panel panel) {
        live(panel).ifPresent(Terminal::kill);
    }

    // --- lomi_operation_cancel: a cancelled run gets exactly one Ctrl+C

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
        CommandRun run = entry.run;
        TerminalSpecs.RunResult ran = new TerminalSpecs.RunResult(
                entry.workspace,
                entry.panel,
                new Hex32(entry.terminal.id()),
                run.id(),
                boxed(run.exitCode()),
                run.completed(),
                Decimal.of(run.startCursor()),
                decimal(run.endCursor()),
                Optional.empty());
        JsonNode result =
                entry.created.isPresent() ? Encoder.encode(entry.created.get().withRun(ran)) : Encoder.encode(ran);
        if (outcome instanceof RunOutcome.Exited exited) {
            if (exited.code() == 0) {
                return runner.settle(
                        id, OperationState.SUCCEEDED, EffectState.COMPLETE, Optional.of(result), Optional.empty());
            }
            boolean cancelling = entry.cancelRequested
                    || ledger.get(new dev.lomicontrol.core.SessionId(entry.session), id)
                            .map(o -> o.state() == OperationState.CANCELLING)
                            .orElse(false);
            if (cancelling && exited.code() == 130) {
                return runner.settle(
                        id, OperationState.CANCELLED, EffectState.PARTIAL, Optional.of(result), Optional.empty());
            }
            // a create's command that failed still made its terminal: the create succeeded, result.run tells the exit
            return runner.settle(
                    id,
                    entry.created.isPresent() ? OperationState.SUCCEEDED : OperationState.FAILED,
                    EffectState.COMPLETE,
                    Optional.of(result),
                    Optional.empty());
        }
        String reason = outcome instanceof RunOutcome.Lost lost ? lost.reason() : outcome.toString();
        return runner.settle(
                id,
                OperationState.OUTCOME_UNKNOWN,
                EffectState.UNKNOWN,
                Optional.of(result),
                Optional.of(new OperationError(
                        ErrorCode.OUTCOME_UNKNOWN,
                        "the command's end was not observed (" + reason + "); read the terminal"
                                + " (lomi_terminal_read) to see what it did before running it again")));
    }

    private Running interruptible(Session session, Terminal terminal, OperationId target) {
        Running running = runs.get(target);
        if (running == null
                || running.terminal != terminal
                || !running.session.equals(session.id().value())) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND, "no command " + target + " of this session in this terminal");
        }
        if (terminal.latest().filter(r -> r == running.run).isEmpty()
                || !running.run.startedObserved()
                || running.run.completed()) {
            throw new LomiException(
                    ErrorCode.TARGET_BUSY,
                    "only the latest command, once observed running and before it ends, can be interrupted");
        }
        return running;
    }

    /**
     * The screen as it is now. The reader feeds the screen before it counts output, so the screen
     * reflects at least the stream position read before the snapshot ({@code parsedSequence}); a
     * {@code minimumParsedSequence} up to the stream is thereby always met at once, one past the
     * output produced so far is REVISION_CONFLICT (as in the reference).
     */
    private TerminalSpecs.Screen screen(Terminal terminal, Optional<Decimal> minimum, int maxBytes) {
        long parsed = terminal.streamSequence();
        if (minimum.isPresent() && minimum.get().asLong() > parsed) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    "minimumParsedSequence " + minimum.get() + " is past the output this terminal has "
                            + "produced (streamSequence " + parsed + "); use a streamSequence of an earlier read");
        }
        ScreenSnapshot snapshot = terminal.screen();
        long stream = terminal.streamSequence();
        List<String> lines = topLines(snapshot.lines(), maxBytes);
        return new TerminalSpecs.Screen(
                new Hex32(terminal.id()),
                snapshot.columns(),
                snapshot.rows(),
                new TerminalSpecs.ScreenCursor(snapshot.cursorRow(), snapshot.cursorColumn(), snapshot.cursorVisible()),
                snapshot.alternate() ? TerminalSpecs.Buffer.ALTERNATE : TerminalSpecs.Buffer.NORMAL,
                lines,
                String.join("\n", lines),
                lines.size() < snapshot.lines().size(),
                snapshot.title() == null ? "" : snapshot.title(),
                Decimal.of(stream),
                Decimal.of(parsed),
                parsed < stream,
                !terminal.isAlive());
    }

    /** The top rows whose text, joined by newlines, fits in {@code maxBytes} bytes of UTF-8. */
    private static List<String> topLines(List<String> lines, int maxBytes) {
        long used = 0;
        int fitting = 0;
        for (String line : lines) {
            used += line.getBytes(StandardCharsets.UTF_8).length + (fitting == 0 ? 0 : 1);
            if (used > maxBytes) {
                break;
            }
            fitting++;
        }
        return lines.subList(0, fitting);
    }

    private static TerminalSpecs.Command command(CommandRun run, OperationId operationId) {
        return new TerminalSpecs.Command(
                run.id(),
                operationId,
                run.startedObserved(),
                run.completed(),
                boxed(run.exitCode()),
                Decimal.of(run.startCursor()),
                decimal(run.endCursor()));
    }

    private static JsonNode controlResult(TerminalSpecs.TerminalControl in, Optional<String> leaseId) {
        return Encoder.encode(new TerminalSpecs.Controlled(
                in.workspaceId(),
                in.panelId(),
                in.action(),
                in.terminalSessionId(),
                leaseId.map(Hex32::new),
                leaseId.isPresent()));
    }

    private static Optional<Integer> boxed(OptionalInt value) {
        return value.isPresent() ? Optional.of(value.getAsInt()) : Optional.empty();
    }

    private static Optional<Decimal> decimal(OptionalLong value) {
        return value.isPresent() ? Optional.of(Decimal.of(value.getAsLong())) : Optional.empty();
    }

    /** A terminal panel of a granted workspace and its live terminal; a terminal that is gone is TARGET_NOT_FOUND. */
    private Bound bind(Session session, WorkspaceId workspace, Token panelId, Hex32 terminalSessionId) {
        String terminalId = terminalSessionId.value();
        PanelTargets.PanelTarget target =
                panels.panel(session, workspace, panelId.value(), Optional.of(terminalId), -1);
        if (target.panel().kind() != PanelKind.TERMINAL) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND, "panel " + target.panel().id() + " is not a terminal");
        }
        Terminal terminal = terminals
                .find(terminalId)
                .orElseThrow(() -> new LomiException(
                        ErrorCode.TARGET_NOT_FOUND,
                        "terminal " + terminalId
                                + " is not running (terminals do not survive a broker restart); create a new one"));
        return new Bound(target, terminal);
    }

    private record Bound(PanelTargets.PanelTarget target, Terminal terminal) {}

    private Optional<Terminal> live(Panel panel) {
        return panel.terminalSessionId().flatMap(terminals::find);
    }

    private static boolean busy(Terminal terminal) {
        return terminal.latest()
                        .filter(r -> !r.completed() && !r.outcome().isDone())
                        .isPresent()
                || terminal.prompt() == PromptState.RUNNING;
    }

    /** The lease is the terminal's current one and belongs to this session: a lease id is not a bearer token. */
    private static void requireLease(Session session, Terminal terminal, String leaseId) {
        Optional<Lease> lease = terminal.lease();
        if (lease.isEmpty()
                || !lease.get().id().equals(leaseId)
                || !lease.get().holder().equals(session.id().value())) {
            throw new LomiException(
                    ErrorCode.CONTROL_REVOKED,
                    "lease " + leaseId + " is not valid for terminal " + terminal.id()
                            + (terminal.isAlive() ? "" : " (the shell exited)")
                            + "; claim input again with lomi_panel_control");
        }
    }

    /** The calling agent's own terminal is protected: its helper process descends from that shell. */
    private static void requireNotHosting(Session session, Terminal terminal) {
        if (session.peerPid() > 1 && ProcessAncestry.of(session.peerPid()).contains(terminal.shellPid())) {
            throw new LomiException(
                    ErrorCode.SCOPE_DENIED,
                    "terminal " + terminal.id() + " hosts the calling agent itself; it is protected from its input");
        }
    }

    private static byte[] payload(TerminalSpecs.Payload input) {
        if (input instanceof TerminalSpecs.Text text) {
            return text.text().getBytes(StandardCharsets.UTF_8);
        }
        switch (((TerminalSpecs.Press) input).key()) {
            case ENTER:
                return new byte[] {'\r'};
            case TAB:
                return new byte[] {'\t'};
            case ESCAPE:
                return new byte[] {0x1b};
            case BACKSPACE:
                return new byte[] {0x7f};
            case CTRL_C:
                return new byte[] {0x03};
            default:
                return new byte[] {0x04};
        }
    }

    /** {@code cwdRelative} resolved inside the project root without escaping it (no absolute path, no {@code ..}, no link out). */
    private static Path insideProject(Path root, String cwdRelative) {
        if (cwdRelative.isEmpty()
                || cwdRelative.length() > 4096
                || cwdRelative.indexOf('\0') >= 0
                || cwdRelative.indexOf('\\') >= 0
                || cwdRelative.startsWith("/")) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "cwdRelative is a relative path inside the project");
        }
        for (String part : cwdRelative.split("/", -1)) {
            if (part.equals("..") || (part.isEmpty() && !cwdRelative.equals("."))) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT, "cwdRelative may not contain '..' or empty components");
            }
        }
        try {
            Path real = root.resolve(cwdRelative).toRealPath();
            if (!real.startsWith(root.toRealPath())
                    || !java.nio.file.Files.isDirectory(real, LinkOption.NOFOLLOW_LINKS)) {
                throw new LomiException(
                        ErrorCode.SCOPE_DENIED,
                        "cwdRelative " + cwdRelative + " leaves the project or is not a directory");
            }
            return real;
        } catch (IOException e) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "no directory " + cwdRelative + " in the project");
        }
    }

    private static String wire(TerminalSpecs.Profile profile) {
        return profile.name().toLowerCase(Locale.ROOT);
    }

    /** Registers the handlers of the tools this class serves. */
    @Override
    public void register(Wiring wiring) {
        ToolHandlers handlers = wiring.handlers();
        handlers.on(TerminalSpecs.PANEL_CONTROL, this::control);
        handlers.on(TerminalSpecs.CREATE, this::create);
        handlers.on(TerminalSpecs.RUN, this::run);
        handlers.on(TerminalSpecs.INPUT, this::input);
        handlers.on(TerminalSpecs.INTERRUPT, this::interrupt);
        handlers.onWaiting(TerminalSpecs.READ, this::read);
    }
}
