package dev.lomicontrol.terminal.tools;

import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.operations.LivePanels;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.OperationWaits;
import dev.lomicontrol.operations.PanelTargets;
import dev.lomicontrol.operations.ToolFeature;
import dev.lomicontrol.operations.ToolHandlers;
import dev.lomicontrol.operations.Waits;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.PanelKind;
import dev.lomicontrol.settings.Settings;
import dev.lomicontrol.terminal.Terminal;
import dev.lomicontrol.terminal.Terminals;
import dev.lomicontrol.terminal.api.TerminalSpecs;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * The terminal feature (SPEC §10): terminal tools over real PTYs — create, run, input, interrupt,
 * read — and claiming input of a terminal another session created. Its parts, one per tool group:
 * {@link CreateCalls}, {@link RunCalls} (a run settles from the exit code the shell reports through
 * its OSC 133 integration, never from silence), {@link InputCalls}, {@link ReadCalls} and
 * {@link TerminalPanels}, over the checks they share ({@link TerminalChecks}: the terminal that hosts
 * the calling agent — its helper descends from the terminal's shell — refuses input from that agent).
 */
@Component
public final class TerminalCalls implements ToolFeature {

    private final Terminals terminals;
    private final RunCalls runs;
    private final CreateCalls creates;
    private final InputCalls inputs;
    private final ReadCalls reads;
    private final TerminalPanels panels;

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
        TerminalChecks checks = new TerminalChecks(terminals, panels);
        this.terminals = terminals;
        this.runs = new RunCalls(checks, ledger, runner);
        FirstCommand firstCommand = new FirstCommand(runner, ledger, runs.settler(), FirstCommand.PROMPT_TIMEOUT);
        this.creates = new CreateCalls(terminals, layout, ledger, panels, runner, settings, runs, firstCommand);
        this.inputs = new InputCalls(checks);
        this.reads = new ReadCalls(checks, runs, waits);
        this.panels = new TerminalPanels(checks, runner);
        TerminalFollows follows = new TerminalFollows(
                terminals,
                runs::of,
                id -> firstCommand.waiting(id).or(() -> runs.of(id).flatMap(running -> running.created)),
                creates::made,
                run.outputTailBytes());
        operationWaits.follow(TerminalSpecs.CREATE, follows.create());
        operationWaits.follow(TerminalSpecs.RUN, follows.run());
    }

    /** Registers the handlers of the tools this feature serves. */
    @Override
    public void register(Wiring wiring) {
        ToolHandlers handlers = wiring.handlers();
        handlers.on(TerminalSpecs.PANEL_CONTROL, (session, in) -> panels.control(session, in, wiring.panels()));
        handlers.on(TerminalSpecs.CREATE, creates::create);
        handlers.on(TerminalSpecs.RUN, runs::run);
        handlers.on(TerminalSpecs.INPUT, inputs::input);
        handlers.on(TerminalSpecs.INTERRUPT, runs::interrupt);
        handlers.onWaiting(TerminalSpecs.READ, reads::read);
    }

    /** The session's connection ended: its leases die (runs in flight settle outcome_unknown). */
    @Override
    public void sessionEnded(Session session) {
        for (Terminal terminal : terminals.all()) {
            terminal.revokeLeasesOf(session.id().value(), "session ended");
        }
    }

    @Override
    public Map<PanelKind, LivePanels> panels() {
        return Map.of(PanelKind.TERMINAL, panels);
    }

    /** lomi_operation_cancel: a cancelled run gets exactly one Ctrl+C. */
    @Override
    public boolean requestStop(Operation operation) {
        return runs.requestStop(operation);
    }

    @Override
    public void close() {
        runs.close();
    }
}
