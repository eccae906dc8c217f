package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.ipc.Envelope;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Every catalog tool publishes complete schemas, and real results conform to them. */
class CatalogTests {

    static final String OP_ID = "0123456789abcdef0123456789abcdef01234567";
    /** The fields of an episode as the broker puts them (flat, without braces so they can be embedded). */
    static final String EPISODE = "\"episodeId\":\"e1\",\"externalId\":\"thread-1\",\"state\":\"attached\",\"attachments\":1,"
            + "\"openedAt\":\"2026-11-30T10:00:00Z\",\"lastActivity\":\"2026-11-30T10:01:00Z\"";
    static final String CLOSED = EPISODE.replace("attached", "closed") + ",\"closedAt\":\"2026-11-30T10:02:00Z\",\"closeReason\":\"closed\","
            + "\"ending\":\"closed\"";
    static final String OPERATION = "{\"kind\":\"operation\",\"operationId\":\"" + OP_ID + "\",\"tool\":\"lomi_terminal_run\",\"state\":\"running\","
            + "\"effectState\":\"unknown\",\"workspaceId\":\"w1\"}";

    /** Hand-made data as the broker answers it (SPEC §4–§9), one per broker tool. */
    static final Map<String, String> BROKER_DATA = Map.of(
            "lomi_connect", "{\"kind\":\"connection\",\"instanceId\":\"" + "a".repeat(32) + "\",\"workspaceId\":\"w1\",\"projectId\":\"p1\","
                    + "\"retryEpoch\":\"" + OP_ID + "\",\"retryEpochExpiresAt\":\"2026-12-01T10:00:00Z\",\"scopes\":[\"workspace.read\"]}",
            "lomi_workspace_list", "{\"kind\":\"workspace_list\",\"domainRevision\":\"12\",\"workspaces\":[{\"workspaceId\":\"w1\",\"projectId\":\"p1\","
                    + "\"name\":\"main\",\"projectName\":\"demo\",\"projectPath\":\"/home/u/demo\"}],\"hasMore\":false}",
            "lomi_operation_get", OPERATION,
            "lomi_operation_cancel", OPERATION.replace("running", "cancelling"),
            "lomi_events_read", "{\"kind\":\"events\",\"workspaceId\":\"w1\",\"events\":[{\"sequence\":1,\"kind\":\"operation_state\",\"operationId\":\""
                    + OP_ID + "\",\"tool\":\"lomi_terminal_run\",\"state\":\"queued\",\"effectState\":\"none\",\"timestampSeconds\":1796000000}],"
                    + "\"nextCursor\":\"c1\",\"hasMore\":false,\"gap\":false}",
            "lomi_session_attach", "{\"kind\":\"episode\"," + EPISODE + ",\"resumed\":false,\"reattachGraceSeconds\":900}",
            "lomi_session_detach", "{\"kind\":\"episode\"," + CLOSED + "}",
            "lomi_episodes", "{\"kind\":\"episodes\",\"attached\":1,\"detached\":0,\"reattachGraceSeconds\":900,\"episodes\":[{" + EPISODE
                    + ",\"held\":true,\"mine\":true,\"holdingSession\":\"s1\",\"lastActivitySecondsAgo\":3}],\"recentlyClosed\":[{" + CLOSED
                    + "}],\"mine\":{" + EPISODE + ",\"held\":true,\"mine\":true,\"lastActivitySecondsAgo\":3}}");

    final Catalog catalog = Catalog.standard();

    @Test
    void theCatalogHasTheToolsOfThisIssueInAFixedOrder() {
        assertThat(catalog.all()).extracting(ToolDefinition::name).containsExactly("lomi_status", "lomi_diagnostics", "lomi_connect",
                "lomi_workspace_list", "lomi_operation_get", "lomi_operation_cancel", "lomi_events_read", "lomi_session_attach",
                "lomi_session_detach", "lomi_episodes");
    }

    @Test
    void everyListedToolHasATitleClosedInputSchemaOutputSchemaAndAnnotations() {
        JsonNode tools = catalog.listResult(ProtocolVersion.V2025_11_25).get("tools");

        assertThat(tools.size()).isEqualTo(catalog.all().size());
        for (JsonNode tool : tools.values()) {
            String name = tool.get("name").asString();
            assertThat(tool.get("title").asString()).as(name).isNotBlank();
            assertThat(tool.get("description").asString()).as(name).hasSizeGreaterThan(20);
            assertThat(tool.at("/inputSchema/type").asString()).as(name).isEqualTo("object");
            assertThat(tool.at("/inputSchema/additionalProperties").isBoolean() && !tool.at("/inputSchema/additionalProperties").asBoolean())
                    .as(name + " input is closed").isTrue();
            assertThat(tool.get("inputSchema").propertyNames()).as(name + " has no top-level composition")
                    .doesNotContain("oneOf", "anyOf", "allOf", "not", "if");
            assertThat(tool.at("/outputSchema/type").asString()).as(name).isEqualTo("object");
            assertThat(tool.at("/outputSchema/oneOf").size()).as(name + " output is ok|error").isEqualTo(2);
            assertThat(tool.at("/annotations/openWorldHint").asBoolean(true)).as(name).isFalse();
        }
    }

