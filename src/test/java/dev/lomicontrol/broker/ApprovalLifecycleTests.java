package dev.lomicontrol.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.ledger.OperationState;
import dev.lomicontrol.ledger.Target;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Project;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * An operation parked for the admin's approval, end to end through a real runner, decision board
 * and SQLite ledger: silence past the decision timeout fails it with DEADLINE_EXCEEDED and takes it
 * off the board; an approval runs it; a cancel by its owner takes it off the board.
 */
class ApprovalLifecycleTests {

    @TempDir
    Path temp;

    BrokerCallsFixture broker;
    Project project;
    Session session;
    RetryEpochId epoch;
    OperationRunner runner;
    final AtomicBoolean performed = new AtomicBoolean();
    int keys;

    @BeforeEach
    void open() {
        broker = new BrokerCallsFixture(temp);
        project = broker.project("approvals");
        session = broker.session();
        epoch = broker.connect(session, project);
    }

    @AfterEach
    void close() {
        if (runner != null) {
            runner.close();
        }
        broker.close();
    }

    @Test
    void anOperationNobodyDecidesFailsWithDeadlineExceededAndLeavesTheBoard() {
        runner =
                new OperationRunner(broker.ledger, broker.decisions, () -> false, broker.clock, Duration.ofMillis(300));

        OperationId id = park();
        assertThat(broker.decisions.list()).extracting(d -> d.operationId()).containsExactly(id);

        await().atMost(Duration.ofSeconds(10)).until(() -> row(id).state() == OperationState.FAILED);
        assertThat(row(id).errorCode()).contains("DEADLINE_EXCEEDED");
        assertThat(broker.decisions.list()).isEmpty();
        assertThat(performed).as("nothing ran").isFalse();
    }

    @Test
    void anApprovedOperationRunsAndSucceeds() {
        runner =
                new OperationRunner(broker.ledger, broker.decisions, () -> false, broker.clock, Duration.ofSeconds(30));

        OperationId id = park();
        broker.decisions.decide(id, true);

        assertThat(row(id).state()).isEqualTo(OperationState.SUCCEEDED);
        assertThat(performed).isTrue();
        assertThat(broker.decisions.list()).isEmpty();
    }

    @Test
    void anOperationItsOwnerWithdrawsLeavesTheBoard() {
        runner =
                new OperationRunner(broker.ledger, broker.decisions, () -> false, broker.clock, Duration.ofSeconds(30));

        OperationId id = park();
        runner.withdrawn(id);

        assertThat(broker.decisions.list()).isEmpty();
        assertThat(performed).isFalse();
    }

    private OperationId park() {
        JsonNode parked = runner.afterApproval(
                request(), () -> {}, "test", BrokerCallsFixture.JSON.createObjectNode(), this::perform);
        assertThat(parked.path("state").asString()).isEqualTo("awaiting_user");
        return new OperationId(parked.path("operationId").asString());
    }

    private Operation row(OperationId id) {
        return broker.ledger.get(session.id(), id).orElseThrow();
    }

    private JsonNode perform(Operation operation) {
        performed.set(true);
        return BrokerCallsFixture.JSON.createObjectNode();
    }

    private OperationRunner.Request request() {
        return new OperationRunner.Request(
                session,
                "lomi_files_mutate",
                BrokerCallsFixture.JSON.createObjectNode(),
                epoch,
                new RequestKey("k-" + ++keys),
                project.id(),
                new Target(BrokerCallsFixture.workspaceOf(project), "resource", "", ""));
    }
}
