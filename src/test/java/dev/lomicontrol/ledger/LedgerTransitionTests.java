package dev.lomicontrol.ledger;

import static dev.lomicontrol.ledger.LedgerFixture.moved;
import static dev.lomicontrol.ledger.LedgerFixture.request;
import static dev.lomicontrol.ledger.LedgerFixture.reserved;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LedgerTransitionTests extends OpenLedgerTest {

    /** SPEC §6, written out independently of {@link OperationState#next()}. */
    static final Map<OperationState, Set<OperationState>> ALLOWED = Map.of(
            OperationState.QUEUED,
                    EnumSet.of(
                            OperationState.AWAITING_USER,
                            OperationState.RUNNING,
                            OperationState.CANCELLED,
                            OperationState.FAILED),
            OperationState.AWAITING_USER,
                    EnumSet.of(OperationState.QUEUED, OperationState.CANCELLED, OperationState.FAILED),
            OperationState.RUNNING,
                    EnumSet.of(
                            OperationState.SUCCEEDED,
                            OperationState.FAILED,
                            OperationState.CANCELLING,
                            OperationState.OUTCOME_UNKNOWN),
            OperationState.CANCELLING,
                    EnumSet.of(
                            OperationState.CANCELLED,
                            OperationState.SUCCEEDED,
                            OperationState.FAILED,
                            OperationState.OUTCOME_UNKNOWN));

    int keys;

    @Test
    void everyTransitionNotInTheTableIsRefusedAndLeavesTheRowUnchanged() {
        for (OperationState from : OperationState.values()) {
            for (OperationState to : OperationState.values()) {
                for (EffectState effect : EffectState.values()) {
                    Operation operation = operationIn(from);
                    TransitionResult result =
                            ledger.transition(operation.id(), to, effect, Optional.empty(), Optional.empty());
                    boolean edge = ALLOWED.getOrDefault(from, Set.of()).contains(to);
                    if (!edge) {
                        assertThat(result)
                                .as(from + " -> " + to + "/" + effect)
                                .isInstanceOf(TransitionResult.Refused.class);
                        assertThat(ledger.get(session, operation.id())).contains(operation);
                    } else if (result instanceof TransitionResult.Moved) {
                        assertThat(Transitions.check(from, operation.effect(), to, effect))
                                .isEmpty();
                    }
                }
            }
        }
    }

    @Test
    void effectRulesHoldOnTheAllowedEdges() {
        assertRefused(OperationState.QUEUED, OperationState.FAILED, EffectState.PARTIAL);
        assertRefused(OperationState.RUNNING, OperationState.SUCCEEDED, EffectState.PARTIAL);
        assertRefused(OperationState.RUNNING, OperationState.OUTCOME_UNKNOWN, EffectState.NONE);
        assertMoved(OperationState.RUNNING, OperationState.FAILED, EffectState.PARTIAL);
        assertMoved(OperationState.RUNNING, OperationState.SUCCEEDED, EffectState.COMPLETE);
        assertMoved(OperationState.CANCELLING, OperationState.CANCELLED, EffectState.NONE);
    }

    @Test
    void aLateCancelCannotOverwriteACompletedEffect() {
        Operation done = operationIn(OperationState.SUCCEEDED);

        CancelResult cancel = ledger.cancel(session, done.id());

        assertThat(cancel).isInstanceOf(CancelResult.Unchanged.class);
        assertThat(ledger.get(session, done.id()).orElseThrow().state()).isEqualTo(OperationState.SUCCEEDED);
        assertThat(ledger.transition(
                        done.id(), OperationState.CANCELLED, EffectState.NONE, Optional.empty(), Optional.empty()))
                .isInstanceOf(TransitionResult.Refused.class);
    }

    @Test
    void cancelStopsQueuedWorkAndAsksRunningWorkToStop() {
        Operation queued = operationIn(OperationState.QUEUED);
        Operation running = operationIn(OperationState.RUNNING);

        assertThat(ledger.cancel(session, queued.id())).isInstanceOfSatisfying(CancelResult.Cancelled.class, c -> {
            assertThat(c.operation().state()).isEqualTo(OperationState.CANCELLED);
            assertThat(c.operation().effect()).isEqualTo(EffectState.NONE);
        });
        assertThat(ledger.cancel(session, running.id()))
                .isInstanceOfSatisfying(
                        CancelResult.StopRequested.class,
                        c -> assertThat(c.operation().state()).isEqualTo(OperationState.CANCELLING));
        assertThat(ledger.cancel(session, running.id())).isInstanceOf(CancelResult.Unchanged.class);
    }

    @Test
    void lostWorkSettlesDispatchedAsOutcomeUnknownAndUndispatchedAsCancelled() {
        Operation queued = operationIn(OperationState.QUEUED);
        Operation waiting = operationIn(OperationState.AWAITING_USER);
        Operation running = operationIn(OperationState.RUNNING);
        Operation cancelling = operationIn(OperationState.CANCELLING);
        Operation done = operationIn(OperationState.SUCCEEDED);

        List<Operation> settled = ledger.settleLost(session, "session revoked");

        assertThat(settled).hasSize(4);
        assertState(queued, OperationState.CANCELLED, EffectState.NONE);
        assertState(waiting, OperationState.CANCELLED, EffectState.NONE);
        assertState(running, OperationState.OUTCOME_UNKNOWN, EffectState.UNKNOWN);
        assertState(cancelling, OperationState.OUTCOME_UNKNOWN, EffectState.UNKNOWN);
        assertState(done, OperationState.SUCCEEDED, EffectState.COMPLETE);
    }

    @Test
    void theResultIsWrittenOnceAndTerminalRowsAreRetainedLonger() {
        Operation done = endRunning(
                OperationState.SUCCEEDED, EffectState.COMPLETE, Optional.of("{\"kind\":\"file\"}"), Optional.empty());

        assertThat(done.result()).contains("{\"kind\":\"file\"}");
        assertThat(done.completedAt()).isPresent();
        assertThat(done.retainUntil()).isAfterOrEqualTo(done.completedAt().get().plus(java.time.Duration.ofHours(24)));
        assertThat(ledger.eventsOf(done.id()))
                .extracting(LedgerEvent::state)
                .containsExactly(OperationState.QUEUED, OperationState.RUNNING, OperationState.SUCCEEDED);
    }

    @Test
    void aFailedOperationKeepsItsErrorsCodeAndMessage() {
        Operation failed = endRunning(
                OperationState.FAILED,
                EffectState.NONE,
                Optional.empty(),
                Optional.of(new OperationError(
                        ErrorCode.INVALID_ARGUMENT,
                        "ref e12 is a label, not a field that takes text; fill the field it labels instead")));

        assertThat(failed.errorCode()).contains("INVALID_ARGUMENT");
        assertThat(failed.errorMessage())
                .contains("ref e12 is a label, not a field that takes text; fill the field it labels instead");
        assertThat(ledger.get(session, failed.id()).orElseThrow().errorMessage())
                .isEqualTo(failed.errorMessage());
    }

    /** A running operation moved to {@code state} with this effect, result and error. */
    private Operation endRunning(
            OperationState state, EffectState effect, Optional<String> result, Optional<OperationError> error) {
        return moved(ledger.transition(operationIn(OperationState.RUNNING).id(), state, effect, result, error));
    }

    /** The operation moved to {@code state} with no effect, result or error. */
    private Operation withoutEffect(Operation operation, OperationState state) {
        return moved(ledger.transition(operation.id(), state, EffectState.NONE, Optional.empty(), Optional.empty()));
    }

    private Operation operationIn(OperationState state) {
        Operation operation = reserved(ledger.reserve(request(session, epoch, "k-" + keys++, "{}")));
        switch (state) {
            case QUEUED:
                return operation;
            case AWAITING_USER:
                return withoutEffect(operation, state);
            default:
                break;
        }
        Operation running = moved(ledger.begin(operation.id()));
        switch (state) {
            case RUNNING:
                return running;
            case CANCELLING:
                return withoutEffect(running, state);
            case SUCCEEDED:
                return moved(ledger.transition(
                        running.id(), state, EffectState.COMPLETE, Optional.empty(), Optional.empty()));
            case OUTCOME_UNKNOWN:
                return moved(ledger.transition(
                        running.id(), state, EffectState.UNKNOWN, Optional.empty(), Optional.empty()));
            case FAILED:
                return moved(ledger.transition(
                        running.id(),
                        state,
                        EffectState.NONE,
                        Optional.empty(),
                        Optional.of(new OperationError(
                                ErrorCode.TARGET_BUSY, "the target was busy; wait for it and send the call again"))));
            case CANCELLED:
                Operation cancelling = moved(ledger.transition(
                        running.id(), OperationState.CANCELLING, EffectState.NONE, Optional.empty(), Optional.empty()));
                return moved(ledger.transition(
                        cancelling.id(), state, EffectState.NONE, Optional.empty(), Optional.empty()));
            default:
                throw new AssertionError(state);
        }
    }

    private void assertRefused(OperationState from, OperationState to, EffectState effect) {
        Operation operation = operationIn(from);
        assertThat(ledger.transition(operation.id(), to, effect, Optional.empty(), Optional.empty()))
                .as(from + " -> " + to + "/" + effect)
                .isInstanceOf(TransitionResult.Refused.class);
    }

    private void assertMoved(OperationState from, OperationState to, EffectState effect) {
        Operation operation = operationIn(from);
        assertThat(ledger.transition(operation.id(), to, effect, Optional.empty(), Optional.empty()))
                .as(from + " -> " + to + "/" + effect)
                .isInstanceOf(TransitionResult.Moved.class);
    }

    private void assertState(Operation operation, OperationState state, EffectState effect) {
        Operation now = ledger.get(session, operation.id()).orElseThrow();
        assertThat(now.state()).isEqualTo(state);
        assertThat(now.effect()).isEqualTo(effect);
    }
}