    @Test
    void annotationsFollowTheEffectKind() {
        for (ToolDefinition tool : catalog.all()) {
            JsonNode annotations = tool.effect().annotations(tool.title());
            assertThat(annotations.get("readOnlyHint").asBoolean()).as(tool.name()).isEqualTo(tool.effect() == Effect.RO);
            assertThat(annotations.get("destructiveHint").asBoolean()).as(tool.name()).isEqualTo(tool.effect() != Effect.RO);
            assertThat(annotations.get("idempotentHint").asBoolean()).as(tool.name()).isEqualTo(tool.effect() != Effect.MUT);
        }
        assertThat(catalog.find("lomi_connect").orElseThrow().effect()).isEqualTo(Effect.RO);
        assertThat(catalog.find("lomi_operation_cancel").orElseThrow().effect()).isEqualTo(Effect.MUT);
    }

    @Test
    void statusAndDiagnosticsBeforePairingConformToTheirOutputSchemas() throws Exception {
        InProcessServer session = new InProcessServer();
        for (String tool : List.of("lomi_status", "lomi_diagnostics")) {
            JsonNode result = session.call("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool + "\"}}").get("result");

            assertThat(result.get("isError").asBoolean()).isFalse();
            assertThat(conformance(tool, result.get("structuredContent"))).as(tool).isEmpty();
            assertThat(McpJson.MAPPER.readTree(result.at("/content/0/text").asString())).isEqualTo(result.get("structuredContent"));
        }
    }

    @Test
    void theStatusNamesNoWorkspaceOrProjectAndListsEveryCapability() throws Exception {
        JsonNode data = new InProcessServer().call("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"lomi_status\"}}")
                .at("/result/structuredContent/data");

        assertThat(data.propertyNames()).doesNotContain("workspaces", "workspaceId", "projectId", "projectName", "projectPath");
        assertThat(data.get("capabilities").size()).isEqualTo(catalog.all().size());
        assertThat(data.get("ipcVersion").asInt()).isEqualTo(1);
    }

    @Test
    void handMadeBrokerAnswersConformAndEveryErrorEnvelopeConforms() {
        for (ToolDefinition tool : catalog.all()) {
            if (tool.answeredBy() == ToolDefinition.AnsweredBy.BROKER) {
                JsonNode data = SchemaValidatorTests.json(BROKER_DATA.get(tool.name()));
                assertThat(conformance(tool.name(), Envelope.ok(data))).as(tool.name()).isEmpty();
            }
            assertThat(conformance(tool.name(), Envelope.error(ErrorCode.PAIRING_REQUIRED, "approve me"))).as(tool.name()).isEmpty();
        }
    }

    @Test
    void answersThatBreakTheContractDoNotConform() {
        JsonNode wrongKind = SchemaValidatorTests.json(BROKER_DATA.get("lomi_operation_get").replace("\"operation\"", "\"op\""));
        JsonNode badState = SchemaValidatorTests.json(BROKER_DATA.get("lomi_operation_get").replace("running", "done"));

        assertThat(conformance("lomi_operation_get", Envelope.ok(wrongKind))).isPresent();
        assertThat(conformance("lomi_operation_get", Envelope.ok(badState))).isPresent();
        assertThat(conformance("lomi_status", SchemaValidatorTests.json("{\"controlApiVersion\":\"1.0\",\"status\":\"error\",\"code\":\"NOPE\","
                + "\"message\":\"x\"}"))).isPresent();
    }

    @Test
    void theResendRuleAllowsOnlyUnsentCallsAndReads() {
        assertThat(Bridge.mayResend(Optional.of(Effect.RO), true)).isTrue();
        assertThat(Bridge.mayResend(Optional.of(Effect.OP), true)).isFalse();
        assertThat(Bridge.mayResend(Optional.of(Effect.MUT), true)).isFalse();
        assertThat(Bridge.mayResend(Optional.empty(), true)).as("an unknown tool is not idempotent").isFalse();
        for (Effect effect : Effect.values()) {
            assertThat(Bridge.mayResend(Optional.of(effect), false)).as(effect + " not sent").isTrue();
        }
        assertThat(Bridge.mayResend(Optional.empty(), false)).isTrue();
    }

    private Optional<String> conformance(String tool, JsonNode envelope) {
        return SchemaValidator.firstViolation(catalog.find(tool).orElseThrow().outputSchema(), envelope, "result");
    }
}
