package dev.lomicontrol.terminal.tools;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.ledger.EffectState;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.ledger.OperationError;
import dev.lomicontrol.ledger.OperationState;
import dev.lomicontrol.operations.OperationJson;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.terminal.CommandRun;
import dev.lomicontrol.terminal.PromptState;
import dev.lomicontrol.terminal.RunOutcome;
import dev.lomicontrol.terminal.Terminal;
import dev.lomicontrol.terminal.api.TerminalResults;
import dev.lomicontrol.terminal.api.TerminalSpecs;
import dev.lomicontrol.tools.Encoder;
import dev.lomicontrol.tools.Token;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * Command runs: lomi_terminal_run and lomi_terminal_interrupt, the runs this broker dispatched (by
 * operation), their settlement from the exit code the shell reports through its OSC 133 integration
 * — never from silence — on the settler thread, and a cancel's one Ctrl+C.
 */
final class RunCalls implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RunCalls.class);

    private final TerminalChecks checks;
    private final Ledger ledger;
    private final OperationRunner runner;
    private final Map<OperationId, Running> runs = new ConcurrentHashMap<>();
    private final ExecutorService settler = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "lomi-terminal-settler");
        thread.setDaemon(true);
        return thread;
    });

    RunCalls(TerminalChecks checks, Ledger ledger, OperationRunner runner) {
        this.checks = checks;
        this.ledger = ledger;
        this.runner = runner;
    }

    /** The thread runs settle on (a create's first command waits on it too). */
    ExecutorService settler() {
        return settler;
    }

    /** The run behind an operation, while this broker holds it. */
    Optional<Running> of(OperationId id) {
        return Optional.ofNullable(runs.get(id));
    }

    /** Runs one command at a ready prompt; answers the running operation (its answer then waits: see {@link TerminalFollows#run}). */
    Object run(Session session, TerminalSpecs.Run in) {
        TerminalChecks.Bound bound = checks.bind(session, in.workspaceId(), in.panelId(), in.terminalSessionId());
        Terminal terminal = bound.terminal();
        String leaseId = in.leaseId().value();
        OperationRunner.Request request = OperationRunner.Request.of(
                session, TerminalSpecs.RUN, in, bound.target().listed(), terminal.id(), OptionalLong.empty());
        OperationRunner.Start<Terminal> reservation = runner.reserveForDispatch(request, () -> {
            bound.requireInput(session, leaseId);
            if (TerminalChecks.running(terminal)) {
                throw new LomiException(ErrorCode.TARGET_BUSY, "a command is still running in this terminal");
            }
            if (terminal.prompt() != PromptState.READY) {
                throw new LomiException(
                        ErrorCode.PROMPT_STATE_UNKNOWN,
                        "the prompt is " + terminal.prompt().wireName()
                                + ", not ready; read the terminal and wait for a fresh prompt");
            }
            return terminal;
        });
        if (reservation instanceof OperationRunner.Start.Answered<Terminal> duplicate) {
            return OperationJson.of(duplicate.operation());
        }
        Operation running = ((OperationRunner.Start.Begun<Terminal>) reservation).running();
        // the answer waits (RunFollow: waitMs, or 750 ms without it) for the settlement the ledger announces
        return OperationJson.of(dispatch(
                running,
                terminal,
                leaseId,
                in.command(),
                session.id(),
                in.workspaceId(),
                in.panelId(),
                Optional.empty()));
    }

    /**
     * Types {@code command} into the terminal for the running operation and settles it when the shell
     * reports the exit ({@link #settle}); a create's command ({@code created}) keeps the terminal it
     * made in the result of every settlement.
     */
    Operation dispatch(
            Operation running,
            Terminal terminal,
            String leaseId,
            String command,
            SessionId session,
            WorkspaceId workspace,
            Token panel,
            Optional<TerminalResults.Created> created) {
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
        run.outcome().thenApplyAsync(outcome -> settle(running.id(), entry, outcome), settler);
        return running;
    }

    /** One Ctrl+C to the latest observed, unfinished run; reports the dispatch, not the exit. */
    Object interrupt(Session session, TerminalSpecs.Interrupt in) {
        TerminalChecks.Bound bound = checks.bind(session, in.workspaceId(), in.panelId(), in.terminalSessionId());
        String leaseId = in.leaseId().value();
        OperationId target = in.operationId();
        return runner.immediate(
                OperationRunner.Request.of(
                        session,
                        TerminalSpecs.INTERRUPT,
                        in,
                        bound.target().listed(),
                        target.value(),
                        OptionalLong.empty()),
                () -> {
                    bound.requireInput(session, leaseId);
                    return interruptible(session, bound.terminal(), target);
                },
                (operation, interrupted) -> {
                    bound.terminal().interrupt(interrupted.run, leaseId);
                    return Encoder.encode(new TerminalResults.Interrupted(
                            in.workspaceId(), in.panelId(), in.terminalSessionId(), target, true));
                });
    }

    /** {@code lomi_operation_cancel}: a cancelled run gets exactly one Ctrl+C. */
    boolean requestStop(Operation operation) {
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

    /** The run of {@code target} if this session dispatched it in this terminal; else TARGET_NOT_FOUND. */
    Running ofSession(Session session, Terminal terminal, OperationId target) {
        Running running = runs.get(target);
        if (running == null || running.terminal != terminal || !running.session.equals(session.id())) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND, "no command " + target + " of this session in this terminal");
        }
        return running;
    }

    private Running interruptible(Session session, Terminal terminal, OperationId target) {
        Running running = ofSession(session, terminal, target);
        if (terminal.latest().filter(r -> r == running.run).isEmpty()
                || !running.run.startedObserved()
                || running.run.completed()) {
            throw new LomiException(
                    ErrorCode.TARGET_BUSY,
                    "only the latest command, once observed running and before it ends, can be interrupted");
        }
        return running;
    }

    private Operation settle(OperationId id, Running entry, RunOutcome outcome) {
        TerminalResults.RunResult ran = entry.result();
        JsonNode result =
                entry.created.isPresent() ? Encoder.encode(entry.created.get().withRun(ran)) : Encoder.encode(ran);
        if (outcome instanceof RunOutcome.Exited exited) {
            if (exited.code() == 0) {
                return runner.settle(
                        id, OperationState.SUCCEEDED, EffectState.COMPLETE, Optional.of(result), Optional.empty());
            }
            boolean cancelling = entry.cancelRequested
                    || ledger.get(entry.session, id)
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
}
