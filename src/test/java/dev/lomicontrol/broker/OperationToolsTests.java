package dev.lomicontrol.broker;

import static dev.lomicontrol.broker.BrokerCallsFixture.workspaceOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.ledger.EffectState;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.ledger.OperationState;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.Scopes;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.testing.Agent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/** {@code lomi_operation_get}, {@code lomi_operation_cancel} and {@code lomi_events_read} over a real ledger. */
class OperationToolsTests {

    static final String TOOL = "lomi_files_mutate";

    @RegisterExtension
    final Agent agent = Agent.inProject("p1");

    @Test
    void anOperationIsReadByIdAndByItsReceiptKey() {
        Operation operation = reserve("k-1");

        JsonNode byId = agent.broker()
                .ok(agent.session(), "lomi_operation_get", "{\"operationId\":\"" + operation.id() + "\"}");
        JsonNode byKey = agent.broker().ok(agent.session(), "lomi_operation_get", key("k-1", Optional.empty()));
        JsonNode byKeyInProject = agent.broker()
                .ok(
                        agent.session(),
                        "lomi_operation_get",
                        key("k-1", Optional.of(agent.project().id().value())));

        assertThat(byId.path("kind").asString()).isEqualTo("operation");
        assertThat(byId.path("operationId").asString()).isEqualTo(operation.id().value());
        assertThat(byId.path("tool").asString()).isEqualTo(TOOL);
        assertThat(byId.path("state").asString()).isEqualTo("queued");
        assertThat(byId.path("effectState").asString()).isEqualTo("none");
        assertThat(byId.path("workspaceId").asString()).isEqualTo(workspaceOf(agent.project()));
        assertThat(byId.path("createdAt").asString())
                .isEqualTo(agent.broker().clock.instant().toString());
        assertThat(byId.path("result").isNull()).isTrue();
        assertThat(byId.path("completedAt").isNull()).isTrue();
        assertThat(byKey).isEqualTo(byId);
        assertThat(byKeyInProject).isEqualTo(byId);
        assertThat(agent.broker().refused(agent.session(), "lomi_operation_get", key("k-2", Optional.empty())))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
    }

    @Test
    void aFinishedOperationShowsItsParsedResultAndCompletion() {
        Operation operation = reserve("k-1");
        agent.broker().ledger.begin(operation.id());
        agent.broker().clock.advance(Duration.ofSeconds(2));
        succeed(operation, "{\"path\":\"a.txt\",\"bytes\":3}");

        JsonNode data = agent.broker()
                .ok(agent.session(), "lomi_operation_get", "{\"operationId\":\"" + operation.id() + "\"}");

        assertThat(data.path("state").asString()).isEqualTo("succeeded");
        assertThat(data.path("effectState").asString()).isEqualTo("complete");
        assertThat(data.path("result").isObject()).isTrue();
        assertThat(data.path("result").path("bytes").asInt()).isEqualTo(3);
        assertThat(data.path("completedAt").asString())
                .isEqualTo(agent.broker().clock.instant().toString());
    }

    @Test
    void anotherSessionsReceiptIsNotFoundExactlyLikeAnUnknownOne() {
        Operation operation = reserve("k-1");
        Session stranger = agent.broker().session();

        JsonNode foreign =
                agent.broker().call(stranger, "lomi_operation_get", "{\"operationId\":\"" + operation.id() + "\"}");
        JsonNode unknown =
                agent.broker().call(stranger, "lomi_operation_get", "{\"operationId\":\"" + "ab".repeat(20) + "\"}");

        assertThat(foreign.path("code").asString()).isEqualTo("TARGET_NOT_FOUND");
        assertThat(foreign).isEqualTo(unknown);
        assertThat(agent.broker().refused(stranger, "lomi_operation_get", key("k-1", Optional.empty())))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        assertThat(agent.broker()
                        .refused(stranger, "lomi_operation_cancel", "{\"operationId\":\"" + operation.id() + "\"}"))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        assertThat(agent.broker()
                        .ledger
                        .get(agent.session().id(), operation.id())
                        .orElseThrow()
                        .state())
                .isEqualTo(OperationState.QUEUED);
    }

