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
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The life of every durable operation (SPEC §6): reserve the receipt before any effect, answer a
 * repeat with the earlier operation, move to running only just before dispatch, and settle with a
 * typed result. A refusal found while admitting a request leaves no receipt — unless this key was
 * already used, in which case the earlier operation (or IDEMPOTENCY_CONFLICT) is the answer, so a
 * retry after a lost answer never turns into a refusal of work that already happened. An operation
 * that needs the admin's approval waits in {@link Approvals}; {@link OperationEffects} runs the
 * effect and settles the operation.
 */
public final class OperationRunner implements AutoCloseable {

    public static final Duration DECISION_TIMEOUT = Duration.ofSeconds(120);

    private final Ledger ledger;
    private final Clock clock;
    private final OperationEffects effects;
    private final Approvals approvals;

    public OperationRunner(
            Ledger ledger, DecisionBoard board, BooleanSupplier yolo, Clock clock, Duration decisionTimeout) {
        this.ledger = ledger;
        this.clock = clock;
        this.effects = new OperationEffects(ledger);
        this.approvals = new Approvals(ledger, board, yolo, clock, decisionTimeout);
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

        /** The layout-scoped target of a declared tool: workspace, resource and the expected layout revision, if the call names one. */
        public static Request of(
                Session session,
                ToolSpec<?> spec,
                Durable input,
                WorkspaceAccess.Listed listed,
                String resource,
                OptionalLong expectedRevision) {
            return of(
                    session,
                    spec,
                    input,
                    listed.project().id(),
                    new Target(
                            listed.workspace().id().value(),
                            resource,
                            "",
                            expectedRevision.isPresent() ? Long.toString(expectedRevision.getAsLong()) : ""));
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

        /** Read by {@link OperationEffects} when it settles the operation. */
        final EffectState effect;

        final transient JsonNode result;

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

    /** An admission that answers what it admitted (the plan its work then runs); a {@link LomiException} is the refusal. */
    @FunctionalInterface
    public interface Admitting<P> {
        P admit();
    }

    /** The effect of an admitted plan (see {@link Work}). */
    @FunctionalInterface
    public interface PlannedWork<P> {
        JsonNode perform(Operation operation, P plan);
    }

    /** Reserves, runs {@code work} at once and answers the settled operation. */
    /** As {@link #immediate(Request, Admission, Work)}, the work receiving what the admission admitted. */
    public <P> ObjectNode immediate(Request request, Admitting<P> admission, PlannedWork<P> work) {
        Admitted<P> admitted = admitPlan(request, admission);
        if (admitted instanceof Admitted.Earlier<P> earlier) {
            return OperationJson.of(earlier.operation());
        }
        P plan = ((Admitted.Plan<P>) admitted).plan();
        Fresh reserved = reserve(request);
        if (!reserved.fresh()) {
            return OperationJson.of(reserved.operation());
        }
        return OperationJson.of(
                effects.execute(request.session(), reserved.operation(), operation -> work.perform(operation, plan)));
    }

    public ObjectNode immediate(Request request, Admission admission, Work work) {
        Optional<Operation> earlier = admit(request, admission);
        if (earlier.isPresent()) {
            return OperationJson.of(earlier.get());
        }
        Fresh reserved = reserve(request);
        if (!reserved.fresh()) {
            return OperationJson.of(reserved.operation());
        }
        return OperationJson.of(effects.execute(request.session(), reserved.operation(), work));
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
        return parked(request, admission, summary, plan, queued -> effects.execute(request.session(), queued, work));
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
        return parked(
                request, admission, summary, plan, queued -> effects.dispatch(request.session(), queued, dispatch));
    }

    /**
     * As {@link #afterApproval}, the work running on a thread of its own: the admin's decision returns
     * at once with the operation running, and the work settles it when it ends, as {@link #afterApproval}'s
     * would (for an effect that may take minutes: an install, an SDK download).
     */
    public ObjectNode afterApprovalInBackground(
            Request request, Admission admission, Supplier<String> summary, Supplier<JsonNode> plan, Work work) {
        return afterApprovalThenDispatch(request, admission, summary, plan, running -> {
            Thread thread = new Thread(
                    () -> effects.perform(running, work),
                    "lomi-" + running.tool().value() + "-" + running.id().value());
            thread.setDaemon(true);
            thread.start();
        });
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
        return OperationJson.of(approvals.park(fresh.operation(), request, summary, plan, run));
    }

    /**
     * What {@link #reserveForDispatch} did: the operation now runs and the caller dispatches its effect
     * ({@link Begun}), or the call is answered with an operation as it stands ({@link Answered}: a
     * repeat of the request key, a ledger that refused to begin it, or a session revoked meanwhile).
     */
    public sealed interface Start<P> {
        /** It runs: dispatch {@code plan}, what the admission admitted. */
        record Begun<P>(Operation running, P plan) implements Start<P> {}

        record Answered<P>(Operation operation) implements Start<P> {}
    }

    /** Reserves and moves to running; the caller dispatches the effect and settles it later. */
    public <P> Start<P> reserveForDispatch(Request request, Admitting<P> admission) {
        Admitted<P> admitted = admitPlan(request, admission);
        if (admitted instanceof Admitted.Earlier<P> earlier) {
            return new Start.Answered<>(earlier.operation());
        }
        P plan = ((Admitted.Plan<P>) admitted).plan();
        Fresh reserved = reserve(request);
        if (!reserved.fresh()) {
            return new Start.Answered<>(reserved.operation());
        }
        if (!request.session().isAlive()) {
            return new Start.Answered<>(effects.revoked(reserved.operation()));
        }
        TransitionResult begun = ledger.begin(reserved.operation().id());
        if (begun instanceof TransitionResult.Refused refused) {
            return new Start.Answered<>(refused.current());
        }
        Operation running = ((TransitionResult.Moved) begun).operation();
        if (!request.session().isAlive()) {
            return new Start.Answered<>(effects.revoked(running));
        }
        return new Start.Begun<>(running, plan);
    }

    /** Settles a dispatched operation; a refusal (it was settled meanwhile, e.g. by revocation) keeps the earlier state. */
    public Operation settle(
            OperationId id,
            OperationState state,
            EffectState effect,
            Optional<JsonNode> result,
            Optional<OperationError> error) {
        return effects.settle(id, state, effect, result, error);
    }

    /**
     * Settles a dispatched operation whose effect was refused with {@code e}: outcome_unknown/unknown
     * when its code is OUTCOME_UNKNOWN (the effect may have happened), else failed/none.
     */
    public Operation settleRefused(OperationId id, LomiException e) {
        boolean unknown = e.code() == ErrorCode.OUTCOME_UNKNOWN;
        return settle(
                id,
                unknown ? OperationState.OUTCOME_UNKNOWN : OperationState.FAILED,
                unknown ? EffectState.UNKNOWN : EffectState.NONE,
                Optional.empty(),
                Optional.of(OperationError.of(e)));
    }

    /** Settles a dispatched operation whose effect failed unexpectedly: outcome_unknown/unknown, {@code message} saying what to check. */
    public Operation settleUnknown(OperationId id, String message) {
        return settle(
                id,
                OperationState.OUTCOME_UNKNOWN,
                EffectState.UNKNOWN,
                Optional.empty(),
                Optional.of(new OperationError(ErrorCode.OUTCOME_UNKNOWN, message)));
    }

    /** A session ended: nothing it was waiting for will be decided any more (the ledger settles the rows). */
    public void sessionEnded(SessionId session) {
        approvals.sessionEnded(session);
    }

    /** An awaiting operation was cancelled by its owner: the admin no longer sees it. */
    public void withdrawn(OperationId id) {
        approvals.withdrawn(id);
    }

    /** The broker's clock (what a bounded-life token, e.g. a search cursor, is timed by). */
    public Clock clock() {
        return clock;
    }

    @Override
    public void close() {
        approvals.close();
    }

    /** What an admission answered: its plan, or (refused) the earlier operation of a repeated request key. */
    private sealed interface Admitted<P> {
        record Plan<P>(P plan) implements Admitted<P> {}

        record Earlier<P>(Operation operation) implements Admitted<P> {}
    }

    private Optional<Operation> admit(Request request, Admission admission) {
        Admitted<Boolean> admitted = admitPlan(request, () -> {
            admission.check();
            return Boolean.TRUE;
        });
        return admitted instanceof Admitted.Earlier<Boolean> earlier
                ? Optional.of(earlier.operation())
                : Optional.empty();
    }

    /**
     * Runs the admission; a refusal is the answer unless the request key was used before (then the
     * earlier operation is), and a dead retry epoch is said first.
     */
    private <P> Admitted<P> admitPlan(Request request, Admitting<P> admission) {
        try {
            return new Admitted.Plan<>(admission.admit());
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
            return new Admitted.Earlier<>(reserve(request).operation());
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
}
