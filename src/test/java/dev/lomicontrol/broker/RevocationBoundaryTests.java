package dev.lomicontrol.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.ledger.OperationState;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.testing.Agent;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * F5 (security review 2026-12-01): a call already past its "is the session alive" check when the
 * admin revokes the session dispatches nothing; its operation settles cancelled/none. The
 * revocation arrives deterministically inside the admission (where the real calls spend their time:
 * directory snapshots, git plans), through the real sessions and a real SQLite ledger.
 */
class RevocationBoundaryTests {

    @RegisterExtension
    final Agent agent = Agent.inProject("revoked");

    final AttackCalls calls = new AttackCalls(agent);
    final AtomicBoolean performed = new AtomicBoolean();
    OperationRunner runner;
    String lastKey = "";

    @AfterEach
    void close() {
        if (runner != null) {
            runner.close();
        }
    }

    @Test
    void anImmediateOperationRevokedDuringItsAdmissionIsNeverPerformed() {
        runner = calls.runner(false, Duration.ofSeconds(30));

        neverPerformed(() -> runner.immediate(request(), this::revokeNow, this::perform)
                .path("operationId")
                .asString());
    }

    @Test
    void aYoloApprovedOperationRevokedDuringItsAdmissionIsNeverPerformed() {
        runner = calls.runner(true, Duration.ofSeconds(30));

        neverPerformed(() -> runner.afterApproval(
                        request(), this::revokeNow, "test", BrokerCallsFixture.JSON.createObjectNode(), this::perform)
                .path("operationId")
                .asString());
    }

    @Test
    void aDispatchReservationRevokedDuringItsAdmissionIsNotHandedOutForDispatch() {
        runner = calls.runner(false, Duration.ofSeconds(30));

        neverPerformed(() -> {
            OperationRunner.Start<Boolean> reservation = runner.reserveForDispatch(request(), () -> {
                revokeNow();
                return Boolean.TRUE;
            });
            assertThat(reservation).as("nothing to dispatch").isInstanceOf(OperationRunner.Start.Answered.class);
            return ((OperationRunner.Start.Answered<Boolean>) reservation)
                    .operation()
                    .id()
                    .value();
        });
    }

    private void revokeNow() {
        agent.broker().sessions.revoke(agent.session().id(), "the admin revoked it mid-call");
    }

    private JsonNode perform(Operation operation) {
        performed.set(true);
        return BrokerCallsFixture.JSON.createObjectNode();
    }

    /**
     * The call either leaves a receipt settled as never dispatched, or — once the revocation has
     * also ended the connection's retry epoch — is refused before any receipt exists; either way
     * the effect never ran.
     */
    private void neverPerformed(java.util.function.Supplier<String> call) {
        String operationId;
        try {
            operationId = call.get();
        } catch (dev.lomicontrol.core.LomiException refused) {
            assertThat(refused.code())
                    .isIn(
                            dev.lomicontrol.core.ErrorCode.CONTROL_REVOKED,
                            dev.lomicontrol.core.ErrorCode.RETRY_WINDOW_EXPIRED);
            assertThat(performed).as("the effect was never performed").isFalse();
            assertThat(agent.broker()
                            .ledger
                            .getByKey(
                                    agent.session().id(),
                                    agent.epoch(),
                                    new dev.lomicontrol.core.ToolName("lomi_files_mutate"),
                                    new RequestKey(lastKey),
                                    java.util.Optional.of(agent.project().id())))
                    .as("no receipt")
                    .isEmpty();
            return;
        }
        assertNotDispatched(operationId);
    }

    private void assertNotDispatched(String operationId) {
        assertThat(performed).as("the effect was never performed").isFalse();
        Operation row = agent.broker()
                .ledger
                .get(agent.session().id(), new dev.lomicontrol.core.OperationId(operationId))
                .orElseThrow();
        assertThat(row.state()).as("settled as never dispatched").isEqualTo(OperationState.CANCELLED);
        assertThat(row.effect().wire()).isEqualTo("none");
    }

    private OperationRunner.Request request() {
        lastKey = agent.key("k");
        return calls.runnerRequest(lastKey);
    }
}
