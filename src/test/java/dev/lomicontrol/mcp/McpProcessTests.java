package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.McpHelperProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/** The real helper in a child JVM without a broker: protocol, framing, resilience and exit. */
class McpProcessTests {

    static final String KEY = "ab".repeat(32);

    @TempDir
    Path temp;

    @ParameterizedTest
    @CsvSource({
        "2025-11-25,2025-11-25",
        "2025-06-18,2025-06-18",
        "2025-03-26,2025-03-26",
        "2024-11-05,2024-11-05",
        "2031-01-01,2025-11-25"
    })
    void initializeNegotiatesTheVersionAndAnswersQuickly(String requested, String answered) throws Exception {
        try (McpHelperProcess helper = start()) {
            JsonNode result = helper.initialize(requested).get("result");
            long millis =
                    Duration.ofNanos(System.nanoTime() - helper.startedNanos()).toMillis();
            System.err.println("helper start -> initialize response (" + requested + "): " + millis + " ms");

            assertThat(result.get("protocolVersion").asString()).isEqualTo(answered);
            assertThat(result.at("/serverInfo/name").asString()).isEqualTo("lomi-control");
            assertThat(helper.closeAndWait()).isZero();
        }
    }

    @Test
    void serverDiscoverAndToolsListDescribeTheWholeCatalog() throws Exception {
        try (McpHelperProcess helper = start()) {
            JsonNode discover = helper.request(
                    1, "server/discover", "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}");
            helper.initialize("2025-11-25");
            JsonNode tools = helper.request(2, "tools/list", null).at("/result/tools");

            assertThat(discover.at("/result/supportedVersions").size()).isEqualTo(5);
            assertThat(discover.at("/result/resultType").asString()).isEqualTo("complete");
            assertThat(tools.size()).isEqualTo(Catalog.standard().all().size());
            for (JsonNode tool : tools.values()) {
                assertThat(tool.has("inputSchema") && tool.has("outputSchema") && tool.has("annotations"))
                        .as(tool.get("name").asString())
                        .isTrue();
            }
        }
    }

    @Test
    void withoutABrokerStatusSaysAppUnavailableAndBrokerToolsAreRefusedAsResults() throws Exception {
        try (McpHelperProcess helper = start()) {
            helper.initialize("2025-11-25");
            JsonNode status = helper.awaitPhase("app_unavailable");
            JsonNode diagnostics = helper.callTool(2, "lomi_diagnostics", "{}").at("/result/structuredContent/data");
            JsonNode list = helper.callTool(3, "lomi_workspace_list", "{}").get("result");

            assertThat(status.get("pairingRequestId").isNull()).isTrue();
            assertThat(status.get("detail").asString()).contains("discovery");
            assertThat(diagnostics.get("nextStep").asString()).contains("lomi-control serve");
            assertThat(list.get("isError").asBoolean()).isTrue();
            assertThat(list.at("/structuredContent/code").asString()).isEqualTo("APP_UNAVAILABLE");
        }
    }

    @Test
    void anOversizedLineIsAnsweredAndSkippedAndTheSessionSurvives() throws Exception {
        try (McpHelperProcess helper = start()) {
            helper.initialize("2025-11-25");
            byte[] big = new byte[9 * 1024 * 1024];
            Arrays.fill(big, (byte) 'x');
            byte[] tail = "{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"ping\"}\n".getBytes(StandardCharsets.UTF_8);
            helper.send(big);
            helper.send(tail); // still part of the oversized line: must never be answered

            JsonNode tooLarge = helper.response("null");
            JsonNode ping = helper.request(1, "ping", null);

            assertThat(tooLarge.at("/error/code").asInt()).isEqualTo(-32600);
            assertThat(tooLarge.at("/error/message").asString()).contains("payload too large");
            assertThat(ping.get("result").isObject()).isTrue();
            assertThat(helper.stdoutLines()).noneMatch(line -> line.contains("\"id\":99"));
        }
    }

    @Test
    void invalidJsonIsAParseErrorWithANullIdAndTheSessionGoesOn() throws Exception {
        try (McpHelperProcess helper = start()) {
            helper.sendLine("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"");
            JsonNode parseError = helper.response("null");
            JsonNode ping = helper.request(2, "ping", null);

            assertThat(parseError.at("/error/code").asInt()).isEqualTo(-32700);
            assertThat(ping.has("result")).isTrue();
        }
    }

    @Test
    void stdoutCarriesOnlyJsonRpcResponsesAndEndOfInputExitsZero() throws Exception {
        try (McpHelperProcess helper = start()) {
            helper.initialize("2025-06-18");
            helper.request(1, "tools/list", null);
            helper.callTool(2, "lomi_status", "{}");
            helper.callTool(3, "lomi_connect", "{\"workspaceId\":\"w1\"}");
            helper.request(4, "nope/nope", null);
            helper.sendLine("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/whatever\"}");
            helper.sendLine("not json");
            helper.response("null");

            assertThat(helper.closeAndWait()).isZero();
            assertThat(helper.stdoutLines().size())
                    .as("one line per answered message")
                    .isEqualTo(6);
            for (String line : helper.stdoutLines()) {
                JsonNode message = McpMapper.MAPPER.readTree(line);
                assertThat(message.get("jsonrpc").asString()).as(line).isEqualTo("2.0");
                assertThat(message.has("id")).as(line).isTrue();
                assertThat(message.has("result") ^ message.has("error"))
                        .as(line)
                        .isTrue();
            }
        }
    }

    private McpHelperProcess start() throws Exception {
        Path discovery = temp.resolve("no-broker").resolve("discovery.json").toAbsolutePath();
        return McpHelperProcess.launch(temp.resolve("helper.err"))
                .args(List.of("--discovery-file", discovery.toString(), "--discovery-key", KEY))
                .properties(Map.of("lomi.mcp.label-grace-ms", "0"))
                .start();
    }
}
