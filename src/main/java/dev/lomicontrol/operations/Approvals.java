package dev.lomicontrol.operations;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.decisions.DecisionBoard;
import dev.lomicontrol.decisions.PendingDecision;
import dev.lomicontrol.ledger.CanonicalJson;
import dev.lomicontrol.ledger.EffectState;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.ledger.OperationError;
import dev.lomicontrol.ledger.OperationState;
import dev.lomicontrol.ledger.TransitionResult;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import tools.jackson.databind.JsonNode;

/**
 * The operations parked in {@code awaiting_user} until the admin decides (SPEC §6): each is posted
 * with its exact plan on the {@link DecisionBoard} (YOLO approves at once); approval runs it,
 * rejection fails it with SCOPE_DENIED, silence past the timeout (one timer thread) fails it with
 * DEADLINE_EXCEEDED, and its session's end or its owner's cancel withdraws it from the board. Whichever
 * comes first takes the operation out of {@link #awaiting}; the ledger refuses a later transition.
 */
final class Approvals implements AutoCloseable {

    private final Ledger ledger;
    private final DecisionBoard board;
    private final BooleanSupplier yolo;
    private final Clock clock;
    private final Duration decisionTimeout;

    /** Each parked operation and the session waiting for it, until decided, expired or withdrawn. */
    private final Map<OperationId, SessionId> awaiting = new ConcurrentHashMap<>();

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "lomi-decision-timer");
        thread.setDaemon(true);
        return thread;
    });

    Approvals(Ledger ledger, DecisionBoard board, BooleanSupplier yolo, Clock clock, Duration decisionTimeout) {
        this.ledger = ledger;
        this.board = board;
        this.yolo = yolo;
        this.clock = clock;
        this.decisionTimeout = decisionTimeout;
    }

    /**
     * Moves the fresh receipt {@code reserved} to {@code awaiting_user} and asks the admin (or YOLO
     * decides at once); {@code run} runs it once approved. Answers the operation as it is then.
     */
    Operation park(
            Operation reserved,
            OperationRunner.Request request,
            Supplier<String> summary,
            Supplier<JsonNode> plan,
            UnaryOperator<Operation> run) {
        Operation parked = moved(ledger.transition(
                        reserved.id(),
                        OperationState.AWAITING_USER,
                        EffectState.NONE,
                        Optional.empty(),
                        Optional.empty()))
                .orElse(reserved);
        if (yolo.getAsBoolean()) {
            return decide(parked.id(), true, run).orElse(parked);
        }
        awaiting.put(parked.id(), request.session().id());
        board.post(
                new PendingDecision(
                        parked.id(), request.tool(), summary.get(), CanonicalJson.string(plan.get()), clock.instant()),
                approve -> decide(parked.id(), approve, run));
        timer.schedule(() -> expire(parked.id()), decisionTimeout.toMillis(), TimeUnit.MILLISECONDS);
        return parked;
    }

    /** See {@link OperationRunner#sessionEnded}. */
    void sessionEnded(SessionId session) {
        awaiting.entrySet().removeIf(entry -> {
            if (entry.getValue().equals(session)) {
                board.withdraw(entry.getKey());
                return true;
            }
            return false;
        });
    }

    /** See {@link OperationRunner#withdrawn}. */
    void withdrawn(OperationId id) {
        if (awaiting.remove(id) != null) {
            board.withdraw(id);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    private Optional<Operation> decide(OperationId id, boolean approve, UnaryOperator<Operation> run) {
        awaiting.remove(id);
        if (!approve) {
            return moved(ledger.transition(
                    id,
                    OperationState.FAILED,
                    EffectState.NONE,
                    Optional.empty(),
                    Optional.of(new OperationError(
                            ErrorCode.SCOPE_DENIED,
                            "the user declined operation " + id + ", so nothing ran; ask the user what they want"
                                    + " instead before sending it again with a new requestKey"))));
        }
        Optional<Operation> queued = moved(
                ledger.transition(id, OperationState.QUEUED, EffectState.NONE, Optional.empty(), Optional.empty()));
        return queued.map(run);
    }

    private void expire(OperationId id) {
        if (awaiting.remove(id) != null) {
            board.withdraw(id);
            moved(ledger.transition(
                    id,
                    OperationState.FAILED,
                    EffectState.NONE,
                    Optional.empty(),
                    Optional.of(new OperationError(
                            ErrorCode.DEADLINE_EXCEEDED,
                            "nobody approved operation " + id + " within "
                                    + (decisionTimeout.toSeconds() > 0
                                            ? decisionTimeout.toSeconds() + " s"
                                            : decisionTimeout.toMillis() + " ms")
                                    + ", so nothing ran; ask the user to watch for it (lomi-control console:"
                                    + " decision list) and send it again with a new requestKey"))));
        }
    }

    private static Optional<Operation> moved(TransitionResult result) {
        return result instanceof TransitionResult.Moved m ? Optional.of(m.operation()) : Optional.empty();
    }
}
