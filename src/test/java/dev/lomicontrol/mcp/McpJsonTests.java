package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.ipc.CallAnswer;
import dev.lomicontrol.ipc.CallResponse;
import dev.lomicontrol.ipc.Envelope;
import dev.lomicontrol.ipc.IpcJson;
import dev.lomicontrol.testing.RandomJson;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The helper's mapper-free JSON (ADR 0015) against Jackson's mapper with the same rules: the same
 * trees read, the same bytes written, the same inputs refused; and a broker's envelope passed on as
 * its bytes gives the line the tree would have given.
 */
class McpJsonTests {

    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{}",
                "[]",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",\"arguments\":{\"a\":[1,2,{\"b\":null}]}}}",
                "[0,-1,2147483647,2147483648,-2147483649,9223372036854775807,9223372036854775808,-9223372036854775809]",
                "[1.5,-0.0,0.1,1e-7,1E+300,1e400,-1e400,123456789012345678901234567890.123456789,4.9e-324,2.5e-400]",
                "[\"\",\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\",\"\\u0000\\u001f\\u007f\\u2028\",\"żółw 🐢 \\ud83d\\udc22\",\"\\ud800\"]",
                "[true,false,null,{\"nested\":{\"deeper\":[[[]]]}}]",
                "  {\"spaced\" :\t[ 1 , 2 ] }  ",
                "\"just a string\"",
                "42",
                "null"
            })
    void readsTheTreeTheMapperReadsAndWritesTheBytesItWrites(String json) throws Exception {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        JsonNode ours = McpJson.parse(bytes);
        JsonNode mappers = McpMapper.MAPPER.readTree(bytes);

        assertThat(ours).isEqualTo(mappers);
        assertThat(ours.getClass()).isEqualTo(mappers.getClass());
        assertThat(McpJson.line(ours)).isEqualTo(McpMapper.MAPPER.writeValueAsBytes(mappers));
    }

    @Test
    void randomTreesAreReadAndWrittenAsTheMapperDoes() throws Exception {
        Random random = new Random(20261204L);
        for (int i = 0; i < 2_000; i++) {
            JsonNode tree = RandomJson.value(random);
            byte[] mappers = McpMapper.MAPPER.writeValueAsBytes(tree);

            assertThat(McpJson.line(tree)).isEqualTo(mappers);
            assertThat(McpJson.parse(mappers)).isEqualTo(McpMapper.MAPPER.readTree(mappers));
            assertThat(McpJson.string(tree)).isEqualTo(tree.toString());
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"a\":1,\"a\":2}",
                "{\"a\":1} {}",
                "{\"a\":1} x",
                "{\"a\":",
                "{a:1}",
                "[1,]",
                "'single'",
                "[NaN]",
                "\"a\u0001b\""
            })
    void refusesWhatTheMapperRefuses(String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);

        assertThatThrownBy(() -> McpMapper.MAPPER.readTree(bytes)).isInstanceOf(JacksonException.class);
        assertThatThrownBy(() -> McpJson.parse(bytes)).isInstanceOf(JacksonException.class);
    }

    @Test
    void refusesNestingDeeperThanTheLimitAndInvalidUtf8() {
        String deep = "[".repeat(McpJson.MAX_DEPTH + 1) + "]".repeat(McpJson.MAX_DEPTH + 1);
        String allowed = "[".repeat(McpJson.MAX_DEPTH) + "]".repeat(McpJson.MAX_DEPTH);

        assertThatThrownBy(() -> McpJson.parse(deep.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(JacksonException.class);
        assertThat(catching(() -> McpJson.parse(allowed.getBytes(StandardCharsets.UTF_8))))
                .isNull();
        assertThatThrownBy(() -> McpJson.parse(new byte[] {'"', (byte) 0xC3, 0x28, '"'}))
                .isInstanceOf(CharacterCodingException.class);
    }

    @Test
    void aBrokersEnvelopePassedOnAsItsBytesGivesTheLineItsTreeGives() throws Exception {
        ObjectNode data = NODES.objectNode().put("kind", "file_text").put("text", "line \"1\"\n\tżółw 🐢 \\ end\u2028");
        data.put("nextUtf16", 42).put("truncated", true).put("ratio", 0.25);
        for (ObjectNode envelope :
                new ObjectNode[] {Envelope.ok(data), Envelope.error(ErrorCode.REVISION_CONFLICT, "gone")}) {
            CallAnswer answer = CallAnswer.read(IpcJson.write(new CallResponse("r1", envelope)));
            for (ProtocolVersion version : ProtocolVersion.values()) {
                ObjectNode raw = Protocol.decorate(CallResults.of(answer, version), version);
                ObjectNode tree = Protocol.decorate(CallResults.of(envelope.deepCopy(), version), version);

                assertThat(new String(McpJson.line(raw), StandardCharsets.UTF_8))
                        .isEqualTo(new String(McpJson.line(tree), StandardCharsets.UTF_8));
                JsonNode parsed = McpMapper.MAPPER.readTree(McpJson.line(raw));
                assertThat(McpMapper.MAPPER.readTree(
                                parsed.at("/content/0/text").asString()))
                        .isEqualTo(envelope);
            }
        }
    }

    @Test
    void onlyAOneLineEnvelopeIsPassedOnAsItsBytes() {
        String pretty =
                "{\"requestId\":\"r1\",\"result\":{\n\"controlApiVersion\":\"1.0\",\"status\":\"ok\",\"data\":{}}}";
        CallAnswer answer = CallAnswer.read(pretty.getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> CallResults.of(answer, ProtocolVersion.LATEST_LEGACY))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static Throwable catching(ThrowingCall call) {
        try {
            call.run();
            return null;
        } catch (Exception e) {
            return e;
        }
    }

    interface ThrowingCall {
        void run() throws Exception;
    }
}
