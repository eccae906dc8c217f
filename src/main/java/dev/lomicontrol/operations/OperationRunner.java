package dev.lomicontrol.operations;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.core.ToolName;
import dev.lomicontrol.decisions.DecisionBoard;
import dev.lomicontrol.decisions.PendingDecision;
import dev.lomicontrol.ledger.CanonicalJson;
import dev.lomicontrol.ledger.EffectState;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.ledger.OperationError;
import dev.lomicontrol.ledger.OperationState;
import dev.lomicontrol.ledger.Reservation;
import dev.lomicontrol.ledger.ReserveRequest;
import dev.lomicontrol.ledger.Target;
import dev.lomicontrol.ledger.TransitionResult;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.tools.Durable;
import dev.lomicontrol.tools.Encoder;
import dev.lomicontrol.tools.ToolSpec;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The life of every durable operation (SPEC §6): reserve the receipt before any effect, answer a
 * repeat with the earlier operation, move to running only just before dispatch, and settle with a
 * typed result. A refusal found while admitting a request leaves no receipt — unless this key was
 * already used, in which case the earlier operation (or IDEMPOTENCY_CONFLICT) is the answer, so a
 * retry after a lost answer never turns into a refusal of work that already happened.
 */
public final class OperationRunner implements AutoCloseable {

    public static final Duration DECISION_TIMEOUT = Duration.ofSeconds(120);

    private static final Logger log = LoggerFactory.getLogger(OperationRunner.class);