    @Test
    void operationGetTakesExactlyOneVariant() {
        Operation operation = reserve("k-1");
        String both = "{\"operationId\":\"" + operation.id() + "\",\"retryEpoch\":\"" + agent.epoch()
                + "\",\"requestKey\":\"k-1\",\"tool\":\"" + TOOL + "\"}";

        assertThat(agent.broker().refused(agent.session(), "lomi_operation_get", both))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(agent.broker().refused(agent.session(), "lomi_operation_get", "{}"))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(agent.broker()
                        .refused(
                                agent.session(),
                                "lomi_operation_get",
                                "{\"retryEpoch\":\"" + agent.epoch() + "\",\"requestKey\":\"k-1\"}"))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(agent.broker()
                        .refused(
                                agent.session(),
                                "lomi_operation_get",
                                "{\"operationId\":\"" + operation.id() + "\",\"projectId\":\""
                                        + agent.project().id() + "\"}"))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(agent.broker().refused(agent.session(), "lomi_operation_get", "{\"operationId\":\"not-hex\"}"))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(agent.broker().refused(agent.session(), "lomi_operation_get", "{\"operationId\":42}"))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void aKeyUsedInTwoProjectsNeedsTheProjectId() {
        Project second = agent.broker().project("p2");
        reserve("k-1");
        Operation inSecond = agent.broker().reserve(agent.session(), agent.epoch(), second, TOOL, "k-1");

        assertThat(agent.broker().refused(agent.session(), "lomi_operation_get", key("k-1", Optional.empty())))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(agent.broker()
                        .ok(
                                agent.session(),
                                "lomi_operation_get",
                                key("k-1", Optional.of(second.id().value())))
                        .path("operationId")
                        .asString())
                .isEqualTo(inSecond.id().value());
    }

    @Test
    void cancellingQueuedWorkCancelsItBeforeDispatchWithoutAStop() {
        Operation operation = reserve("k-1");

        JsonNode data = cancel(operation);

        assertThat(data.path("kind").asString()).isEqualTo("operation");
        assertAnsweredWithoutAStop(data, "cancelled", "none", "cancelled");
    }

    @Test
    void cancellingRunningWorkMovesItToCancellingAndAsksForANativeStop() {
        Operation operation = reserve("k-1");
        agent.broker().ledger.begin(operation.id());

        JsonNode data = cancel(operation);

        assertThat(data.path("state").asString()).isEqualTo("cancelling");
        assertThat(data.path("cancel").asString()).isEqualTo("stop_requested");
        assertThat(data.path("stopRequested").asBoolean()).isTrue();
        assertThat(data.path("stopDelivered").asBoolean()).isTrue();
        assertThat(agent.broker().stopRequests).singleElement().satisfies(op -> {
            assertThat(op.id()).isEqualTo(operation.id());
            assertThat(op.state()).isEqualTo(OperationState.CANCELLING);
        });
    }

    @Test
    void cancellingFinishedWorkReturnsItUnchanged() {
        Operation operation = reserve("k-1");
        agent.broker().ledger.begin(operation.id());
        succeed(operation, "{}");

        JsonNode data = cancel(operation);

        assertAnsweredWithoutAStop(data, "succeeded", "complete", "unchanged");
    }

    @Test
    void theEventFeedPagesOneWorkspaceAndContinuesAfterAnEmptyPage() {
        Project other = agent.broker().project("p2");
        Operation first = reserve("k-1");
        agent.broker().reserve(agent.session(), agent.epoch(), other, TOOL, "elsewhere");
        agent.broker().ledger.begin(first.id());
        Operation second = reserve("k-2");
        String workspace = workspaceOf(agent.project());

        List<JsonNode> events = new ArrayList<>();
        String cursor = null;
        boolean hasMore = true;
        int pages = 0;
        while (hasMore) {
            JsonNode page = agent.broker().ok(agent.session(), "lomi_events_read", events(workspace, 2, cursor));
            assertThat(page.path("kind").asString()).isEqualTo("events");
            assertThat(page.path("gap").asBoolean()).isFalse();
            page.path("events").forEach(events::add);
            cursor = page.path("nextCursor").asString();
            hasMore = page.path("hasMore").asBoolean();
            pages++;
        }

        assertThat(pages).isEqualTo(2);
        assertThat(events)
                .extracting(e ->
                        e.path("operationId").asString() + "/" + e.path("state").asString())
                .containsExactly(first.id() + "/queued", first.id() + "/running", second.id() + "/queued");
        JsonNode event = events.get(1);
        assertThat(event.path("kind").asString()).isEqualTo("operation_state");
        assertThat(event.path("tool").asString()).isEqualTo(TOOL);
        assertThat(event.path("effectState").asString()).isEqualTo("none");
        assertThat(event.path("timestamp").asString())
                .isEqualTo(agent.broker().clock.instant().toString());
        assertThat(event.path("timestampSeconds").asLong())
                .isEqualTo(agent.broker().clock.instant().getEpochSecond());
        assertThat(cursor)
                .isEqualTo(Long.toString(events.get(2).path("sequence").asLong()));

        JsonNode empty = agent.broker().ok(agent.session(), "lomi_events_read", events(workspace, 2, cursor));
        assertThat(empty.path("events")).isEmpty();
        assertThat(empty.path("hasMore").asBoolean()).isFalse();
        assertThat(empty.path("nextCursor").asString()).isEqualTo(cursor);

        agent.broker().ok(agent.session(), "lomi_operation_cancel", "{\"operationId\":\"" + second.id() + "\"}");
        JsonNode after = agent.broker().ok(agent.session(), "lomi_events_read", events(workspace, 2, cursor));
        assertThat(after.path("events")).singleElement().satisfies(e -> {
            assertThat(e.path("operationId").asString()).isEqualTo(second.id().value());
            assertThat(e.path("state").asString()).isEqualTo("cancelled");
        });
    }

    @Test
    void theEventFeedOfAWorkspaceOutsideTheGrantIsNotFound() {
        Project hidden = agent.broker().project("hidden");
        agent.broker().reserve(agent.session(), agent.epoch(), hidden, TOOL, "k-1");
        Session narrowed =
                agent.broker().session(new Grant(false, Set.of(agent.project().id()), Scopes.all()));

        assertThat(agent.broker().refused(narrowed, "lomi_events_read", events(workspaceOf(hidden), 10, null)))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        assertThat(agent.broker().refused(narrowed, "lomi_events_read", events("ws-unknown", 10, null)))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        assertThat(agent.broker()
                        .ok(narrowed, "lomi_events_read", events(workspaceOf(agent.project()), 10, null))
                        .path("events"))
                .isEmpty();
    }

    @Test
    void theEventFeedLimitDefaultsToAHundredAndMustBeInRangeAndTheCursorDecimal() {
        String workspace = workspaceOf(agent.project());
        for (int i = 0; i < 101; i++) {
            agent.broker().reserve(agent.session(), agent.epoch(), agent.project(), TOOL, "k-" + i);
        }

        JsonNode firstPage =
                agent.broker().ok(agent.session(), "lomi_events_read", "{\"workspaceId\":\"" + workspace + "\"}");
        assertThat(firstPage.path("events")).hasSize(100);
        assertThat(firstPage.path("hasMore").asBoolean()).isTrue();
        assertThat(agent.broker().refused(agent.session(), "lomi_events_read", events(workspace, 0, null)))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(agent.broker().refused(agent.session(), "lomi_events_read", events(workspace, 501, null)))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(agent.broker().refused(agent.session(), "lomi_events_read", events(workspace, 10, "-1")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(agent.broker().refused(agent.session(), "lomi_events_read", events(workspace, 10, "abc")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(agent.broker().refused(agent.session(), "lomi_events_read", "{\"limit\":10}"))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(agent.broker()
                        .ok(agent.session(), "lomi_events_read", events(workspace, 500, "0"))
                        .path("events"))
                .hasSize(101);
        assertThat(agent.broker()
                        .ok(agent.session(), "lomi_events_read", events(workspace, 500, "999999"))
                        .path("nextCursor")
                        .asString())
                .isEqualTo("999999");
    }

    private String key(String requestKey, Optional<String> projectId) {
        return "{\"retryEpoch\":\"" + agent.epoch() + "\",\"requestKey\":\"" + requestKey + "\",\"tool\":\"" + TOOL
                + "\"" + projectId.map(p -> ",\"projectId\":\"" + p + "\"").orElse("") + "}";
    }

    private static String events(String workspaceId, int limit, String cursor) {
        return "{\"workspaceId\":\"" + workspaceId + "\",\"limit\":" + limit
                + (cursor == null ? "" : ",\"cursor\":\"" + cursor + "\"") + "}";
    }

    private JsonNode cancel(Operation operation) {
        return agent.ok("lomi_operation_cancel", "operationId", operation.id().value());
    }

    /** A cancel answered with this state, effect and cancel outcome, and no stop requested or delivered to the runner. */
    private void assertAnsweredWithoutAStop(JsonNode data, String state, String effectState, String cancel) {
        assertThat(data.path("state").asString()).isEqualTo(state);
        assertThat(data.path("effectState").asString()).isEqualTo(effectState);
        assertThat(data.path("cancel").asString()).isEqualTo(cancel);
        assertThat(data.path("stopRequested").asBoolean()).isFalse();
        assertThat(agent.broker().stopRequests).isEmpty();
    }

    /** The ledger settles {@code operation} as succeeded with its effect complete and this result. */
    private void succeed(Operation operation, String result) {
        agent.broker()
                .ledger
                .transition(
                        operation.id(),
                        OperationState.SUCCEEDED,
                        EffectState.COMPLETE,
                        Optional.of(result),
                        Optional.empty());
    }

    /** A {@code lomi_files_mutate} receipt of the agent's in its project under {@code key}, reserved in the ledger. */
    private Operation reserve(String key) {
        return agent.broker().reserve(agent.session(), agent.epoch(), agent.project(), TOOL, key);
    }
}
