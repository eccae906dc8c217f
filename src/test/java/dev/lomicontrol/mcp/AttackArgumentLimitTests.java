package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Attack suite, helper side: the 64 KiB argument limit is exact and holds on every tool of the
 * catalog — 65,536 serialized bytes get past it (and are then judged on their content), 65,537
 * are PAYLOAD_TOO_LARGE before anything else looks at them. An unknown field beside otherwise
 * valid arguments is refused on every tool, helper-answered ones included. ({@code BridgeAcceptanceTests} shows such a call is never
 * sent to the broker.)
 */
class AttackArgumentLimitTests {

    static final int LIMIT = 64 * 1024;

    final InProcessServer session = new InProcessServer();

    @Test
    void sixtyFourKiBPlusOneIsPayloadTooLargeOnEveryToolAndExactlySixtyFourKiBIsNot() throws Exception {
        int id = 0;
        for (ToolDefinition tool : session.catalog.all()) {
            JsonNode atLimit = call(++id, tool.name(), arguments(LIMIT));
            JsonNode overLimit = call(++id, tool.name(), arguments(LIMIT + 1));

            assertThat(atLimit.get("isError").asBoolean()).as(tool.name()).isTrue();
            assertThat(atLimit.at("/structuredContent/code").asString())
                    .as("%s at the limit: %s", tool.name(), atLimit)
                    .isEqualTo("INVALID_ARGUMENT");
            assertThat(overLimit.get("isError").asBoolean()).as(tool.name()).isTrue();
            assertThat(overLimit.at("/structuredContent/code").asString())
                    .as(tool.name())
                    .isEqualTo("PAYLOAD_TOO_LARGE");
            assertThat(overLimit.at("/structuredContent/message").asString())
                    .as(tool.name())
                    .contains("65537");
        }
        assertThat(id)
                .as("two calls per tool")
                .isEqualTo(2 * session.catalog.all().size());
    }

    @Test
    void anUnknownFieldIsInvalidArgumentOnEveryToolNamingTheField() throws Exception {
        int id = 0;
        for (ToolDefinition tool : session.catalog.all()) {
            ObjectNode arguments = (ObjectNode) McpMapper.MAPPER.readTree(validCall(tool.name()));
            arguments.put("surprise", true);
            JsonNode result = call(++id, tool.name(), arguments.toString());

            assertThat(result.at("/structuredContent/code").asString())
                    .as("%s: %s", tool.name(), result)
                    .isEqualTo("INVALID_ARGUMENT");
            assertThat(result.at("/structuredContent/message").asString())
                    .as(tool.name())
                    .contains("surprise");
        }
    }

    /** A valid call of the tool: {@code CatalogTests.VALID}, plus the session, operation and episode tools it leaves out. */
    private static String validCall(String tool) {
        String operationId = "0123456789abcdef0123456789abcdef01234567";
        switch (tool) {
            case "lomi_connect":
            case "lomi_events_read":
                return "{\"workspaceId\":\"ws-1\"}";
            case "lomi_operation_get":
            case "lomi_operation_cancel":
                return "{\"operationId\":\"" + operationId + "\"}";
            case "lomi_session_attach":
                return "{\"externalId\":\"thread-1\"}";
            default:
                return CatalogTests.VALID.getOrDefault(tool, "{}");
        }
    }

    /** {@code {"surprise":"xxx…"}} of exactly {@code bytes} serialized bytes. */
    private static String arguments(int bytes) {
        String text = "{\"surprise\":\"" + "x".repeat(bytes - "{\"surprise\":\"\"}".length()) + "\"}";
        ObjectNode parsed = (ObjectNode) McpMapper.MAPPER.readTree(text);
        assertThat(McpJson.serializedSize(parsed)).isEqualTo(bytes);
        return text;
    }

    private JsonNode call(int id, String tool, String arguments) throws InterruptedException {
        return session.call("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
                        + tool + "\",\"arguments\":" + arguments + "}}")
                .get("result");
    }
}
