package dev.lomicontrol.operations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.core.ToolName;
import dev.lomicontrol.ledger.EffectState;
import dev.lomicontrol.ledger.LedgerEvent;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.ledger.OperationState;
import dev.lomicontrol.testing.Golden;
import dev.lomicontrol.tools.Encoder;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.json.JsonTest;
import org.springframework.boot.test.json.BasicJsonTester;
import org.springframework.boot.test.json.JacksonTester;
import org.springframework.context.annotation.Configuration;
import org.springframework.test.context.ContextConfiguration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A JSON slice for the ledger's operation record as every OP tool, {@code lomi_operation_get} and
 * the events feed answer it (SPEC §6): a settled success with its typed result, a failure (the
 * reference's {@code {kind:"failure"}} result), an {@code outcome_unknown} row with the admin's
 * recorded finding, a queued row without a result, and one feed event. The stored record is
 * turned into its wire form by the real {@link OperationJson}; files in {@code golden/operation/};
 * regenerate deliberately with {@code -Dlomi.golden.update=true}.
 */
@JsonTest
@ContextConfiguration(classes = OperationWireGoldenTests.Slice.class)
class OperationWireGoldenTests {

    /** Nothing but the JSON slice (Boot's JSON testers); the trees come from {@link OperationJson}. */
    @Configuration(proxyBeanMethods = false)
    static class Slice {}

    @BeforeEach
    void mapper() {
        JacksonTester.initFields(this, JsonMapper.builder().build());
    }

    static final OperationId ID = new OperationId("4f".repeat(20));
    static final SessionId SESSION = new SessionId("a1".repeat(16));
    static final RetryEpochId EPOCH = new RetryEpochId("e9".repeat(20));
    static final ProjectId PROJECT = new ProjectId("p-42");
    static final Instant CREATED = Instant.parse("2026-12-01T10:00:00Z");

    /** The slice's own tester (auto-configured by {@code @JsonTest}): reads golden files by JSON path. */
    @Autowired
    BasicJsonTester basic;

    JacksonTester<JsonNode> json;

    @Test
    void aSucceededOperationWithItsResultIsPinned() throws Exception {
        Operation operation = operation(
                OperationState.SUCCEEDED,
                EffectState.COMPLETE,
                Optional.of("{\"kind\":\"files_mutated\",\"parentRevision\":\"d-17\",\"changed\":[\"src/Main.java\"]}"),
                Optional.empty(),
                Optional.of(CREATED.plusSeconds(2)),
                Optional.empty());
        pin("succeeded", operation);
    }

    @Test
    void aFailedOperationIsPinnedWithTheFailureResult() throws Exception {
        Operation operation = revisionConflict();
        JsonNode wire = pin("failed", operation);
        assertThat(wire.at("/result/kind").asString()).isEqualTo("failure");
        assertThat(wire.at("/result/message").asString()).startsWith("the workspace changed since revision d-16");
    }

    @Test
    void aFailureRecordedBeforeMessagesWereStoredSaysItsCodesNextStep() {
        Operation recorded = revisionConflict();
        Operation beforeV12 = new Operation(
                recorded.id(),
                recorded.session(),
                recorded.retryEpoch(),
                recorded.project(),
                recorded.tool(),
                recorded.requestKey(),
                recorded.workspaceId(),
                recorded.state(),
                recorded.effect(),
                recorded.result(),
                recorded.errorCode(),
                Optional.empty(),
                recorded.createdAt(),
                recorded.updatedAt(),
                recorded.completedAt(),
                recorded.retainUntil(),
                recorded.resolution());
        assertThat(OperationJson.of(beforeV12).at("/result/message").asString())
                .isEqualTo(ErrorCode.REVISION_CONFLICT.nextStep());
    }

    @Test
    void anOutcomeUnknownOperationIsPinnedWithTheAdminsFinding() throws Exception {
        Operation operation = operation(
                OperationState.OUTCOME_UNKNOWN,
                EffectState.UNKNOWN,
                Optional.empty(),
                Optional.of("OUTCOME_UNKNOWN"),
                Optional.of(CREATED.plusSeconds(30)),
                Optional.of(new Operation.Resolution(
                        OperationState.SUCCEEDED, "the file is on disk", CREATED.plusSeconds(3600))));
        pin("outcome-unknown-resolved", operation);
    }

    @Test
    void aQueuedOperationOmitsWhatItDoesNotHaveYet() throws Exception {
        JsonNode wire = pin(
                "queued",
                operation(
                        OperationState.QUEUED,
                        EffectState.NONE,
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty()));
        assertThat(wire.has("result") && !wire.get("result").isNull())
                .as("no result yet")
                .isFalse();
    }

    @Test
    void aFeedEventIsPinned() throws Exception {
        LedgerEvent event = new LedgerEvent(
                981,
                "operation_state",
                ID,
                "lomi_files_mutate",
                Optional.of("ws-1"),
                OperationState.RUNNING,
                EffectState.PARTIAL,
                "session",
                Optional.empty(),
                CREATED.plusMillis(1500));
        String golden = Golden.pin(
                "operation",
                "event",
                json.write(Encoder.encode(OperationJson.event(event))).getJson());
        assertThat(Golden.tree(golden).path("timestampSeconds").asLong()).isEqualTo(CREATED.getEpochSecond() + 1);
    }

    private JsonNode pin(String name, Operation operation) throws Exception {
        JsonNode wire = OperationJson.of(operation);
        String golden = Golden.pin("operation", name, json.write(wire).getJson());
        assertThat(json.write(wire)).isStrictlyEqualToJson(golden);
        assertThat(json.parseObject(golden)).isEqualTo(wire);
        assertThat(basic.from(golden)).extractingJsonPathStringValue("@.kind").isEqualTo("operation");
        return wire;
    }

    /** An operation that failed with REVISION_CONFLICT, its effect none, a second after it was created. */
    private static Operation revisionConflict() {
        return operation(
                OperationState.FAILED,
                EffectState.NONE,
                Optional.empty(),
                Optional.of("REVISION_CONFLICT"),
                Optional.of(CREATED.plusSeconds(1)),
                Optional.empty());
    }

    private static Operation operation(
            OperationState state,
            EffectState effect,
            Optional<String> result,
            Optional<String> errorCode,
            Optional<Instant> completed,
            Optional<Operation.Resolution> resolution) {
        return new Operation(
                ID,
                SESSION,
                EPOCH,
                PROJECT,
                new ToolName("lomi_files_mutate"),
                new RequestKey("create-notes-1"),
                Optional.of("ws-1"),
                state,
                effect,
                result,
                errorCode,
                errorCode.map(code -> code.equals("REVISION_CONFLICT")
                        ? "the workspace changed since revision d-16 was read; read it again and send the mutation"
                                + " with the current revision"
                        : "the broker stopped while the mutation ran; check the files before sending it again"),
                CREATED,
                completed.orElse(CREATED.plusMillis(250)),
                completed,
                CREATED.plusSeconds(86_400 * 7),
                resolution);
    }
}
