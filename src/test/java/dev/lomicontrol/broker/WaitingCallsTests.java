package dev.lomicontrol.broker;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.testing.Agent;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code waitMs} (issue 20) through the broker's dispatcher with real bash in real PTYs and a real
 * SQLite ledger: a run answers how it ended and what it printed in one call, a wait that ends first
 * answers running with the same operation, waiting never changes the request or re-sends it, a
 * revoked session's waiter is released at once, and reads wait for the next output or event.
 */
class WaitingCallsTests {

    static final int WAIT = 20_000;

    @RegisterExtension
    final Agent agent = Agent.inProject("wait");

    final BrokerCallsFixture broker = agent.broker();
    final Session session = agent.session();

    @Test
    void createWithWaitMsAnswersOnceThePromptIsReadyAndARunAnswersItsExitCodeAndOutput() {
        JsonNode created = create(WAIT);
        assertThat(created.path("state").asString()).isEqualTo("succeeded");
        assertThat(created.path("result").path("ready").asBoolean())
                .as("%s", created)
                .isTrue();

        JsonNode run = broker.ok(
                session, "lomi_terminal_run", run(created, "printf 'out-%s\\n' 42 && (exit 3)", "run-1", WAIT));

        assertThat(run.path("state").asString()).as("%s", run).isEqualTo("failed");
        assertThat(run.path("effectState").asString()).isEqualTo("complete");
        assertThat(run.path("result").path("exitCode").asInt()).isEqualTo(3);
        JsonNode output = run.path("result").path("output");
        assertThat(output.path("text").asString()).contains("out-42").doesNotContain("printf");
        assertThat(output.path("truncated").asBoolean()).isFalse();
        assertThat(output.path("nextCursor").asString())
                .isEqualTo(run.path("result").path("endCursor").asString());
        JsonNode byKey = broker.ok(
                session,
                "lomi_operation_get",
                json("retryEpoch", agent.epoch().value(), "requestKey", "run-1", "tool", "lomi_terminal_run"));
        assertThat(byKey.path("result").path("output"))
                .as("read back by key: the same answer")
                .isEqualTo(output);
    }

    @Test
    void theOutputTailIsBoundedAndSaysWhereTheRestStarts() {
        JsonNode created = create(WAIT);
        JsonNode run = broker.ok(
                session,
                "lomi_terminal_run",
                run(created, "head -c 20000 /dev/zero | tr '\\0' y; echo; echo tail-end", "big", WAIT));

        assertThat(run.path("state").asString()).isEqualTo("succeeded");
        JsonNode output = run.path("result").path("output");
        assertThat(output.path("text").asString()).endsWith("tail-end\r\n");
        assertThat(output.path("text").asString().length())
                .isLessThanOrEqualTo(dev.lomicontrol.terminal.tools.TerminalRunProperties.DEFAULT_OUTPUT_TAIL_BYTES);
        assertThat(output.path("truncated").asBoolean()).isTrue();
        assertThat(Long.parseLong(output.path("cursor").asString()))
                .isGreaterThan(
                        Long.parseLong(run.path("result").path("startCursor").asString()));
    }

    @Test
    void aWaitThatEndsFirstAnswersRunningWithTheSameOperationId() {
        JsonNode created = create(WAIT);
        long started = System.nanoTime();
        JsonNode run = broker.ok(session, "lomi_terminal_run", run(created, "sleep 30", "slow", 400));
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

        assertThat(run.path("state").asString()).isEqualTo("running");
        assertThat(run.path("result").isNull()).as("no result while it runs").isTrue();
        assertThat(waited).as("it waited, then gave up").isBetween(350L, 10_000L);
        String id = run.path("operationId").asString();
        JsonNode again = broker.ok(session, "lomi_operation_get", json("operationId", id, "waitMs", 300));
        assertThat(again.path("state").asString()).isEqualTo("running");
        assertThat(again.path("operationId").asString()).isEqualTo(id);
        broker.ok(session, "lomi_operation_cancel", json("operationId", id));
        JsonNode cancelled = broker.ok(session, "lomi_operation_get", json("operationId", id, "waitMs", WAIT));
        assertThat(cancelled.path("state").asString())
                .as("woken by the settlement")
                .isEqualTo("cancelled");
    }

    @Test
    void aRetryWithAnotherWaitMsIsTheSameRequestAndTypesNothingTwice() {
        JsonNode created = create(WAIT);
        String first = run(created, "echo once-$((40+2))", "same-key", 0);
        JsonNode answer = broker.ok(session, "lomi_terminal_run", first);
        String id = answer.path("operationId").asString();

        ObjectNode retry = (ObjectNode) BrokerCallsFixture.JSON.readTree(first);
        retry.put("waitMs", WAIT);
        JsonNode repeated = broker.ok(session, "lomi_terminal_run", retry.toString());

        assertThat(repeated.path("operationId").asString())
                .as("no IDEMPOTENCY_CONFLICT: waitMs is not part of the request")
                .isEqualTo(id);
        assertThat(repeated.path("state").asString()).isEqualTo("succeeded");
        String all = broker.ok(session, "lomi_terminal_read", onTerminal(created, "cursor", "0", "maxBytes", 65536))
                .path("text")
                .asString();
        assertThat(all.split("once-42", -1)).as("the command ran once: %s", all).hasSize(2);
    }