    private final Ledger ledger;
    private final DecisionBoard board;
    private final BooleanSupplier yolo;
    private final Clock clock;
    private final Duration decisionTimeout;
    private final Map<OperationId, SessionId> awaiting = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "lomi-decision-timer");
        thread.setDaemon(true);
        return thread;
    });

    public OperationRunner(
            Ledger ledger, DecisionBoard board, BooleanSupplier yolo, Clock clock, Duration decisionTimeout) {
        this.ledger = ledger;
        this.board = board;
        this.yolo = yolo;
        this.clock = clock;
        this.decisionTimeout = decisionTimeout;
    }

    /** One OP request: who, which tool, the validated arguments, the resolved project and target. */
    public record Request(
            Session session,
            String tool,
            JsonNode arguments,
            RetryEpochId retryEpoch,
            RequestKey requestKey,
            ProjectId project,
            Target target) {

        /**
         * A request of a declared tool: the fingerprint covers the bound input as it encodes
         * (defaults filled in, {@code null} and absent alike), plus the target the broker resolved.
         */
        public static Request of(Session session, ToolSpec<?> spec, Durable input, ProjectId project, Target target) {
            return new Request(
                    session,
                    spec.name(),
                    Encoder.encode(input),
                    input.retryEpoch(),
                    input.requestKey(),
                    project,
                    target);
        }

        /** The layout-scoped target of a declared tool: workspace, resource and the expected layout revision (negative: none). */
        public static Request of(
                Session session,
                ToolSpec<?> spec,
                Durable input,
                WorkspaceAccess.Listed listed,
                String resource,
                long expectedRevision) {
            return of(
                    session,
                    spec,
                    input,
                    listed.project().id(),
                    new Target(
                            listed.workspace().id().value(),
                            resource,
                            "",
                            expectedRevision < 0 ? "" : Long.toString(expectedRevision)));
        }
    }

    /**
     * The effect of an operation; a {@link LomiException} means nothing happened (failed/none with its
     * code), except {@link Failed} (failed with a known effect) and OUTCOME_UNKNOWN (outcome_unknown).
     */
    @FunctionalInterface
    public interface Work {
        JsonNode perform(Operation operation);
    }

    /**
     * Work that ran and failed with a known effect — possibly {@code partial} — and a result that
     * describes what it left behind (a pull stopped on conflicts). The operation settles failed with
     * this effect, result and code.
     */
    public static final class Failed extends LomiException {

        private final EffectState effect;
        private final transient JsonNode result;

        public Failed(ErrorCode code, String message, EffectState effect, JsonNode result) {
            super(code, message);
            this.effect = effect;
            this.result = result;
        }
    }

    /**
     * Work that starts an effect and returns while it goes on (a provider's streamed reply); the
     * operation stays running and the caller settles it later through {@link #settle}. A
     * {@link LomiException} thrown here means nothing was started (failed/none with its code).
     */
    @FunctionalInterface
    public interface Dispatch {
        void start(Operation running);
    }

    /** Checks run before the receipt exists (revision, state); their refusal leaves nothing behind. */
    @FunctionalInterface
    public interface Admission {
        void check();
    }

    /** Reserves, runs {@code work} at once and answers the settled operation. */
    public ObjectNode immediate(Request request, Admission admission, Work work) {
        Optional<Operation> earlier = admit(request, admission);
        if (earlier.isPresent()) {
            return OperationJson.of(earlier.get());
        }
        Fresh reserved = reserve(request);
        if (!reserved.fresh()) {
            return OperationJson.of(reserved.operation());
        }
        return OperationJson.of(execute(request.session(), reserved.operation(), work));
    }

    /**
     * Reserves and parks the operation in {@code awaiting_user} with its exact plan until the admin
     * decides (YOLO approves at once); approval runs {@code work}, rejection fails it with SCOPE_DENIED,
     * silence past the timeout fails it with DEADLINE_EXCEEDED.
     */
    public ObjectNode afterApproval(Request request, Admission admission, String summary, JsonNode plan, Work work) {
        return afterApproval(request, admission, () -> summary, () -> plan, work);
    }

    /** As above, for a plan that the admission itself works out (read only after it passed). */
    public ObjectNode afterApproval(
            Request request, Admission admission, Supplier<String> summary, Supplier<JsonNode> plan, Work work) {
        return parked(request, admission, summary, plan, queued -> execute(request.session(), queued, work));
    }

    /**
     * As {@link #afterApproval}, but approval only starts the effect ({@link Dispatch}): the operation
     * is running when the approval returns and is settled by the caller when the effect ends.
     */
    public ObjectNode afterApprovalThenDispatch(
            Request request,
            Admission admission,
            Supplier<String> summary,
            Supplier<JsonNode> plan,
            Dispatch dispatch) {
        return parked(request, admission, summary, plan, queued -> dispatch(request.session(), queued, dispatch));
    }

    private ObjectNode parked(
            Request request,
            Admission admission,
            Supplier<String> summary,
            Supplier<JsonNode> plan,
            java.util.function.UnaryOperator<Operation> run) {
        Optional<Operation> earlier = admit(request, admission);
        if (earlier.isPresent()) {
            return OperationJson.of(earlier.get());
        }
        Fresh fresh = reserve(request);
        if (!fresh.fresh()) {
            return OperationJson.of(fresh.operation());
        }
        Operation reserved = fresh.operation();
        Operation parked = moved(ledger.transition(
                        reserved.id(),
                        OperationState.AWAITING_USER,
                        EffectState.NONE,
                        Optional.empty(),
                        Optional.empty()))
                .orElse(reserved);
        if (yolo.getAsBoolean()) {
            return OperationJson.of(decide(parked.id(), true, run).orElse(parked));
        }
        awaiting.put(parked.id(), request.session().id());
        board.post(
                new PendingDecision(
                        parked.id(), request.tool(), summary.get(), CanonicalJson.string(plan.get()), clock.instant()),
                approve -> decide(parked.id(), approve, run));
        timer.schedule(() -> expire(parked.id()), decisionTimeout.toMillis(), TimeUnit.MILLISECONDS);
        return OperationJson.of(parked);
    }

    /** Reserves and moves to running; the caller dispatches the effect and settles it later. Empty when it was a repeat. */
    public Reservation reserveForDispatch(Request request, Admission admission) {
        Optional<Operation> earlier = admit(request, admission);
        if (earlier.isPresent()) {
            return new Reservation.Duplicate(earlier.get());
        }
        Fresh reserved = reserve(request);
        if (!reserved.fresh()) {
            return new Reservation.Duplicate(reserved.operation());
        }
        if (!request.session().isAlive()) {
            return new Reservation.Duplicate(revoked(reserved.operation()));
        }
        TransitionResult begun = ledger.begin(reserved.operation().id());
        if (begun instanceof TransitionResult.Refused refused) {
            return new Reservation.Duplicate(refused.current());
        }
        Operation running = ((TransitionResult.Moved) begun).operation();
        if (!request.session().isAlive()) {
            return new Reservation.Duplicate(revoked(running));
        }
        return new Reservation.Reserved(running);
    }

    /** Settles a dispatched operation; a refusal (it was settled meanwhile, e.g. by revocation) keeps the earlier state. */
    public Operation settle(
            OperationId id,
            OperationState state,
            EffectState effect,
            Optional<JsonNode> result,
            Optional<OperationError> error) {
        TransitionResult outcome = ledger.transition(id, state, effect, result.map(CanonicalJson::string), error);
        if (outcome instanceof TransitionResult.Refused refused) {
            log.debug(
                    "operation {}: settling as {} refused ({}); it stays {}",
                    id,
                    state.wire(),
                    refused.message(),
                    refused.current().state().wire());
            return refused.current();
        }
        return ((TransitionResult.Moved) outcome).operation();
    }

    /** A session ended: nothing it was waiting for will be decided any more (the ledger settles the rows). */
    public void sessionEnded(SessionId session) {
        awaiting.entrySet().removeIf(entry -> {
            if (entry.getValue().equals(session)) {
                board.withdraw(entry.getKey());
                return true;
            }
            return false;
        });
    }

    /** An awaiting operation was cancelled by its owner: the admin no longer sees it. */
    public void withdrawn(OperationId id) {
        if (awaiting.remove(id) != null) {
            board.withdraw(id);
        }
    }

    /** The broker's clock (what a bounded-life token, e.g. a search cursor, is timed by). */
    public Clock clock() {
        return clock;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    private Optional<Operation> admit(Request request, Admission admission) {
        try {
            admission.check();
            return Optional.empty();
        } catch (LomiException refusal) {
            Optional<Operation> earlier = ledger.getByKey(
                    request.session().id(),
                    request.retryEpoch(),
                    new ToolName(request.tool()),
                    request.requestKey(),
                    Optional.of(request.project()));
            if (earlier.isEmpty()) {
                // a retry with a dead epoch hears that first (SPEC §6 checks the epoch before anything else), whatever
                // moved since
                Optional<String> expired = ledger.epochProblem(request.session().id(), request.retryEpoch());
                throw expired.isPresent() ? new LomiException(ErrorCode.RETRY_WINDOW_EXPIRED, expired.get()) : refusal;
            }
            return Optional.of(reserve(request).operation());
        }
    }

    /** A reserved receipt: {@code fresh} when this call created it (and so must run it), false for a repeat. */
    private record Fresh(Operation operation, boolean fresh) {}

    /** The new queued receipt, or the earlier operation for a repeat; refusals become the error answer. */
    private Fresh reserve(Request request) {
        Reservation reservation = ledger.reserve(new ReserveRequest(
                request.session().id(),
                request.retryEpoch(),
                request.project(),
                new ToolName(request.tool()),
                request.requestKey(),
                request.arguments(),
                request.target()));
        if (reservation instanceof Reservation.Refused refused) {
            throw new LomiException(refused.code(), refused.message());
        }
        if (reservation instanceof Reservation.Duplicate duplicate) {
            return new Fresh(duplicate.operation(), false);
        }
        return new Fresh(((Reservation.Reserved) reservation).operation(), true);
    }

    /**
     * Begins and performs the work, unless the session was revoked meanwhile (during admission, while
     * the admin decided, or while the ledger began it): then nothing is dispatched and the operation
     * settles cancelled/none with CONTROL_REVOKED (SPEC §3.8; F5 of the 2026-12-01 review).
     */
    private Operation execute(Session session, Operation queued, Work work) {
        if (!session.isAlive()) {
            return revoked(queued);
        }
        TransitionResult begun = ledger.begin(queued.id());
        if (begun instanceof TransitionResult.Refused refused) {
            return refused.current();
        }
        Operation running = ((TransitionResult.Moved) begun).operation();
        if (!session.isAlive()) {
            return revoked(running);
        }
        JsonNode result;
        try {
            result = work.perform(running);
        } catch (Failed failed) {
            return settle(
                    running.id(),
                    OperationState.FAILED,
                    failed.effect,
                    Optional.of(failed.result),
                    Optional.of(OperationError.of(failed)));
        } catch (LomiException refusal) {
            if (refusal.code() == ErrorCode.OUTCOME_UNKNOWN) {
                log.warn("operation {} ({}): outcome unknown: {}", running.id(), running.tool(), refusal.getMessage());
                return settle(
                        running.id(),
                        OperationState.OUTCOME_UNKNOWN,
                        EffectState.UNKNOWN,
                        Optional.empty(),
                        Optional.of(OperationError.of(refusal)));
            }
            return settle(
                    running.id(),
                    OperationState.FAILED,
                    EffectState.NONE,
                    Optional.empty(),
                    Optional.of(OperationError.of(refusal)));
        } catch (RuntimeException e) {
            log.warn("operation {} ({}) failed unexpectedly: {}", running.id(), running.tool(), e.toString());
            return settle(
                    running.id(),
                    OperationState.OUTCOME_UNKNOWN,
                    EffectState.UNKNOWN,
                    Optional.empty(),
                    Optional.of(unexpected(running, e)));
        }
        return settle(
                running.id(), OperationState.SUCCEEDED, EffectState.COMPLETE, Optional.of(result), Optional.empty());
    }

    /** Begins the operation and starts {@code dispatch}; answers the operation as it is then (running, or settled meanwhile). */
    private Operation dispatch(Session session, Operation queued, Dispatch dispatch) {
        if (!session.isAlive()) {
            return revoked(queued);
        }
        TransitionResult begun = ledger.begin(queued.id());
        if (begun instanceof TransitionResult.Refused refused) {
            return refused.current();
        }
        Operation running = ((TransitionResult.Moved) begun).operation();
        if (!session.isAlive()) {
            return revoked(running);
        }
        try {
            dispatch.start(running);
        } catch (LomiException refusal) {
            return settle(
                    running.id(),
                    OperationState.FAILED,
                    EffectState.NONE,
                    Optional.empty(),
                    Optional.of(OperationError.of(refusal)));
        } catch (RuntimeException e) {
            log.warn(
                    "operation {} ({}) failed unexpectedly while starting: {}",
                    running.id(),
                    running.tool(),
                    e.toString());
            return settle(
                    running.id(),
                    OperationState.OUTCOME_UNKNOWN,
                    EffectState.UNKNOWN,
                    Optional.empty(),
                    Optional.of(unexpected(running, e)));
        }
        return ledger.get(session.id(), running.id()).orElse(running);
    }

    /** A bug, not a refusal, while the work ran: what may have happened and how to find out. */
    private static OperationError unexpected(Operation running, RuntimeException e) {
        return new OperationError(
                ErrorCode.OUTCOME_UNKNOWN,
                "the broker failed unexpectedly while running " + running.tool().value() + " ("
                        + e.getClass().getSimpleName() + "), so it may have had an effect; check the target before"
                        + " sending it again with a new requestKey");
    }

    private Operation revoked(Operation notDispatched) {
        return settle(
                notDispatched.id(),
                OperationState.CANCELLED,
                EffectState.NONE,
                Optional.empty(),
                Optional.of(new OperationError(
                        ErrorCode.CONTROL_REVOKED,
                        "the session that sent " + notDispatched.tool().value() + " ended before it ran, so nothing"
                                + " ran; connect again (lomi_connect) and send it with the new retryEpoch")));
    }

    private Optional<Operation> decide(
            OperationId id, boolean approve, java.util.function.UnaryOperator<Operation> run) {
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
