package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The catalog report's probes (catalog.md §7) of the terminal tools, replayed on the helper without
 * a broker: a call the helper accepts is forwarded and, with no broker, answered APP_UNAVAILABLE; a
 * call it refuses is INVALID_ARGUMENT before anything is sent.
 */
class TerminalHelperReferenceCallsTests {

    static final String EPOCH = "0123456789abcdef0123456789abcdef01234567";
    static final String TERMINAL =
            "\"workspaceId\":\"ws-1\",\"panelId\":\"panel-1\",\"terminalSessionId\":\"" + "a".repeat(32) + "\"";

    final InProcessServer session = new InProcessServer();
    int id;

    @Test
    void theReferencesTerminalCallsAreAccepted() throws Exception {
        accepted(
                "lomi_terminal_create",
                "{\"workspaceId\":\"ws-1\",\"cwdRelative\":\"\",\"title\":\"Agent shell\",\"expectedRevision\":\"3\","
                        + "\"retryEpoch\":\"" + EPOCH + "\",\"requestKey\":\"seed-000\"}");
        accepted(
                "lomi_terminal_create",
                "{\"workspaceId\":\"ws-1\",\"cwdRelative\":\"\",\"profileId\":null,\"title\":\"Agent shell\","
                        + "\"expectedRevision\":\"3\",\"retryEpoch\":\"" + EPOCH + "\",\"requestKey\":\"k\"}");
        accepted("lomi_terminal_read", "{" + TERMINAL + ",\"mode\":\"screen\",\"minimumParsedSequence\":\"120\"}");
        accepted(
                "lomi_terminal_read",
                "{" + TERMINAL
                        + ",\"cursor\":null,\"operationId\":null,\"minimumParsedSequence\":null,\"maxBytes\":null}");
        accepted(
                "lomi_panel_control",
                "{\"workspaceId\":\"ws-1\",\"panelId\":\"panel-1\",\"deviceId\":\"pixel-8\",\"generation\":\"2\","
                        + "\"action\":\"claim\",\"expectedRevision\":\"3\",\"retryEpoch\":\"" + EPOCH
                        + "\",\"requestKey\":\"android\"}");
        accepted(
                "lomi_panel_control",
                "{" + TERMINAL + ",\"action\":\"release\",\"retryEpoch\":\"" + EPOCH
                        + "\",\"requestKey\":\"release\"}");
        accepted(
                "lomi_terminal_input",
                "{" + TERMINAL + ",\"leaseId\":\"" + "b".repeat(32) + "\",\"inputSequence\":\"1\","
                        + "\"input\":{\"type\":\"key\",\"key\":\"ctrl_c\"}}");
    }

    @Test
    void whatBothRefuseStaysRefused() throws Exception {
        refused(
                "lomi_terminal_create",
                "{\"workspaceId\":\"ws-1\",\"cwdRelative\":\"../out\",\"expectedRevision\":\"3\",\"retryEpoch\":\""
                        + EPOCH + "\",\"requestKey\":\"k\"}");
        refused(
                "lomi_terminal_create",
                "{\"workspaceId\":\"ws-1\",\"cwdRelative\":\"/tmp\",\"expectedRevision\":\"3\",\"retryEpoch\":\""
                        + EPOCH + "\",\"requestKey\":\"k\"}");
        refused("lomi_terminal_read", "{" + TERMINAL + ",\"mode\":\"output\",\"minimumParsedSequence\":\"1\"}");
        refused("lomi_terminal_read", "{" + TERMINAL + ",\"mode\":\"command\"}");
        refused(
                "lomi_terminal_input",
                "{" + TERMINAL + ",\"leaseId\":\"" + "b".repeat(32) + "\",\"inputSequence\":\"0\","
                        + "\"input\":{\"type\":\"key\",\"key\":\"enter\"}}");
        refused(
                "lomi_panel_control",
                "{" + TERMINAL
                        + ",\"deviceId\":\"pixel-8\",\"generation\":\"2\",\"action\":\"claim\",\"expectedRevision\":\"3\","
                        + "\"retryEpoch\":\"" + EPOCH + "\",\"requestKey\":\"both\"}");
    }

    private void accepted(String tool, String arguments) throws InterruptedException {
        JsonNode result = call(tool, arguments);
        assertThat(result.at("/structuredContent/code").asString())
                .as("%s %s -> %s", tool, arguments, result)
                .isEqualTo("APP_UNAVAILABLE");
    }

    private void refused(String tool, String arguments) throws InterruptedException {
        JsonNode result = call(tool, arguments);
        assertThat(result.at("/structuredContent/code").asString())
                .as("%s %s -> %s", tool, arguments, result)
                .isEqualTo("INVALID_ARGUMENT");
    }

    private JsonNode call(String tool, String arguments) throws InterruptedException {
        return session.call("{\"jsonrpc\":\"2.0\",\"id\":" + ++id + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
                        + tool + "\",\"arguments\":" + arguments + "}}")
                .get("result");
    }
}
