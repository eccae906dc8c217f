package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.ipc.Envelope;
import dev.lomicontrol.testing.Golden;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.json.JsonTest;
import org.springframework.boot.test.json.BasicJsonTester;
import org.springframework.boot.test.json.JacksonTester;
import org.springframework.context.annotation.Configuration;
import org.springframework.test.context.ContextConfiguration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A JSON slice for the MCP envelope (SPEC §4): the Control API 1.0 envelope (ok and error) inside
 * a {@code tools/call} result as the helper writes it to stdout, for a protocol version without
 * structured output, one with it, and the stateless one (whose server info carries the build
 * version, replaced by a placeholder before pinning). Files in {@code golden/envelope/};
 * regenerate deliberately with {@code -Dlomi.golden.update=true}.
 */
@JsonTest
@ContextConfiguration(classes = McpEnvelopeGoldenTests.Wire.class)
class McpEnvelopeGoldenTests {

    /** Nothing but the JSON slice (Boot's JSON testers); the Jackson testers are bound to the wire's own mapper below. */
    @Configuration(proxyBeanMethods = false)
    static class Wire {}

    @BeforeEach
    void wireMapper() {
        JacksonTester.initFields(this, McpMapper.MAPPER);
    }

    /** The slice's own tester (auto-configured by {@code @JsonTest}): reads golden files by JSON path. */
    @Autowired
    BasicJsonTester basic;

    JacksonTester<JsonNode> json;

    @Test
    void anOkEnvelopeInsideACallResultIsPinnedForEachKindOfProtocolVersion() throws Exception {
        for (ProtocolVersion version : new ProtocolVersion[] {
            ProtocolVersion.V2025_03_26, ProtocolVersion.V2025_11_25, ProtocolVersion.V2026_07_28
        }) {
            ObjectNode data = JsonNodeFactory.instance
                    .objectNode()
                    .put("kind", "workspace_list")
                    .put("total", 1);
            data.putArray("workspaces").addObject().put("workspaceId", "ws-1").put("name", "main");
            ObjectNode line = response(7, CallResults.ok(data, version), version);
            String golden = Golden.pin("envelope", "call-result-ok-" + version.wire(), McpJson.line(line));
            assertThat(json.write(line)).isStrictlyEqualToJson(golden);
            assertThat(line.at("/result/isError").asBoolean()).isFalse();
        }
    }

    @Test
    void anErrorEnvelopeInsideACallResultIsPinned() throws Exception {
        ObjectNode line = response(
                "call-8",
                CallResults.error(
                        ErrorCode.PAIRING_REQUIRED,
                        "this helper is not paired yet; the call can simply be repeated once the admin ran: lomi-control console pairing approve pr-1",
                        ProtocolVersion.V2025_11_25),
                ProtocolVersion.V2025_11_25);
        String golden = Golden.pin("envelope", "call-result-error", McpJson.line(line));
        assertThat(json.write(line)).isStrictlyEqualToJson(golden);
        assertThat(json.parseObject(golden)).isEqualTo(line);
        assertThat(basic.from(golden))
                .extractingJsonPathBooleanValue("@.result.isError")
                .isTrue();
        assertThat(basic.from(golden))
                .extractingJsonPathStringValue("@.result.structuredContent.code")
                .isEqualTo("PAIRING_REQUIRED");
    }

    @Test
    void theBareControlApiEnvelopesArePinned() throws Exception {
        Golden.pin(
                "envelope",
                "control-ok",
                McpJson.line(Envelope.ok(JsonNodeFactory.instance.objectNode().put("kind", "status"))));
        Golden.pin(
                "envelope",
                "control-error",
                McpJson.line(Envelope.error(ErrorCode.REVISION_CONFLICT, "the workspace changed since revision 4")));
    }

    /** The JSON-RPC response line exactly as {@code McpServer} builds it; the build version is masked. */
    private static ObjectNode response(Object id, ObjectNode result, ProtocolVersion version) {
        ObjectNode response = McpJson.object().put("jsonrpc", "2.0");
        if (id instanceof Integer number) {
            response.put("id", number);
        } else {
            response.put("id", id.toString());
        }
        ObjectNode decorated = Protocol.decorate(result, version);
        JsonNode info = decorated.path("_meta").path(Protocol.META_SERVER_INFO);
        if (info instanceof ObjectNode serverInfo) {
            assertThat(serverInfo.path("version").asString()).isEqualTo(Protocol.version());
            serverInfo.put("version", "<build version>");
        }
        response.set("result", decorated);
        return response;
    }
}
