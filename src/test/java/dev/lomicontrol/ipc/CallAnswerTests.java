package dev.lomicontrol.ipc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The broker's call answers read as tokens: what is learned, where the envelope lies, and what is refused. */
class CallAnswerTests {

    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** Bytes a mutation writes: JSON punctuation, digits, letters, and two bytes that are never valid UTF-8 here. */
    static final String MUTATIONS = " {}[]\":,\\0a1\u00ff\u0080";

    static ObjectNode page() {
        ObjectNode data = NODES.objectNode().put("kind", "file_text").put("text", "line 1\nline \"2\"\t\\ żółw 🐢\n");
        data.put("startUtf16", 0)
                .put("truncated", true)
                .putArray("more")
                .add(1.5)
                .add(NODES.nullNode());
        return Envelope.ok(data).put("ledgerWarning", "the ledger is 90 % full");
    }

    static byte[] frame(String requestId, JsonNode result) {
        return IpcJson.write(new CallResponse(requestId, result));
    }

    @Test
    void anOkEnvelopeIsReadWithItsFieldsAndTheExactBytesTheBrokerWroteForIt() {
        ObjectNode envelope = page();
        CallAnswer answer = CallAnswer.read(frame("r42", envelope));

        assertThat(answer.requestId()).isEqualTo("r42");
        assertThat(answer.isEnvelope()).isTrue();
        assertThat(answer.isOk()).isTrue();
        assertThat(answer.isOneLine()).isTrue();
        assertThat(answer.ledgerWarning()).contains("the ledger is 90 % full");
        assertThat(answer.dataHas("text")).isTrue();
        assertThat(answer.dataHas("kind")).isTrue();
        assertThat(answer.dataHas("status")).as("only data's own names").isFalse();
        byte[] span = Arrays.copyOfRange(answer.frame(), answer.offset(), answer.offset() + answer.length());
        assertThat(span).isEqualTo(IpcJson.write(envelope));
        assertThat(answer.envelope()).isEqualTo(envelope);
    }

    @Test
    void anErrorEnvelopeIsAnEnvelopeThatIsNotOk() {
        CallAnswer answer = CallAnswer.read(frame("r1", Envelope.error(ErrorCode.REVISION_CONFLICT, "changed")));

        assertThat(answer.isEnvelope()).isTrue();
        assertThat(answer.isOk()).isFalse();
        assertThat(answer.ledgerWarning()).isEmpty();
        assertThat(answer.dataHas("code")).isFalse();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "null",
                "[1,2]",
                "\"ok\"",
                "7",
                "{}",
                "{\"status\":\"ok\"}",
                "{\"controlApiVersion\":\"1.0\",\"status\":\"maybe\"}",
                "{\"controlApiVersion\":1,\"status\":\"ok\"}",
                "{\"controlApiVersion\":\"1.0\",\"status\":{\"ok\":true}}"
            })
    void aResultThatIsNoControlApiEnvelopeIsReadButIsNoEnvelope(String result) {
        CallAnswer answer =
                CallAnswer.read(("{\"requestId\":\"r1\",\"result\":" + result + "}").getBytes(StandardCharsets.UTF_8));

        assertThat(answer.isEnvelope()).isFalse();
        assertThat(answer.requestId()).isEqualTo("r1");
    }

    @Test
    void anEnvelopeWithLineBreaksBetweenItsTokensIsReadButNotPassedOnAsOneLine() {
        String pretty =
                "{\"requestId\":\"r1\",\"result\":{\n  \"controlApiVersion\" : \"1.0\",\r\n  \"status\":\"ok\",\"data\":{}\n}}";
        CallAnswer answer = CallAnswer.read(pretty.getBytes(StandardCharsets.UTF_8));

        assertThat(answer.isEnvelope()).isTrue();
        assertThat(answer.isOneLine()).isFalse();
        assertThat(answer.envelope().path("status").asString()).isEqualTo("ok");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "[]",
                "{\"requestId\":\"r1\"}",
                "{\"result\":{}}",
                "{\"requestId\":7,\"result\":{}}",
                "{\"requestId\":\"r1\",\"result\":{},\"extra\":1}",
                "{\"requestId\":\"r1\",\"requestId\":\"r2\",\"result\":{}}",
                "{\"requestId\":\"r1\",\"result\":{\"status\":\"ok\",\"status\":\"error\"}}",
                "{\"requestId\":\"r1\",\"result\":{\"data\":{\"a\":1,\"a\":2}}}",
                "{\"requestId\":\"r1\",\"result\":{}} {}",
                "{\"requestId\":\"r1\",\"result\":{}",
                "{\"requestId\":\"r1\",\"result\":{\"data\":{\"text\":\"a\u0001b\"}}}"
            })
    void malformedFramesAreRefusedAsInvalidArguments(String frame) {
        Refused.asInvalidArgument(() -> CallAnswer.read(Refused.bytes(frame)))
                .hasMessageStartingWith("malformed CallResponse");
    }

    @Test
    void invalidUtf8InAStringTheReaderSkipsIsRefused() {
        byte[] frame = frame("r1", Envelope.ok(NODES.objectNode().put("text", "ab")));
        byte[] broken = new String(frame, StandardCharsets.ISO_8859_1)
                .replace("ab", "a\u00c3\u0028")
                .getBytes(StandardCharsets.ISO_8859_1);

        assertThatThrownBy(() -> CallAnswer.read(broken))
                .isInstanceOf(LomiException.class)
                .hasMessageContaining("UTF-8");
    }

    /**
     * Mutated frames (seeded): whatever the token reader accepts, the strict mapper reads to the same
     * envelope — it is never more lenient than the mapper it replaced on the helper's hot path.
     */
    @Test
    void theTokenReaderAcceptsNothingTheStrictMapperRefuses() {
        byte[] valid = frame("r9", page());
        Random random = new Random(20261204L);
        int accepted = 0;
        for (int round = 0; round < 20_000; round++) {
            byte[] mutated = valid.clone();
            for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                mutated[random.nextInt(mutated.length)] = (byte) MUTATIONS.charAt(random.nextInt(MUTATIONS.length()));
            }
            Optional<CallAnswer> answer = readOrEmpty(mutated);
            if (answer.isPresent()) {
                accepted++;
                CallResponse strict = IpcJson.read(mutated, CallResponse.class);
                assertThat(answer.get().requestId()).isEqualTo(strict.requestId());
                assertThat(answer.get().envelope()).isEqualTo(strict.result());
            }
        }
        assertThat(accepted).as("some mutations stay valid JSON").isPositive();
    }

    private static Optional<CallAnswer> readOrEmpty(byte[] frame) {
        try {
            return Optional.of(CallAnswer.read(frame));
        } catch (LomiException refused) {
            return Optional.empty();
        }
    }
}