    @Test
    void aRevokedSessionsWaiterIsReleasedAtOnceWithControlRevoked() throws Exception {
        JsonNode created = create(WAIT);
        String id = broker.ok(session, "lomi_terminal_run", run(created, "sleep 60", "long", 0))
                .path("operationId")
                .asString();
        CompletableFuture<JsonNode> waiting = CompletableFuture.supplyAsync(
                () -> broker.call(session, "lomi_operation_get", json("operationId", id, "waitMs", WAIT)));
        awaitOneWaiting();

        long revoked = System.nanoTime();
        broker.sessions.revoke(session.id(), "admin revoked it");
        JsonNode answer = waiting.get(5, TimeUnit.SECONDS);

        // generous: "at once" against a 20 s wait; half of it separates the two even on a loaded machine
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - revoked))
                .as("released at once, not at the end of its wait")
                .isLessThan(WAIT / 2);
        assertThat(answer.path("code").asString()).isEqualTo(ErrorCode.CONTROL_REVOKED.name());
        assertThat(broker.calls.waitingCalls()).isZero();
    }

    @Test
    void eventsReadWaitsForTheNextEventAndAnswersAnEmptyPageWhenNoneCame() throws Exception {
        String workspace = agent.workspace();
        JsonNode quiet = broker.ok(session, "lomi_events_read", json("workspaceId", workspace));
        String cursor = quiet.path("nextCursor").asString();
        long started = System.nanoTime();
        JsonNode none =
                broker.ok(session, "lomi_events_read", json("workspaceId", workspace, "cursor", cursor, "waitMs", 300));
        assertThat(none.path("events").size()).isZero();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isGreaterThanOrEqualTo(290);

        CompletableFuture<JsonNode> next = CompletableFuture.supplyAsync(() -> broker.ok(
                session, "lomi_events_read", json("workspaceId", workspace, "cursor", cursor, "waitMs", WAIT)));
        awaitOneWaiting();
        create(0);
        JsonNode page = next.get(10, TimeUnit.SECONDS);
        assertThat(page.path("events").size()).isPositive();
        assertThat(page.path("events").get(0).path("tool").asString()).isEqualTo("lomi_terminal_create");
    }

    @Test
    void terminalReadWaitsForNewOutputAndCommandModeForTheRunsEnd() throws Exception {
        JsonNode created = create(WAIT);
        String end = broker.ok(session, "lomi_terminal_read", onTerminal(created, "cursor", "0", "maxBytes", 65536))
                .path("nextCursor")
                .asString();
        CompletableFuture<JsonNode> later = CompletableFuture.supplyAsync(
                () -> broker.ok(session, "lomi_terminal_read", onTerminal(created, "cursor", end, "waitMs", WAIT)));
        awaitOneWaiting();
        String id = broker.ok(session, "lomi_terminal_run", run(created, "sleep 0.3; echo late-$((1+1))", "late", 0))
                .path("operationId")
                .asString();
        assertThat(later.get(10, TimeUnit.SECONDS).path("text").asString()).isNotEmpty();

        JsonNode command = broker.ok(
                session,
                "lomi_terminal_read",
                onTerminal(created, "mode", "command", "operationId", id, "waitMs", WAIT));
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .until(() -> broker.ok(
                                session,
                                "lomi_terminal_read",
                                onTerminal(created, "mode", "command", "operationId", id, "waitMs", WAIT))
                        .path("command")
                        .path("completed")
                        .asBoolean());
        assertThat(command.path("kind").asString()).isEqualTo("terminal_output");
    }

    @Test
    void waitMsIsCheckedLikeEveryFieldAndOnlyWhereDeclared() {
        JsonNode created = create(0);
        assertThat(broker.refused(
                        session,
                        "lomi_operation_get",
                        json("operationId", created.path("operationId").asString(), "waitMs", 25_001)))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(broker.refused(
                        session,
                        "lomi_operation_get",
                        json("operationId", created.path("operationId").asString(), "waitMs", "100")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(broker.refused(session, "lomi_workspace_list", json("waitMs", 100)))
                .as("a read that does not wait")
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(broker.ok(
                                session,
                                "lomi_operation_get",
                                json("operationId", created.path("operationId").asString(), "waitMs", null))
                        .path("state")
                        .asString())
                .as("null = absent")
                .isEqualTo("succeeded");
    }

    // --- helpers

    /** lomi_terminal_create in the project's workspace, waiting {@code waitMs}. */
    private JsonNode create(int waitMs) {
        return agent.ok(
                "lomi_terminal_create",
                "workspaceId",
                agent.workspace(),
                "cwdRelative",
                "",
                "expectedRevision",
                broker.revision(),
                "retryEpoch",
                agent.epoch().value(),
                "requestKey",
                agent.key("create"),
                "waitMs",
                waitMs);
    }

    private String run(JsonNode created, String command, String key, int waitMs) {
        return onTerminal(
                created,
                "leaseId",
                created.path("result").path("leaseId").asString(),
                "command",
                command,
                "retryEpoch",
                agent.epoch().value(),
                "requestKey",
                key,
                "waitMs",
                waitMs);
    }

    /** {@code pairs} naming the created terminal (workspace, panel and terminal session). */
    private String onTerminal(JsonNode created, Object... pairs) {
        JsonNode result = created.path("result");
        ObjectNode node = (ObjectNode) BrokerCallsFixture.JSON.readTree(json(pairs));
        node.put("workspaceId", result.path("workspaceId").asString());
        node.put("panelId", result.path("panelId").asString());
        node.put("terminalSessionId", result.path("terminalSessionId").asString());
        return node.toString();
    }

    /** Waits until exactly one call is parked in the broker, waiting. */
    private void awaitOneWaiting() {
        Awaitility.await("a call is waiting")
                .atMost(Duration.ofSeconds(10))
                .until(() -> broker.calls.waitingCalls() == 1);
    }
}
