package dev.lomicontrol.operations;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.ledger.CanonicalJson;
import dev.lomicontrol.ledger.EffectState;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.ledger.OperationError;
import dev.lomicontrol.ledger.OperationState;
import dev.lomicontrol.ledger.TransitionResult;
import dev.lomicontrol.pairing.Session;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * The effect of a reserved operation (SPEC §6): begins it ({@code running}) only while its session
 * lives, performs the work or starts the dispatch, and settles it by what happened: succeeded/complete,
 * failed with the refusal's code and the effect it left, outcome_unknown when that cannot be known,
 * cancelled/none with CONTROL_REVOKED when the session ended before anything was dispatched. A
 * settlement the ledger refuses (settled meanwhile) keeps the earlier state.
 */
final class OperationEffects {

    /** Logged under the runner's name: operators know the operation runner, not its parts. */
    private static final Logger log = LoggerFactory.getLogger(OperationRunner.class);

    private final Ledger ledger;

    OperationEffects(Ledger ledger) {
        this.ledger = ledger;
    }

    /** See {@link OperationRunner#settle}. */
    Operation settle(
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

    /**
     * Begins and performs the work, unless the session was revoked meanwhile (during admission, while
     * the admin decided, or while the ledger began it): then nothing is dispatched and the operation
     * settles cancelled/none with CONTROL_REVOKED (SPEC §3.8; F5 of the 2026-12-01 review).
     */
    Operation execute(Session session, Operation queued, OperationRunner.Work work) {
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
        return perform(running, work);
    }

    /** Runs {@code work} for a running operation and settles it: succeeded/complete, failed, or outcome_unknown. */
    Operation perform(Operation running, OperationRunner.Work work) {
        JsonNode result;
        try {
            result = work.perform(running);
        } catch (OperationRunner.Failed failed) {
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
    Operation dispatch(Session session, Operation queued, OperationRunner.Dispatch dispatch) {
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

    /** Settles an operation whose session ended before it was dispatched: cancelled/none, CONTROL_REVOKED. */
    Operation revoked(Operation notDispatched) {
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
}
