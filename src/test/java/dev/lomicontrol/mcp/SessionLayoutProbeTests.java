package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.catalog.ToolCatalog;
import dev.lomicontrol.tools.ToolSpec;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * The probes of catalog.md §7 for the session, episode, workspace/project and panel tools, through
 * the helper without a broker (as the probe ran): a call the helper's validation accepts is
 * forwarded and answers APP_UNAVAILABLE, a refused one INVALID_ARGUMENT. Plus the reference's
 * annotations of these tools, and the status capability list built from the declarations.
 */
class SessionLayoutProbeTests {

    private static final String EPOCH = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    private static final String OP =
            "\"expectedRevision\":\"3\",\"retryEpoch\":\"" + EPOCH + "\",\"requestKey\":\"k-1\"";

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "lomi_workspace_list | {\"cursor\":null}",
                "lomi_workspace_list | {\"limit\":100,\"cursor\":null}",
                "lomi_connect | {\"workspaceId\":\"ws-1\"}",
                "lomi_panel_list | {\"workspaceId\":\"ws-1\",\"cursor\":null,\"limit\":50}",
                "lomi_panel_focus | {\"workspaceId\":\"ws-1\",\"panelId\":\"p-1\",\"terminalSessionId\":null,\"browserGeneration\":null,"
                        + OP + "}",
                "lomi_panel_focus | {\"workspaceId\":\"ws-1\",\"panelId\":\"p-1\",\"browserGeneration\":\"7\"," + OP
                        + "}",
                "lomi_panel_close | {\"workspaceId\":\"ws-1\",\"panelId\":\"p-1\",\"terminalSessionId\":null,\"browserGeneration\":\"7\","
                        + OP + "}",
                "lomi_workspace_create | {\"workspaceId\":\"ws-1\",\"name\":\"second\"," + OP + "}",
                "lomi_workspace_update | {\"workspaceId\":\"ws-1\",\"action\":\"select\"," + OP + "}",
                "lomi_workspace_update | {\"workspaceId\":\"ws-1\",\"action\":\"close\"," + OP + "}",
                "lomi_workspace_update | {\"workspaceId\":\"ws-1\",\"name\":\"renamed\"," + OP + "}",
                "lomi_project_open | {\"workspaceId\":\"ws-1\",\"projectPath\":\"/srv/other\",\"name\":\"other\"," + OP
                        + "}",
                "lomi_project_close | {\"projectId\":\"pr-1\",\"workspaceId\":\"ws-1\"," + OP + "}",
                "lomi_panel_move | {\"workspaceId\":\"ws-1\",\"movement\":{\"type\":\"reorder_tab\",\"tabId\":\"t-1\",\"beforeTabId\":null},"
                        + OP + "}",
                "lomi_panel_move | {\"workspaceId\":\"ws-1\",\"movement\":{\"type\":\"dock_tab\",\"tabId\":\"t-1\",\"targetTabId\":\"t-2\",\"side\":\"left\"},"
                        + OP + "}",
                "lomi_panel_move | {\"workspaceId\":\"ws-1\",\"movement\":{\"type\":\"move_pane\",\"panelId\":\"p-1\",\"targetPanelId\":\"p-2\",\"side\":\"bottom\"},"
                        + OP + "}",
                "lomi_panel_move | {\"workspaceId\":\"ws-1\",\"movement\":{\"type\":\"transfer_tab\",\"tabId\":\"t-1\",\"targetWorkspaceId\":\"ws-2\",\"beforeTabId\":null},"
                        + OP + "}",
                "lomi_session_attach | {\"externalId\":\"thread-1\"}",
                "lomi_session_detach | {\"externalId\":null}",
                "lomi_session_detach | {}",
                "lomi_episodes | {}",
            })
    void referenceShapedCallsAreAccepted(String tool, String arguments) throws Exception {
        assertThat(code(tool, arguments)).as(tool + " " + arguments).isEqualTo("APP_UNAVAILABLE");
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "lomi_status | {\"x\":1}",
                "lomi_diagnostics | {\"x\":1}",
                "lomi_workspace_list | {\"limit\":0}",
                "lomi_workspace_list | {\"limit\":501}",
                "lomi_workspace_list | {\"cursor\":\"\"}",
                "lomi_workspace_update | {\"workspaceId\":\"ws-1\",\"action\":\"select\",\"name\":\"both\"," + OP + "}",
                "lomi_workspace_update | {\"workspaceId\":\"ws-1\"," + OP + "}",
                "lomi_workspace_update | {\"workspaceId\":\"ws-1\",\"action\":\"rename\"," + OP + "}",
                "lomi_panel_move | {\"workspaceId\":\"ws-1\",\"movement\":{\"type\":\"reorder_tab\",\"tabId\":\"t-1\",\"side\":\"left\"},"
                        + OP + "}",
                "lomi_panel_move | {\"workspaceId\":\"ws-1\",\"movement\":{\"tabId\":\"t-1\"}," + OP + "}",
                "lomi_panel_focus | {\"workspaceId\":\"ws-1\",\"panelId\":\"p-1\",\"browserGeneration\":\"\"," + OP
                        + "}",
                "lomi_panel_focus | {\"workspaceId\":\"ws-1\",\"panelId\":\"p-1\",\"terminalSessionId\":\"xyz\"," + OP
                        + "}",
                "lomi_panel_focus | {\"workspaceId\":\"ws-1\",\"panelId\":\"p-1\",\"expectedRevision\":\"3\"}",
                "lomi_project_open | {\"workspaceId\":\"ws-1\",\"projectPath\":\"relative/path\",\"name\":\"other\","
                        + OP + "}",
                "lomi_workspace_create | {\"workspaceId\":\"ws-1\",\"name\":\"  \"," + OP + "}",
                "lomi_session_attach | {\"externalId\":\"two\\nlines\"}",
                "lomi_session_attach | {}",
                "lomi_episodes | {\"x\":1}",
            })
    void refusedAsIntendedStayRefused(String tool, String arguments) throws Exception {
        assertThat(code(tool, arguments)).as(tool + " " + arguments).isEqualTo("INVALID_ARGUMENT");
    }

    @Test
    void statusAndDiagnosticsAnswerWithoutABrokerAndTakeNullFreeEmptyArguments() throws Exception {
        InProcessServer helper = new InProcessServer();
        JsonNode status = helper.call(call("lomi_status", "{}")).at("/result/structuredContent/data");
        JsonNode diagnostics = helper.call(call("lomi_diagnostics", "{}")).at("/result/structuredContent/data");

        assertThat(status.path("kind").asString()).isEqualTo("status");
        assertThat(status.path("phase").asString()).isEqualTo("app_unavailable");
        assertThat(status.path("pairingRequestId").isNull()).isTrue();
        assertThat(diagnostics.path("kind").asString()).isEqualTo("diagnostics");
        assertThat(diagnostics.path("nextStep").asString()).isNotBlank();
    }

    @Test
    void theStatusCapabilitiesComeFromTheDeclarations() throws Exception {
        JsonNode capabilities =
                new InProcessServer().call(call("lomi_status", "{}")).at("/result/structuredContent/data/capabilities");
        Map<String, JsonNode> byName = new java.util.HashMap<>();
        capabilities.forEach(c -> byName.put(c.path("name").asString(), c));

        for (ToolSpec<?> spec : ToolCatalog.standard().all()) {
            JsonNode capability = byName.get(spec.name());
            assertThat(capability).as(spec.name()).isNotNull();
            assertThat(capability.path("available").asBoolean()).as(spec.name()).isEqualTo(spec.helperAnswers());
            if (spec.helperAnswers()) {
                assertThat(capability.path("scope").isNull()).as(spec.name()).isTrue();
            } else {
                assertThat(capability.path("scope").asString())
                        .as(spec.name())
                        .isEqualTo(spec.scope().name());
            }
        }
        assertThat(byName.get("lomi_panel_focus").path("scope").asString()).isEqualTo("panel.focus");
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "lomi_status | R-I-",
                "lomi_diagnostics | R-I-",
                "lomi_connect | R-I-",
                "lomi_workspace_list | R-I-",
                "lomi_session_attach | -D--",
                "lomi_session_detach | -D--",
                "lomi_episodes | R-I-",
                "lomi_workspace_create | --I-",
                "lomi_workspace_update | -DI-",
                "lomi_project_open | --I-",
                "lomi_project_close | -DI-",
                "lomi_panel_list | R-I-",
                "lomi_panel_focus | --I-",
                "lomi_panel_close | -DI-",
                "lomi_panel_move | --I-",
            })
    void theAnnotationsAreTheReferences(String tool, String hints) {
        JsonNode a = Catalog.standard().find(tool).orElseThrow().annotations();
        String letters = (a.path("readOnlyHint").asBoolean() ? "R" : "-")
                + (a.path("destructiveHint").asBoolean() ? "D" : "-")
                + (a.path("idempotentHint").asBoolean() ? "I" : "-")
                + (a.path("openWorldHint").asBoolean() ? "O" : "-");
        assertThat(letters).as(tool).isEqualTo(hints);
    }

    private static String code(String tool, String arguments) throws Exception {
        JsonNode result = new InProcessServer().call(call(tool, arguments)).get("result");
        assertThat(result).as("a tool result, not a protocol error").isNotNull();
        return result.at("/structuredContent/code").asString();
    }

    private static String call(String tool, String arguments) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + arguments + "}}";
    }
}
