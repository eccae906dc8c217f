package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.ipc.Envelope;
import dev.lomicontrol.pairing.Scopes;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

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

    static final String SESSION = "0123456789abcdef0123456789abcdef";
    static final String LEASE = "fedcba9876543210fedcba9876543210";
    static final String DURABLE = "\"retryEpoch\":\"" + OP_ID + "\",\"requestKey\":\"req-1\"";
    static final String REVISION = "\"expectedRevision\":\"12\"";
    static final String TERMINAL = "\"workspaceId\":\"w1\",\"panelId\":\"p7\",\"terminalSessionId\":\"" + SESSION + "\"";
    static final String LEASED = TERMINAL + ",\"leaseId\":\"" + LEASE + "\"";
    static final String COMMAND = "\"command\":{\"runId\":\"r1\",\"operationId\":\"" + OP_ID + "\",\"startedObserved\":true,"
            + "\"completed\":true,\"exitCode\":0,\"startCursor\":\"100\",\"endCursor\":\"180\"}";
    static final String OUTPUT = "{\"kind\":\"terminal_output\",\"mode\":\"output\",\"terminalSessionId\":\"" + SESSION + "\",\"text\":\"hi\\n\","
            + "\"cursor\":\"0\",\"nextCursor\":\"3\",\"availableFrom\":\"0\",\"gap\":false,\"end\":true,\"prompt\":\"ready\",\"exited\":false,"
            + "\"shellExitCode\":null,\"leaseHeld\":true,\"nextInputSequence\":\"1\",\"streamSequence\":\"3\",\"command\":null}";
    static final String SCREEN = "{\"kind\":\"terminal_screen\",\"terminalSessionId\":\"" + SESSION + "\",\"columns\":120,\"rows\":2,"
            + "\"cursor\":{\"row\":1,\"column\":2,\"visible\":true},\"buffer\":\"normal\",\"lines\":[\"hi\",\"$ \"],\"text\":\"hi\\n$ \","
            + "\"title\":\"bash\",\"streamSequence\":\"3\",\"exited\":false}";

    /** A valid call of every layout and terminal tool, as an agent written for the reference sends it. */
    static final Map<String, String> VALID = Map.ofEntries(
            Map.entry("lomi_workspace_create", "{\"workspaceId\":\"w1\",\"name\":\"feature\"," + REVISION + "," + DURABLE + "}"),
            Map.entry("lomi_workspace_update", "{\"workspaceId\":\"w1\",\"name\":\"renamed\"," + REVISION + "," + DURABLE + "}"),
            Map.entry("lomi_project_open", "{\"workspaceId\":\"w1\",\"projectPath\":\"/home/u/other\",\"name\":\"other\"," + REVISION + ","
                    + DURABLE + "}"),
            Map.entry("lomi_project_close", "{\"projectId\":\"p1\",\"workspaceId\":\"w1\"," + REVISION + "," + DURABLE + "}"),
            Map.entry("lomi_panel_list", "{\"workspaceId\":\"w1\",\"limit\":50,\"cursor\":\"c1\"}"),
            Map.entry("lomi_panel_focus", "{" + TERMINAL + "," + REVISION + "," + DURABLE + "}"),
            Map.entry("lomi_panel_close", "{\"workspaceId\":\"w1\",\"panelId\":\"p7\"," + REVISION + "," + DURABLE + "}"),
            Map.entry("lomi_panel_move", "{\"workspaceId\":\"w1\",\"movement\":{\"type\":\"reorder_tab\",\"tabId\":\"t1\",\"beforeTabId\":null},"
                    + REVISION + "," + DURABLE + "}"),
            Map.entry("lomi_panel_control", "{" + TERMINAL + ",\"action\":\"claim\"," + DURABLE + "}"),
            Map.entry("lomi_terminal_create", "{\"workspaceId\":\"w1\",\"cwdRelative\":\"src/app\",\"profileId\":\"bash\",\"title\":\"build\","
                    + "\"columns\":120,\"rows\":32," + REVISION + "," + DURABLE + "}"),
            Map.entry("lomi_terminal_run", "{" + LEASED + ",\"command\":\"ls -la | wc -l\"," + DURABLE + "}"),
            Map.entry("lomi_terminal_input", "{" + LEASED + ",\"inputSequence\":\"1\",\"input\":{\"type\":\"text\",\"text\":\"echo hi\"}}"),
            Map.entry("lomi_terminal_interrupt", "{" + LEASED + ",\"operationId\":\"" + OP_ID + "\"," + DURABLE + "}"),
            Map.entry("lomi_terminal_read", "{" + TERMINAL + ",\"mode\":\"output\",\"cursor\":\"0\",\"maxBytes\":4096}"));

    /** Hand-made data as the broker answers it (SPEC §4–§9), one per broker tool. */
    static final Map<String, String> BROKER_DATA = Map.ofEntries(
            Map.entry("lomi_workspace_create", settled("lomi_workspace_create", "{\"kind\":\"workspace_created\",\"workspaceId\":\"w2\","
                    + "\"projectId\":\"p1\",\"panelId\":\"s1\",\"domainRevision\":\"13\"}")),
            Map.entry("lomi_workspace_update", settled("lomi_workspace_update", "{\"kind\":\"workspace_updated\",\"action\":\"rename\","
                    + "\"workspaceId\":\"w1\",\"domainRevision\":\"13\"}")),
            Map.entry("lomi_project_open", OPERATION.replace("lomi_terminal_run", "lomi_project_open").replace("running", "awaiting_user")
                    .replace("unknown", "none")),
            Map.entry("lomi_project_close", settled("lomi_project_close", "{\"kind\":\"project_closed\",\"projectId\":\"p1\","
                    + "\"closedWorkspaceIds\":[\"w1\",\"w2\"],\"domainRevision\":\"14\"}")),
            Map.entry("lomi_panel_list", "{\"kind\":\"panel_list\",\"workspaceId\":\"w1\",\"domainRevision\":\"12\",\"activePanelId\":\"p7\","
                    + "\"tabs\":[{\"tabId\":\"t1\",\"panelIds\":[\"s1\",\"p7\"],\"layout\":{\"split\":\"row\",\"children\":[\"s1\",\"p7\"]}}],"
                    + "\"panels\":[{\"panelId\":\"s1\",\"tabId\":\"t1\",\"kind\":\"scratch\",\"title\":\"scratch\",\"terminalSessionId\":null,"
                    + "\"ownership\":\"none\",\"runtimeState\":\"not_started\",\"inputControlled\":false,\"focused\":false},{\"panelId\":\"p7\","
                    + "\"tabId\":\"t1\",\"kind\":\"terminal\",\"title\":\"build\",\"terminalSessionId\":\"" + SESSION + "\",\"ownership\":"
                    + "\"this_session\",\"runtimeState\":\"ready\",\"inputControlled\":true,\"focused\":true}],\"hasMore\":false,"
                    + "\"nextCursor\":null}"),
            Map.entry("lomi_panel_focus", settled("lomi_panel_focus", "{\"kind\":\"panel_focused\",\"workspaceId\":\"w1\",\"panelId\":\"p7\","
                    + "\"domainRevision\":\"13\"}")),
            Map.entry("lomi_panel_close", OPERATION.replace("lomi_terminal_run", "lomi_panel_close").replace("running", "failed")
                    .replace("unknown", "none").replace("}", ",\"errorCode\":\"TARGET_BUSY\"}")),
            Map.entry("lomi_panel_move", settled("lomi_panel_move", "{\"kind\":\"panel_moved\",\"workspaceId\":\"w1\",\"movement\":"
                    + "\"reorder_tab\",\"domainRevision\":\"13\"}")),
            Map.entry("lomi_panel_control", settled("lomi_panel_control", "{\"kind\":\"panel_control\",\"action\":\"release\","
                    + "\"terminalSessionId\":\"" + SESSION + "\",\"leaseId\":null}")),
            Map.entry("lomi_terminal_create", settled("lomi_terminal_create", "{\"kind\":\"terminal_created\",\"workspaceId\":\"w1\","
                    + "\"panelId\":\"p7\",\"tabId\":\"t1\",\"terminalSessionId\":\"" + SESSION + "\",\"leaseId\":\"" + LEASE + "\","
                    + "\"profileId\":\"bash\",\"domainRevision\":\"13\"}")),
            Map.entry("lomi_terminal_run", OPERATION),
            Map.entry("lomi_terminal_input", "{\"kind\":\"terminal_input\",\"terminalSessionId\":\"" + SESSION + "\",\"inputSequence\":\"1\","
                    + "\"state\":\"dispatched\",\"repeated\":false,\"nextInputSequence\":\"2\"}"),
            Map.entry("lomi_terminal_interrupt", settled("lomi_terminal_interrupt", "{\"kind\":\"terminal_interrupt\",\"targetOperationId\":\""
                    + OP_ID + "\",\"dispatched\":true}")),
            Map.entry("lomi_terminal_read", OUTPUT),
            Map.entry("lomi_connect", "{\"kind\":\"connection\",\"instanceId\":\"" + "a".repeat(32) + "\",\"workspaceId\":\"w1\","
                    + "\"projectId\":\"p1\",\"retryEpoch\":\"" + OP_ID + "\",\"retryEpochExpiresAt\":\"2026-12-01T10:00:00Z\","
                    + "\"scopes\":[\"workspace.read\"]}"),
            Map.entry("lomi_workspace_list", "{\"kind\":\"workspace_list\",\"domainRevision\":\"12\",\"workspaces\":[{\"workspaceId\":\"w1\","
                    + "\"projectId\":\"p1\",\"name\":\"main\",\"projectName\":\"demo\",\"projectPath\":\"/home/u/demo\"}],\"hasMore\":false}"),
            Map.entry("lomi_operation_get", OPERATION),
            Map.entry("lomi_operation_cancel", OPERATION.replace("running", "cancelling")),
            Map.entry("lomi_events_read", "{\"kind\":\"events\",\"workspaceId\":\"w1\",\"events\":[{\"sequence\":1,\"kind\":\"operation_state\","
                    + "\"operationId\":\"" + OP_ID + "\",\"tool\":\"lomi_terminal_run\",\"state\":\"queued\",\"effectState\":\"none\","
                    + "\"timestampSeconds\":1796000000}],\"nextCursor\":\"c1\",\"hasMore\":false,\"gap\":false}"),
            Map.entry("lomi_session_attach", "{\"kind\":\"episode\"," + EPISODE + ",\"resumed\":false,\"reattachGraceSeconds\":900}"),
            Map.entry("lomi_session_detach", "{\"kind\":\"episode\"," + CLOSED + "}"),
            Map.entry("lomi_episodes", "{\"kind\":\"episodes\",\"attached\":1,\"detached\":0,\"reattachGraceSeconds\":900,\"episodes\":[{"
                    + EPISODE + ",\"held\":true,\"mine\":true,\"holdingSession\":\"s1\",\"lastActivitySecondsAgo\":3}],\"recentlyClosed\":[{"
                    + CLOSED + "}],\"mine\":{" + EPISODE + ",\"held\":true,\"mine\":true,\"lastActivitySecondsAgo\":3}}"));

    final Catalog catalog = Catalog.standard();

    @Test
    void theCatalogHasTheToolsOfThisIssueInAFixedOrder() {
        assertThat(catalog.all()).extracting(ToolDefinition::name).containsExactly("lomi_status", "lomi_diagnostics", "lomi_connect",
                "lomi_workspace_list", "lomi_operation_get", "lomi_operation_cancel", "lomi_events_read", "lomi_session_attach",
                "lomi_session_detach", "lomi_episodes", "lomi_workspace_create", "lomi_workspace_update", "lomi_project_open",
                "lomi_project_close", "lomi_panel_list", "lomi_panel_focus", "lomi_panel_close", "lomi_panel_move", "lomi_panel_control",
                "lomi_terminal_create", "lomi_terminal_run", "lomi_terminal_input", "lomi_terminal_interrupt", "lomi_terminal_read");
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

    @Test
    void layoutAndTerminalToolsHaveTheirEffectAndGrantScope() {
        Map<String, String> scopes = Map.ofEntries(Map.entry("lomi_workspace_create", "OP workspace.write"),
                Map.entry("lomi_workspace_update", "OP workspace.write"), Map.entry("lomi_project_open", "OP project.open"),
                Map.entry("lomi_project_close", "OP project.close"), Map.entry("lomi_panel_list", "RO workspace.read"),
                Map.entry("lomi_panel_focus", "OP panel.focus"), Map.entry("lomi_panel_close", "OP panel.close"),
                Map.entry("lomi_panel_move", "OP panel.move"), Map.entry("lomi_panel_control", "OP terminal.execute"),
                Map.entry("lomi_terminal_create", "OP terminal.execute"), Map.entry("lomi_terminal_run", "OP terminal.execute"),
                Map.entry("lomi_terminal_input", "MUT terminal.execute"), Map.entry("lomi_terminal_interrupt", "OP terminal.execute"),
                Map.entry("lomi_terminal_read", "RO terminal.read"));

        assertThat(scopes.keySet()).isEqualTo(VALID.keySet());
        for (Map.Entry<String, String> expected : scopes.entrySet()) {
            ToolDefinition tool = catalog.find(expected.getKey()).orElseThrow();
            assertThat(tool.effect() + " " + tool.scope().orElse("-")).as(tool.name()).isEqualTo(expected.getValue());
            assertThat(tool.answeredBy()).as(tool.name()).isEqualTo(ToolDefinition.AnsweredBy.BROKER);
            assertThat(Scopes.all()).as(tool.name() + " names a scope a grant can hold").contains(tool.scope().orElseThrow());
            JsonNode annotations = tool.listEntry(ProtocolVersion.V2025_11_25).get("annotations");
            assertThat(annotations.get("readOnlyHint").asBoolean()).as(tool.name()).isEqualTo(tool.effect() == Effect.RO);
            assertThat(annotations.get("idempotentHint").asBoolean()).as(tool.name()).isEqualTo(tool.effect() != Effect.MUT);
        }
    }

    @Test
    void everyLayoutAndTerminalInputAcceptsAValidCallAndRefusesAnUnknownField() {
        for (Map.Entry<String, String> call : VALID.entrySet()) {
            ObjectNode arguments = arguments(call.getValue());
            assertThat(violation(call.getKey(), arguments)).as(call.getKey()).isEmpty();

            arguments.put("surprise", true);
            assertThat(violation(call.getKey(), arguments)).as(call.getKey()).hasValueSatisfying(problem ->
                    assertThat(problem).startsWith("arguments.surprise: unknown field"));
        }
    }

    @Test
    void everyDurableToolRequiresAValidRetryEpochAndRequestKey() {
        List<ToolDefinition> durable = catalog.all().stream().filter(tool -> tool.effect() == Effect.OP).toList();

        assertThat(durable).extracting(ToolDefinition::name).containsExactlyInAnyOrderElementsOf(VALID.keySet().stream()
                .filter(name -> !List.of("lomi_panel_list", "lomi_terminal_input", "lomi_terminal_read").contains(name)).toList());
        for (ToolDefinition tool : durable) {
            for (String field : List.of("retryEpoch", "requestKey")) {
                ObjectNode without = arguments(VALID.get(tool.name()));
                without.remove(field);
                assertThat(violation(tool.name(), without)).as(tool.name()).contains("arguments." + field + ": is required");
            }
            assertThat(violation(tool.name(), with(tool.name(), "retryEpoch", "\"" + OP_ID.toUpperCase() + "\""))).as(tool.name()).isPresent();
            assertThat(violation(tool.name(), with(tool.name(), "requestKey", "\"a key\""))).as(tool.name()).isPresent();
            assertThat(violation(tool.name(), with(tool.name(), "requestKey", "\"" + "k".repeat(129) + "\""))).as(tool.name()).isPresent();
        }
        assertThat(catalog.find("lomi_terminal_input").orElseThrow().inputSchema().at("/properties").has("retryEpoch")).isFalse();
    }

    @Test
    void workspaceUpdateTakesExactlyOneOfRenameSelectOrClose() {
        String base = "{\"workspaceId\":\"w1\"," + REVISION + "," + DURABLE;

        assertThat(violation("lomi_workspace_update", arguments(base + ",\"name\":\"renamed\"}"))).isEmpty();
        assertThat(violation("lomi_workspace_update", arguments(base + ",\"action\":\"select\"}"))).isEmpty();
        assertThat(violation("lomi_workspace_update", arguments(base + ",\"action\":\"close\"}"))).isEmpty();
        assertThat(violation("lomi_workspace_update", arguments(base + "}"))).hasValueSatisfying(problem ->
                assertThat(problem).contains("exactly one", "arguments.name: is required", "arguments.action: is required"));
        assertThat(violation("lomi_workspace_update", arguments(base + ",\"name\":\"x\",\"action\":\"select\"}"))).hasValueSatisfying(problem ->
                assertThat(problem).contains("arguments.action: unknown field", "arguments.name: unknown field"));
        assertThat(violation("lomi_workspace_update", arguments(base + ",\"action\":\"delete\"}"))).isPresent();
        assertThat(violation("lomi_workspace_update", arguments(base + ",\"name\":\" \"}"))).as("a blank name").isPresent();
    }

    @Test
    void panelMoveTakesExactlyTheFieldsOfOneMovement() {
        for (String movement : List.of("{\"type\":\"reorder_tab\",\"tabId\":\"t1\"}",
                "{\"type\":\"reorder_tab\",\"tabId\":\"t1\",\"beforeTabId\":\"t0\"}",
                "{\"type\":\"dock_tab\",\"tabId\":\"t1\",\"targetTabId\":\"t2\",\"side\":\"left\"}",
                "{\"type\":\"move_pane\",\"panelId\":\"p1\",\"targetPanelId\":\"p2\",\"side\":\"bottom\"}",
                "{\"type\":\"transfer_tab\",\"tabId\":\"t1\",\"targetWorkspaceId\":\"w2\",\"beforeTabId\":null}")) {
            assertThat(violation("lomi_panel_move", with("lomi_panel_move", "movement", movement))).as(movement).isEmpty();
        }
        for (String movement : List.of("{\"type\":\"reorder_tab\"}", "{\"type\":\"dock_tab\",\"tabId\":\"t1\",\"targetTabId\":\"t2\"}",
                "{\"type\":\"reorder_tab\",\"tabId\":\"t1\",\"targetTabId\":\"t2\",\"side\":\"left\"}",
                "{\"type\":\"move_pane\",\"panelId\":\"p1\",\"targetPanelId\":\"p2\",\"side\":\"left\",\"tabId\":\"t1\"}",
                "{\"type\":\"dock_tab\",\"tabId\":\"t1\",\"targetTabId\":\"t2\",\"side\":\"middle\"}", "{\"type\":\"teleport\",\"tabId\":\"t1\"}",
                "{\"tabId\":\"t1\"}", "{}")) {
            assertThat(violation("lomi_panel_move", with("lomi_panel_move", "movement", movement))).as(movement)
                    .hasValueSatisfying(problem -> assertThat(problem).startsWith("arguments.movement"));
        }
    }

    @Test
    void terminalInputTakesEitherTextOrAKey() {
        for (String input : List.of("{\"type\":\"text\",\"text\":\"ls\"}", "{\"type\":\"key\",\"key\":\"ctrl_c\"}",
                "{\"type\":\"key\",\"key\":\"enter\"}")) {
            assertThat(violation("lomi_terminal_input", with("lomi_terminal_input", "input", input))).as(input).isEmpty();
        }
        for (String input : List.of("{\"type\":\"text\"}", "{\"type\":\"key\"}", "{\"type\":\"text\",\"key\":\"enter\"}",
                "{\"type\":\"text\",\"text\":\"ls\",\"key\":\"enter\"}", "{\"type\":\"key\",\"key\":\"f1\"}", "{\"type\":\"text\",\"text\":\"\"}",
                "{\"type\":\"text\",\"text\":\"a\\u0000b\"}", "{\"text\":\"ls\"}")) {
            assertThat(violation("lomi_terminal_input", with("lomi_terminal_input", "input", input))).as(input)
                    .hasValueSatisfying(problem -> assertThat(problem).startsWith("arguments.input"));
        }
        assertThat(violation("lomi_terminal_input", with("lomi_terminal_input", "inputSequence", "\"0\""))).isPresent();
        assertThat(violation("lomi_terminal_input", with("lomi_terminal_input", "inputSequence", "1"))).as("a number, not a string").isPresent();
    }

    @Test
    void terminalReadNeedsAnOperationIdInCommandModeAndOnlyThere() {
        assertThat(violation("lomi_terminal_read", arguments("{" + TERMINAL + "}"))).isEmpty();
        assertThat(violation("lomi_terminal_read", arguments("{" + TERMINAL + ",\"mode\":\"command\",\"operationId\":\"" + OP_ID + "\"}"))).isEmpty();
        assertThat(violation("lomi_terminal_read", arguments("{" + TERMINAL + ",\"mode\":\"screen\"}"))).isEmpty();
        assertThat(violation("lomi_terminal_read", arguments("{" + TERMINAL + ",\"mode\":\"command\"}"))).isPresent();
        assertThat(violation("lomi_terminal_read", arguments("{" + TERMINAL + ",\"operationId\":\"" + OP_ID + "\"}"))).isPresent();
        assertThat(violation("lomi_terminal_read", arguments("{" + TERMINAL + ",\"mode\":\"raw\",\"operationId\":\"" + OP_ID + "\"}"))).isPresent();
    }

    @Test
    void idsRevisionsPathsAndSizesAreCheckedBeforeTheBrokerSeesThem() {
        Map<String, List<String>> refused = Map.of(
                "lomi_terminal_run", List.of("terminalSessionId=\"" + SESSION.toUpperCase() + "\"", "leaseId=\"abc\"", "command=\"ls\\nrm -rf x\"",
                        "command=\"\"", "command=\"" + "x".repeat(16385) + "\"", "panelId=\"a b\""),
                "lomi_workspace_create", List.of("expectedRevision=\"012\"", "expectedRevision=12", "name=\"\"", "name=\"a\\tb\""),
                "lomi_project_open", List.of("projectPath=\"relative/dir\"", "projectPath=\"/" + "d".repeat(4096) + "\""),
                "lomi_terminal_create", List.of("cwdRelative=\"/etc\"", "cwdRelative=\"a\\\\b\"", "columns=19", "rows=1025", "profileId=\"fish\""),
                "lomi_terminal_read", List.of("maxBytes=65537", "maxBytes=0", "cursor=\"-1\"", "mode=\"pixels\""),
                "lomi_panel_list", List.of("limit=501", "limit=0"),
                "lomi_terminal_interrupt", List.of("operationId=\"" + SESSION + "\""));
        for (Map.Entry<String, List<String>> tool : refused.entrySet()) {
            for (String change : tool.getValue()) {
                String[] field = change.split("=", 2);
                assertThat(violation(tool.getKey(), with(tool.getKey(), field[0], field[1]))).as(tool.getKey() + " " + change)
                        .hasValueSatisfying(problem -> assertThat(problem).startsWith("arguments." + field[0]));
            }
        }
    }

    @Test
    void aCallThatBreaksAUnionIsRefusedByTheHelperAndAValidOneIsForwarded() throws Exception {
        InProcessServer session = new InProcessServer();
        String twoMovements = "{\"workspaceId\":\"w1\",\"movement\":{\"type\":\"reorder_tab\",\"tabId\":\"t1\",\"panelId\":\"p1\"}," + REVISION
                + "," + DURABLE + "}";

        JsonNode refused = session.call(toolCall(1, "lomi_panel_move", twoMovements)).get("result");
        JsonNode forwarded = session.call(toolCall(2, "lomi_panel_move", VALID.get("lomi_panel_move"))).get("result");

        assertThat(refused.get("isError").asBoolean()).isTrue();
        assertThat(refused.at("/structuredContent/code").asString()).isEqualTo("INVALID_ARGUMENT");
        assertThat(refused.at("/structuredContent/message").asString()).contains("lomi_panel_move", "arguments.movement.panelId: unknown field");
        assertThat(forwarded.at("/structuredContent/code").asString()).as("no broker: refused only for that").isEqualTo("APP_UNAVAILABLE");
    }

    @Test
    void everyTerminalReadShapeConformsAndOnlyWithItsOwnFields() {
        String command = OUTPUT.replace("\"mode\":\"output\"", "\"mode\":\"command\"").replace("\"command\":null", COMMAND);
        String raw = OUTPUT.replace("\"mode\":\"output\"", "\"mode\":\"raw\"").replace("\"text\":\"hi\\n\"", "\"data\":\"aGkK\"");

        for (String data : List.of(OUTPUT, command, raw, SCREEN)) {
            assertThat(conformance("lomi_terminal_read", Envelope.ok(SchemaValidatorTests.json(data)))).as(data).isEmpty();
        }
        for (String data : List.of(raw.replace("\"data\"", "\"text\""), OUTPUT.replace("\"text\"", "\"data\""),
                OUTPUT.replace("\"nextCursor\":\"3\"", "\"nextCursor\":3"), OUTPUT.replace("\"ready\"", "\"idle\""),
                command.replace("\"startCursor\":\"100\",", ""), SCREEN.replace("\"buffer\":\"normal\"", "\"buffer\":\"main\""),
                SCREEN.replace("\"lines\":[\"hi\",\"$ \"],", ""))) {
            assertThat(conformance("lomi_terminal_read", Envelope.ok(SchemaValidatorTests.json(data)))).as(data).isPresent();
        }
    }

    @Test
    void panelListAndTerminalInputAnswersThatBreakTheContractDoNotConform() {
        String list = BROKER_DATA.get("lomi_panel_list");
        String input = BROKER_DATA.get("lomi_terminal_input");

        for (String data : List.of(list.replace("\"ready\"", "\"idle\""), list.replace("\"this_session\"", "\"mine\""),
                list.replace("\"domainRevision\":\"12\"", "\"domainRevision\":12"), list.replace(",\"focused\":false", ""))) {
            assertThat(conformance("lomi_panel_list", Envelope.ok(SchemaValidatorTests.json(data)))).as(data).isPresent();
        }
        assertThat(conformance("lomi_terminal_input", Envelope.ok(SchemaValidatorTests.json(input.replace("dispatched", "pending"))))).isPresent();
        assertThat(conformance("lomi_terminal_input", Envelope.ok(SchemaValidatorTests.json(input.replace("\"2\"", "2"))))).isPresent();
    }

    private Optional<String> conformance(String tool, JsonNode envelope) {
        return SchemaValidator.firstViolation(catalog.find(tool).orElseThrow().outputSchema(), envelope, "result");
    }

    /** The helper's check of a call's arguments: the published input schema, then the tool's constraint. */
    private Optional<String> violation(String tool, JsonNode arguments) {
        ToolDefinition definition = catalog.find(tool).orElseThrow();
        Optional<String> problem = SchemaValidator.firstViolation(definition.inputSchema(), arguments, "arguments");
        return problem.isPresent() ? problem
                : definition.constraint().flatMap(extra -> SchemaValidator.firstViolation(extra, arguments, "arguments"));
    }

    /** The valid call of {@code tool} with one field replaced by a JSON value. */
    private static ObjectNode with(String tool, String field, String json) {
        ObjectNode arguments = arguments(VALID.get(tool));
        arguments.set(field, SchemaValidatorTests.json(json));
        return arguments;
    }

    private static ObjectNode arguments(String json) {
        return (ObjectNode) SchemaValidatorTests.json(json);
    }

    private static String toolCall(int id, String tool, String arguments) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool + "\",\"arguments\":" + arguments
                + "}}";
    }

    /** A succeeded operation of {@code tool} with its typed result. */
    private static String settled(String tool, String result) {
        return "{\"kind\":\"operation\",\"operationId\":\"" + OP_ID + "\",\"tool\":\"" + tool + "\",\"state\":\"succeeded\","
                + "\"effectState\":\"complete\",\"workspaceId\":\"w1\",\"result\":" + result + "}";
    }
}
