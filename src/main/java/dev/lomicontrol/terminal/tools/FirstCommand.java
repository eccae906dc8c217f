package dev.lomicontrol.terminal.tools;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.ledger.EffectState;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.ledger.OperationError;
import dev.lomicontrol.ledger.OperationState;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.terminal.PromptState;
import dev.lomicontrol.terminal.Terminal;
import dev.lomicontrol.terminal.api.TerminalResults;
import dev.lomicontrol.tools.Encoder;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The command of a lomi_terminal_create (issue 39): once the new shell shows its first ready prompt
 * the create's own operation dispatches the command, as lomi_terminal_run would, and settles when it
 * ends with the run in its result — one operation, one receipt, so a retry replays the receipt and
 * never runs the command twice. Woken by the terminal's output, not by polling. A shell that exits,
 * or shows no ready prompt within {@link #PROMPT_TIMEOUT}, or a cancel meanwhile, settles the
 * operation with the terminal it made and without running the command.
 */
final class FirstCommand {

    /** How long a create's command waits for the shell's first ready prompt. */
    static final Duration PROMPT_TIMEOUT = Duration.ofSeconds(30);

    private static final Logger log = LoggerFactory.getLogger(FirstCommand.class);

    private final OperationRunner runner;
    private final Ledger ledger;
    private final Executor settler;
    private final Duration promptTimeout;
    private final Map<OperationId, TerminalResults.Created> waiting = new ConcurrentHashMap<>();

    FirstCommand(OperationRunner runner, Ledger ledger, Executor settler, Duration promptTimeout) {
        this.runner = runner;
        this.ledger = ledger;
        this.settler = settler;
        this.promptTimeout = promptTimeout;
    }

    /** The terminal a create whose command waits for its first prompt made. */
    Optional<TerminalResults.Created> waiting(OperationId id) {
        return Optional.ofNullable(waiting.get(id));
    }

    /** Waits (without blocking) for {@code terminal}'s first ready prompt, then runs {@code dispatch} on the settler. */
    void start(
            Operation running,
            SessionId session,
            Terminal terminal,
            TerminalResults.Created created,
            Runnable dispatch) {
        waiting.put(running.id(), created);
        AtomicBoolean fired = new AtomicBoolean();
        Runnable[] unhook = {() -> {}};
        Runnable check = () -> {
            if ((terminal.prompt() == PromptState.READY || !terminal.isAlive()) && fired.compareAndSet(false, true)) {
                settler.execute(() -> proceed(running.id(), session, terminal, created, dispatch, unhook[0], false));
            }
        };
        unhook[0] = terminal.onChange(check);
        if (fired.get()) {
            unhook[0].run(); // it fired before the handle was known: proceed may have run the no-op
        }
        CompletableFuture.delayedExecutor(promptTimeout.toMillis(), TimeUnit.MILLISECONDS, settler)
                .execute(() -> {
                    if (fired.compareAndSet(false, true)) {
                        proceed(running.id(), session, terminal, created, dispatch, unhook[0], true);
                    }
                });
        check.run();
    }

    private void proceed(
            OperationId id,
            SessionId session,
            Terminal terminal,
            TerminalResults.Created created,
            Runnable dispatch,
            Runnable unhook,
            boolean timedOut) {
        unhook.run();
        try {
            Optional<Operation> now = ledger.get(session, id);
            if (now.isEmpty() || now.get().state().isTerminal()) {
                return; // settled meanwhile (the session ended): nothing runs
            }
            Optional<OperationError> refusal = Optional.empty();
            OperationState state = OperationState.FAILED;
            if (now.get().state() == OperationState.CANCELLING) {
                state = OperationState.CANCELLED;
            } else if (!terminal.isAlive()) {
                refusal = Optional.of(new OperationError(
                        ErrorCode.TARGET_NOT_FOUND,
                        "the shell exited before its first prompt, so the command did not run; read the terminal"
                                + " (lomi_terminal_read) to see why"));
            } else if (timedOut) {
                refusal = Optional.of(new OperationError(
                        ErrorCode.PROMPT_STATE_UNKNOWN,
                        "the shell showed no ready prompt within " + promptTimeout.toSeconds() + " s, so the"
                                + " command did not run; read the terminal (lomi_terminal_read), then use"
                                + " lomi_terminal_run"));
            } else {
                dispatch.run();
                return;
            }
            runner.settle(id, state, EffectState.PARTIAL, Optional.of(Encoder.encode(created)), refusal);
        } catch (RuntimeException e) {
            log.warn("operation {}: the create's command could not be started: {}", id, e.toString());
            runner.settle(
                    id,
                    OperationState.OUTCOME_UNKNOWN,
                    EffectState.UNKNOWN,
                    Optional.of(Encoder.encode(created)),
                    Optional.of(new OperationError(
                            ErrorCode.OUTCOME_UNKNOWN,
                            "the broker failed while starting the command ("
                                    + e.getClass().getSimpleName()
                                    + "); read the terminal (lomi_terminal_read) to see whether it ran")));
        } finally {
            waiting.remove(id);
        }
    }
}
