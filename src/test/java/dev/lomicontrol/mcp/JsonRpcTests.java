package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/** The JSON-RPC layer in-process: envelope faults, their codes and ids, and what is never answered. */
class JsonRpcTests {

    final InProcessServer session = new InProcessServer();

    @Test
    void invalidJsonIsAParseErrorWithANullId() throws Exception {
        JsonNode response = session.call("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":");

        assertThat(response.get("id").isNull()).isTrue();
        assertThat(response.at("/error/code").asInt()).isEqualTo(-32700);
    }

    @Test
    void invalidUtf8IsAParseError() throws Exception {
        byte[] line = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"x\":\"\"}".getBytes(StandardCharsets.UTF_8);
        byte[] broken = new byte[line.length + 2];
        System.arraycopy(line, 0, broken, 0, line.length - 2);
        broken[line.length - 2] = (byte) 0xC3; // a lead byte followed by a non-continuation byte
        broken[line.length - 1] = (byte) 0x28;
        broken[line.length] = '"';
        broken[line.length + 1] = '}';

        JsonNode response = ((Inbound.Invalid) Inbound.parse(broken)).error().toJson();

        assertThat(response.get("code").asInt()).isEqualTo(-32700);
        assertThat(response.get("message").asString()).contains("UTF-8");
    }

    @Test
    void duplicateKeysAndTrailingTokensAreParseErrors() throws Exception {
        assertThat(session.call("{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"ping\"}")
                        .at("/error/code")
                        .asInt())
                .isEqualTo(-32700);
        assertThat(session.call("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} {}")
                        .at("/error/code")
                        .asInt())
                .isEqualTo(-32700);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]",
                "42",
                "\"ping\"",
                "null",
                "{\"id\":1,\"method\":\"ping\"}",
                "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}",
                "{\"jsonrpc\":2.0,\"id\":1,\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":7}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":3}"
            })
    void malformedEnvelopesAreInvalidRequests(String line) throws Exception {
        JsonNode response = session.call(line);

        assertThat(response.at("/error/code").asInt()).isEqualTo(-32600);
        assertThat(response.path("jsonrpc").asString()).isEqualTo("2.0");
    }

    @ParameterizedTest
    @ValueSource(strings = {"null", "1.5", "true", "{}", "[1]"})
    void anIdThatIsNeitherAStringNorAnIntegerIsAnInvalidRequestAnsweredWithANullId(String id) throws Exception {
        JsonNode response = session.call("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}");

        assertThat(response.at("/error/code").asInt()).isEqualTo(-32600);
        assertThat(response.get("id").isNull()).isTrue();
    }

    @Test
    void stringAndIntegerIdsAreEchoedExactly() throws Exception {
        assertThat(session.call("{\"jsonrpc\":\"2.0\",\"id\":\"a-1\",\"method\":\"ping\"}")
                        .get("id")
                        .asString())
                .isEqualTo("a-1");
        assertThat(session.call("{\"jsonrpc\":\"2.0\",\"id\":123456789012345678901,\"method\":\"ping\"}")
                        .get("id")
                        .toString())
                .isEqualTo("123456789012345678901");
    }

    @Test
    void anUnknownMethodIsMethodNotFound() throws Exception {
        JsonNode response = session.call("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"resources/list\"}");

        assertThat(response.at("/error/code").asInt()).isEqualTo(-32601);
        assertThat(response.get("id").asInt()).isEqualTo(7);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":[]}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"cursor\":\"x\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"lomi_status\",\"arguments\":[]}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"no_such_tool\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"capabilities\":{}}}"
            })
    void badParamsAndUnknownToolsAreInvalidParams(String line) throws Exception {
        assertThat(session.call(line).at("/error/code").asInt()).isEqualTo(-32602);
    }

    @Test
    void notificationsAndClientResponsesAreNeverAnswered() throws Exception {
        assertThat(session.send(
                        0,
                        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1}}",
                        "{\"jsonrpc\":\"2.0\",\"method\":\"no/such/notification\",\"params\":[1]}",
                        "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}",
                        "   ",
                        ""))
                .isEmpty();
        assertThat(session.call("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}")
                        .get("result")
                        .isEmpty())
                .isTrue();
    }

    @Test
    void anOversizedLineIsAnsweredAsPayloadTooLargeWithANullId() throws Exception {
        session.server.accept(new LineReader.Line.Oversized(9L * 1024 * 1024));
        JsonNode response = session.send(1).get(0);

        assertThat(response.get("id").isNull()).isTrue();
        assertThat(response.at("/error/code").asInt()).isEqualTo(-32600);
        assertThat(response.at("/error/message").asString()).contains("payload too large");
    }

    @ParameterizedTest
    @CsvSource({
        "2025-11-25,2025-11-25",
        "2025-06-18,2025-06-18",
        "2025-03-26,2025-03-26",
        "2024-11-05,2024-11-05",
        "2026-07-28,2025-11-25",
        "1999-01-01,2025-11-25"
    })
    void initializeEchoesASupportedLegacyVersionAndOtherwiseOffersTheLatest(String requested, String answered)
            throws Exception {
        JsonNode result = session.call(
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
                                + requested
                                + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}")
                .get("result");

        assertThat(result.get("protocolVersion").asString()).isEqualTo(answered);
        assertThat(result.at("/capabilities/tools/listChanged").asBoolean(true)).isFalse();
        assertThat(result.at("/serverInfo/name").asString()).isEqualTo("lomi-control");
        assertThat(result.get("instructions").asString())
                .contains("lomi_status")
                .contains("lomi_workspace_list")
                .contains("lomi_connect")
                .contains("lomi_operation_get")
                .contains("approv")
                .contains("untrusted")
                .contains("waitMs");
    }

    @Test
    void olderRevisionsGetNoOutputSchemaNorStructuredContent() throws Exception {
        session.call(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2024-11-05\",\"capabilities\":{}}}");
        JsonNode tool = session.call("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}")
                .at("/result/tools/0");
        JsonNode status = session.call(
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"lomi_status\"}}");

        assertThat(tool.has("outputSchema")).isFalse();
        assertThat(tool.has("annotations")).isFalse();
        assertThat(status.at("/result/structuredContent").isMissingNode()).isTrue();
        assertThat(status.at("/result/content/0/text").asString()).contains("\"kind\":\"status\"");
    }

    @Test
    void aStatelessRequestIsServedWithoutInitializeAndItsResultIsMarkedComplete() throws Exception {
        JsonNode response = session.call(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
                        + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientInfo\":{\"name\":\"x\",\"version\":\"1\"}}}}");

        assertThat(response.at("/result/resultType").asString()).isEqualTo("complete");
        assertThat(response.at("/result/_meta/io.modelcontextprotocol~1serverInfo/name")
                        .asString())
                .isEqualTo("lomi-control");
        assertThat(response.at("/result/tools").size())
                .isEqualTo(session.catalog.all().size());
        assertThat(response.at("/result/ttlMs").asLong()).isPositive();
        assertThat(response.at("/result/cacheScope").asString()).isEqualTo("public");
    }

    @Test
    void anUnknownDeclaredVersionIsUnsupportedProtocolVersionWithTheSupportedList() throws Exception {
        JsonNode error = session.call("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"_meta\":{"
                        + "\"io.modelcontextprotocol/protocolVersion\":\"2030-01-01\"}}}")
                .get("error");

        assertThat(error.get("code").asInt()).isEqualTo(-32022);
        assertThat(error.at("/data/requested").asString()).isEqualTo("2030-01-01");
        assertThat(error.at("/data/supported").toString())
                .contains("2026-07-28")
                .contains("2024-11-05");
    }

    @Test
    void serverDiscoverListsEveryVersionAndIsComplete() throws Exception {
        JsonNode result = session.call("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\"}")
                .get("result");

        assertThat(result.get("supportedVersions").toString())
                .isEqualTo("[\"2024-11-05\",\"2025-03-26\",\"2025-06-18\",\"2025-11-25\",\"2026-07-28\"]");
        assertThat(result.get("resultType").asString()).isEqualTo("complete");
        assertThat(result.has("capabilities") && result.has("instructions") && result.has("serverInfo"))
                .isTrue();
        assertThat(result.get("cacheScope").asString()).isEqualTo("public");
    }

    @Test
    void argumentsOver64KiBAreAPayloadTooLargeResultBeforeAnyValidation() throws Exception {
        String big = "x".repeat(70_000);
        JsonNode result = session.call(
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"lomi_workspace_list\","
                                + "\"arguments\":{\"nonsense\":\"" + big + "\"}}}")
                .get("result");

        assertThat(result.get("isError").asBoolean()).isTrue();
        assertThat(result.at("/structuredContent/code").asString()).isEqualTo("PAYLOAD_TOO_LARGE");
        assertThat(result.at("/structuredContent/message").asString()).contains("payload too large");
    }

    @Test
    void schemaViolationsAreInvalidArgumentResultsNamingTheField() throws Exception {
        JsonNode unknown = callTool("lomi_workspace_list", "{\"limit\":5,\"colour\":\"red\"}");
        JsonNode range = callTool("lomi_workspace_list", "{\"limit\":501}");
        JsonNode multiline = callTool("lomi_session_attach", "{\"externalId\":\"a\\nb\"}");

        assertThat(unknown.at("/structuredContent/code").asString()).isEqualTo("INVALID_ARGUMENT");
        assertThat(unknown.at("/structuredContent/message").asString())
                .contains("arguments")
                .contains("arguments.colour: unknown field");
        assertThat(range.at("/structuredContent/message").asString())
                .contains("arguments.limit")
                .contains("500");
        assertThat(multiline.at("/structuredContent/message").asString()).contains("arguments.externalId");
        assertThat(unknown.get("isError").asBoolean()).isTrue();
    }

    @Test
    void beforePairingBrokerToolsAnswerWithTheConnectionPhase() throws Exception {
        JsonNode result = callTool("lomi_workspace_list", "{}");

        assertThat(result.get("isError").asBoolean()).isTrue();
        assertThat(result.at("/structuredContent/code").asString()).isEqualTo("APP_UNAVAILABLE");
        assertThat(callTool("lomi_status", "{}")
                        .at("/structuredContent/data/phase")
                        .asString())
                .isEqualTo("app_unavailable");
    }

    private JsonNode callTool(String tool, String arguments) throws InterruptedException {
        return session.call("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                        + "\",\"arguments\":" + arguments + "}}")
                .get("result");
    }
}
