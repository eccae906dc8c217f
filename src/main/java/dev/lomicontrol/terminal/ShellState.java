package dev.lomicontrol.terminal;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What one terminal believes about its shell, from the untrusted OSC 133 marks and from the input
 * sent to it: prompt state, the lease, and the retained command runs. Not thread-safe: the
 * terminal's lock guards it. Settling a run yields an action that completes its future; callers run
 * those actions after releasing the lock.
 *
 * <p>Prompt rules: A ends the prompt; B makes it ready only when a D came since the last B (a
 * redraw after a resize is not a fresh prompt) and nothing was typed since; C marks the command
 * running and the latest run started; D settles a started run with its exit code and clears typed
 * input. Any input makes the prompt not ready until the next D and B.
 */
final class ShellState {

    static final int RETAINED_RUNS = 64;
    private static final int REMEMBERED_REVOCATIONS = 16;

    private boolean running;
    private boolean pendingInput;
    private boolean freshBoundary;
    private boolean atPrompt;
    private boolean bracketedPaste;
    private boolean exited;
    private @Nullable Lease lease;
    private @Nullable CommandRun latest;
    /** The latest run was sent and no D has been seen since: C and D marks belong to it. */
    private boolean latestOpen;

    private final Map<String, CommandRun> runs = new LinkedHashMap<>();
    private final Map<String, String> revocations = new LinkedHashMap<>();

    PromptState prompt() {
        if (running) {
            return PromptState.RUNNING;
        }
        if (atPrompt && lease != null && !pendingInput) {
            return PromptState.READY;
        }
        return pendingInput ? PromptState.EDITING : PromptState.UNKNOWN;
    }

    boolean bracketedPaste() {
        return bracketedPaste;
    }

    void bracketedPaste(boolean on) {
        bracketedPaste = on;
    }

    /** Applies one OSC 133 mark seen at {@code cursor} in the text ring. */
    void mark(char kind, int code, long cursor, List<Runnable> deferred) {
        switch (kind) {
            case 'A' -> atPrompt = false;
            case 'B' -> {
                atPrompt = freshBoundary;
                freshBoundary = false;
            }
            case 'C' -> {
                running = true;
                atPrompt = false;
                CommandRun open = latest;
                if (latestOpen && open != null && !open.startedObserved()) {
                    open.markStarted(cursor);
                }
            }
            case 'D' -> {
                running = false;
                pendingInput = false;
                atPrompt = false;
                freshBoundary = true;
                commandEnded(code, cursor, deferred);
            }
            default -> throw new IllegalArgumentException("not an OSC 133 mark: " + kind);
        }
    }

    /** D: a started run completes with the code; a sent run that never started is settled as lost. */
    private void commandEnded(int code, long cursor, List<Runnable> deferred) {
        if (!latestOpen) {
            return;
        }
        latestOpen = false;
        CommandRun run = latest;
        if (run == null) {
            return; // latestOpen is only set together with latest
        }
        if (run.startedObserved() && code != OutputScanner.NO_CODE) {
            run.markCompleted(code, cursor);
            add(deferred, run.settle(new RunOutcome.Exited(code)));
        } else if (run.startedObserved()) {
            add(deferred, run.settle(new RunOutcome.Lost("the shell reported the command's end without an exit code")));
        } else {
            add(
                    deferred,
                    run.settle(new RunOutcome.Lost("the shell showed a new prompt without starting the command")));
        }
    }

    /** Typed input (or a sent command): the prompt is not ready until the next D and B. */
    void input() {
        pendingInput = true;
        atPrompt = false;
    }

    Lease grant(Lease granted, List<Runnable> deferred) {
        if (exited) {
            throw new LomiException(ErrorCode.CONTROL_REVOKED, "the shell has exited; no lease can be granted");
        }
        if (lease != null) {
            revoke("replaced by a new lease for " + granted.holder(), deferred);
        }
        lease = granted;
        return granted;
    }

    Optional<Lease> lease() {
        return Optional.ofNullable(lease);
    }

    /** Ends the current lease (if any); a run in flight is settled as lost. */
    void revoke(String reason, List<Runnable> deferred) {
        if (lease == null) {
            return;
        }
        revocations.put(lease.id(), reason);
        if (revocations.size() > REMEMBERED_REVOCATIONS) {
            revocations.remove(revocations.keySet().iterator().next());
        }
        lease = null;
        if (latest != null) {
            add(deferred, latest.settle(new RunOutcome.Lost("the lease was revoked: " + reason)));
        }
    }

    /** @throws LomiException CONTROL_REVOKED unless {@code leaseId} is the current lease */
    void requireLease(String leaseId) {
        if (lease != null && lease.id().equals(leaseId)) {
            return;
        }
        String reason = leaseId == null ? "no lease id was given" : revocations.get(leaseId);
        if (reason == null) {
            reason = exited ? "the shell exited" : "it is not this terminal's current lease";
        }
        throw new LomiException(ErrorCode.CONTROL_REVOKED, "the lease " + leaseId + " is no longer valid: " + reason);
    }

    /** @throws LomiException TARGET_BUSY with a run in flight or a command running; PROMPT_STATE_UNKNOWN unless ready */
    void requireReadyForRun() {
        if (latest != null && latest.inFlight()) {
            throw new LomiException(ErrorCode.TARGET_BUSY, "command " + latest.id() + " is still in flight");
        }
        PromptState prompt = prompt();
        if (prompt == PromptState.RUNNING) {
            throw new LomiException(ErrorCode.TARGET_BUSY, "a command is running in the foreground");
        }
        if (prompt != PromptState.READY) {
            throw new LomiException(
                    ErrorCode.PROMPT_STATE_UNKNOWN,
                    "the prompt is " + prompt.wireName()
                            + ", not ready; a fresh prompt is needed before a command can run");
        }
    }

    void remember(CommandRun run) {
        latest = run;
        latestOpen = true;
        runs.put(run.id(), run);
        if (runs.size() > RETAINED_RUNS) {
            runs.remove(runs.keySet().iterator().next());
        }
    }

    Optional<CommandRun> latest() {
        return Optional.ofNullable(latest);
    }

    Optional<CommandRun> command(String runId) {
        return Optional.ofNullable(runs.get(runId));
    }

    /** The shell exited with {@code code}: the lease dies and a run in flight is lost. */
    void exited(int code, List<Runnable> deferred) {
        String reason = "the shell exited with code " + code;
        if (latest != null) {
            add(deferred, latest.settle(new RunOutcome.Lost(reason)));
        }
        revoke("the shell exited", deferred);
        exited = true;
        running = false;
        pendingInput = false;
        atPrompt = false;
    }

    private static void add(List<Runnable> deferred, @Nullable Runnable action) {
        if (action != null) {
            deferred.add(action);
        }
    }
}
