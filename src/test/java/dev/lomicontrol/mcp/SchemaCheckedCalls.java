package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.McpHelperProcess;
import java.util.HashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Tool calls through a real MCP helper, each answer checked against the {@code outputSchema} the
 * helper published for its tool in {@code tools/list}. It numbers the JSON-RPC requests it sends.
 */
final class SchemaCheckedCalls {

    private final McpHelperProcess helper;
    private int ids;
    /** Each listed tool's published outputSchema, by tool name. */
    final Map<String, JsonNode> outputSchemas = new HashMap<>();

    private SchemaCheckedCalls(McpHelperProcess helper) {
        this.helper = helper;
    }

    /** Initializes the helper (protocol 2025-11-25), waits until it is connected and lists the tools. */
    static SchemaCheckedCalls connected(McpHelperProcess helper) throws Exception {
        helper.initialize("2025-11-25");
        helper.awaitPhase("connected");
        return listed(helper);
    }

    /** Lists the tools of a helper that is already connected. */
    static SchemaCheckedCalls listed(McpHelperProcess helper) throws Exception {
        SchemaCheckedCalls calls = new SchemaCheckedCalls(helper);
        helper.request(calls.nextId(), "tools/list", null)
                .at("/result/tools")
                .values()
                .forEach(tool -> calls.outputSchemas.put(tool.get("name").asString(), tool.get("outputSchema")));
        return calls;
    }

    /** A number no request of this helper has had yet. */
    int nextId() {
        return ++ids;
    }

    /** Calls a tool, checks ok/error as expected and the envelope against the published schema; returns the envelope. */
    JsonNode call(String tool, String arguments, boolean ok) throws Exception {
        JsonNode result = helper.callTool(nextId(), tool, arguments).get("result");
        JsonNode envelope = result.get("structuredContent");
        assertThat(result.get("isError").asBoolean())
                .as(tool + " " + arguments + ": " + envelope)
                .isEqualTo(!ok);
        assertThat(SchemaValidator.firstViolation(outputSchemas.get(tool), envelope, "result"))
                .as(tool + ": " + envelope)
                .isEmpty();
        return envelope;
    }
}
