package dev.lomicontrol.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lomicontrol.core.OperationId;
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
 * An operation parked for the admin's approval, end to end through a real runner, decision board
 * and SQLite ledger: silence past the decision timeout fails it with DEADLINE_EXCEEDED and takes it
 * off the board; an approval runs it; a cancel by its owner takes it off the board.
 */
class ApprovalLifecycleTests {

    @RegisterExtension
    final Agent agent = Agent.inProject("approvals");

    final AttackCalls calls = new AttackCalls(agent);
    final AtomicBoolean performed = new AtomicBoolean();
    OperationRunner runner;

    @AfterEach
    void close() {
        if (runner != null) {
            runner.close();
        }
    }

    @Test
    void anOperationNobodyDecidesFailsWithDeadlineExceededAndLeavesTheBoard() {
        runner = calls.runner(false, Duration.ofMillis(300));

        OperationId id = park();
        assertThat(agent.broker().decisions.list())
                .extracting(d -> d.operationId())
                .containsExactly(id);

        await().atMost(Duration.ofSeconds(10)).until(() -> row(id).state() == OperationState.FAILED);
        assertThat(row(id).errorCode()).contains("DEADLINE_EXCEEDED");
        assertThat(agent.broker().decisions.list()).isEmpty();
        assertThat(performed).as("nothing ran").isFalse();
    }

    @Test
    void anApprovedOperationRunsAndSucceeds() {
        runner = calls.runner(false, Duration.ofSeconds(30));

        OperationId id = park();
        agent.broker().decisions.decide(id, true);

        assertThat(row(id).state()).isEqualTo(OperationState.SUCCEEDED);
        assertThat(performed).isTrue();
        assertThat(agent.broker().decisions.list()).isEmpty();
    }

    @Test
    void anOperationItsOwnerWithdrawsLeavesTheBoard() {
        runner = calls.runner(false, Duration.ofSeconds(30));

        OperationId id = park();
        runner.withdrawn(id);

        assertThat(agent.broker().decisions.list()).isEmpty();
        assertThat(performed).isFalse();
    }

    private OperationId park() {
        JsonNode parked = runner.afterApproval(
                request(), () -> {}, "test", BrokerCallsFixture.JSON.createObjectNode(), this::perform);
        assertThat(parked.path("state").asString()).isEqualTo("awaiting_user");
        return new OperationId(parked.path("operationId").asString());
    }

    private Operation row(OperationId id) {
        return agent.broker().ledger.get(agent.session().id(), id).orElseThrow();
    }

    private JsonNode perform(Operation operation) {
        performed.set(true);
        return BrokerCallsFixture.JSON.createObjectNode();
    }

    private OperationRunner.Request request() {
        return calls.runnerRequest(agent.key("k"));
    }
}
