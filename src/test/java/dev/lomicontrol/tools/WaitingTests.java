package dev.lomicontrol.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.catalog.ToolCatalog;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.operations.api.OperationSpecs;
import dev.lomicontrol.terminal.api.TerminalSpecs;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code waitMs} is declared once by the framework (issue 20): every OP tool and the three waiting
 * reads publish it, both processes check it with the same binding, the input record (and so a
 * receipt's fingerprint) never sees it, and the helper can cut it to its own call timeout.
 */
class WaitingTests {

    static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void everyOperationToolAndTheWaitingReadsPublishWaitMsAndNoOtherToolDoes() {
        for (ToolSpec<?> spec : ToolCatalog.standard().all()) {
            boolean published = spec.inputSchema().path("properties").has(Waiting.FIELD);
            boolean expected = spec.effect() == Effect.OP
                    || java.util.List.of("lomi_operation_get", "lomi_terminal_read", "lomi_events_read")
                            .contains(spec.name());
            assertThat(published).as(spec.name()).isEqualTo(expected);
            if (published) {
                JsonNode property = spec.inputSchema().path("properties").path(Waiting.FIELD);
                assertThat(property.path("maximum").asInt()).isEqualTo(25_000);
                assertThat(spec.inputSchema().path("required").toString()).doesNotContain(Waiting.FIELD);
            }
        }
    }

    @Test
    void theRecordNeverSeesWaitMsSoTheRequestIsTheSameWithAnyWait() {
        ObjectNode arguments =
                (ObjectNode) JSON.readTree("{\"workspaceId\":\"w1\",\"panelId\":\"p1\",\"terminalSessionId\":\""
                        + "a".repeat(32) + "\",\"leaseId\":\"" + "b".repeat(32)
                        + "\",\"command\":\"true\",\"retryEpoch\":\"" + "c".repeat(40) + "\",\"requestKey\":\"k\"}");
        TerminalSpecs.Run plain = TerminalSpecs.RUN.bind(arguments);
        TerminalSpecs.Run waiting = TerminalSpecs.RUN.bind(arguments.deepCopy().put("waitMs", 20_000));

        assertThat(Encoder.encode(waiting)).isEqualTo(Encoder.encode(plain));
        assertThat(TerminalSpecs.RUN.waitOf(arguments.deepCopy().put("waitMs", 20_000)))
                .isEqualTo(Duration.ofSeconds(20));
        assertThat(TerminalSpecs.RUN.waitOf(arguments)).isZero();
        assertThat(TerminalSpecs.RUN.waitOf(arguments.deepCopy().putNull("waitMs")))
                .as("null = absent")
                .isZero();
    }

    @Test
    void aWaitOutsideItsRangeOrOnAToolWithoutItIsInvalidArgumentNamingTheField() {
        JsonNode lookup = JSON.readTree("{\"operationId\":\"" + "d".repeat(40) + "\",\"waitMs\":25001}");
        assertThatThrownBy(() -> OperationSpecs.GET.bind(lookup))
                .isInstanceOfSatisfying(
                        LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("arguments.waitMs");
        assertThatThrownBy(() -> OperationSpecs.GET.bind(
                        JSON.readTree("{\"operationId\":\"" + "d".repeat(40) + "\",\"waitMs\":1.5}")))
                .hasMessageContaining("arguments.waitMs");
        assertThatThrownBy(() -> TerminalSpecs.INPUT.bind(JSON.readTree("{\"waitMs\":10}")))
                .isInstanceOf(LomiException.class)
                .hasMessageContaining("waitMs");
    }

    @Test
    void theHelperCutsAWaitToItsOwnBound() {
        ObjectNode arguments = (ObjectNode) JSON.readTree("{\"operationId\":\"x\",\"waitMs\":25000}");
        assertThat(Waiting.atMost(arguments, Duration.ofSeconds(10))
                        .path("waitMs")
                        .asInt())
                .isEqualTo(10_000);
        assertThat(arguments.path("waitMs").asInt())
                .as("the caller's arguments are not changed")
                .isEqualTo(25_000);
        assertThat(Waiting.atMost(arguments, Duration.ofSeconds(25))).isSameAs(arguments);
        assertThat(Waiting.atMost(arguments, Duration.ofSeconds(-1))
                        .path("waitMs")
                        .asInt())
                .isZero();
    }
}
