package dev.lomicontrol.android;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.testing.BrokerChildProcess;
import dev.lomicontrol.testing.Eventually;
import dev.lomicontrol.testing.McpHelperProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;

/**
 * An agent speaking MCP to the real {@code --mcp} helper (a child JVM) paired with a real broker
 * child: paired in the console with the android.* scopes named explicitly (they are in no default
 * grant yet, as {@link AndroidCalls} grants them in-process), connected to the first workspace; each
 * tool call's whole {@code tools/call} result, or its {@code structuredContent} checked as an answer
 * or a refusal; the admin's decisions taken by {@code console decision approve|reject}.
 */
final class HelperAgent {

    private static final Duration SETTLE = Duration.ofSeconds(60);

    private final McpHelperProcess helper;
    private final BrokerChildProcess broker;
    /** The console's `pairing approve` options this agent was approved with (again after a restart). */
    private final List<String> approval;

    private final AtomicInteger keys = new AtomicInteger();
    final String workspace;
    final String epoch;

    private HelperAgent(
            McpHelperProcess helper, BrokerChildProcess broker, List<String> approval, String workspace, String epoch) {
        this.helper = helper;
        this.approval = approval;
        this.broker = broker;
        this.workspace = workspace;
        this.epoch = epoch;
    }

    /**
     * Initializes {@code helper}, has the admin approve its pairing with the full grant narrowed to the
     * Android {@code devices} and {@code packages} named, and connects.
     */
    static HelperAgent paired(
            BrokerChildProcess broker, McpHelperProcess helper, List<String> devices, List<String> packages)
            throws Exception {
        helper.initialize(McpHelperProcess.PROTOCOL, "android-flow");
        List<String> approval = List.of(
                "--android-devices", String.join(",", devices), "--android-packages", String.join(",", packages));
        helper.approvedInTheConsole(broker, approval.toArray(String[]::new));
        HelperAgent unconnected = new HelperAgent(helper, broker, approval, "", "");
        String workspace = unconnected
                .ok("lomi_workspace_list")
                .at("/data/workspaces/0/workspaceId")
                .asString();
        String epoch = unconnected
                .ok("lomi_connect", "workspaceId", workspace)
                .at("/data/retryEpoch")
                .asString();
        return new HelperAgent(helper, broker, approval, workspace, epoch);
    }

    /**
     * The same helper after {@code restarted} took the data directory over (a broker run SIGKILLed and
     * started again): the helper asks to pair again, the admin approves it in the console with the same
     * scopes, and it connects anew for this run's retryEpoch.
     */
    HelperAgent reconnected(BrokerChildProcess restarted) throws Exception {
        helper.approvedInTheConsole(restarted, approval.toArray(String[]::new));
        String next = Eventually.await(
                        "lomi_connect answers on the restarted broker",
                        SETTLE,
                        Duration.ofMillis(200),
                        () -> raw(
                                "lomi_connect",
                                McpHelperProcess.JSON.createObjectNode().put("workspaceId", workspace)),
                        HelperAgent::answered,
                        String::valueOf)
                .at("/result/structuredContent/data/retryEpoch")
                .asString();
        return new HelperAgent(helper, restarted, approval, workspace, next);
    }

    /** Every scope of a full grant plus android.* (in no default grant yet). */
    private static boolean answered(JsonNode response) {
        return response.has("result")
                && !response.path("result").path("isError").asBoolean();
    }

    /** The helper's raw answer to a call: a {@code result}, or a JSON-RPC {@code error} (an unknown outcome). */
    JsonNode raw(String tool, JsonNode arguments) throws Exception {
        return helper.call(tool, arguments);
    }

    /** A fresh requestKey with {@code prefix}. */
    String key(String prefix) {
        return prefix + "-" + keys.incrementAndGet();
    }

    /** The whole {@code tools/call} result ({@code content}, {@code structuredContent}, {@code isError}). */
    JsonNode result(String tool, Object... pairs) throws Exception {
        JsonNode response = helper.call(tool, McpHelperProcess.JSON.readTree(BrokerCallsFixture.json(pairs)));
        assertThat(response.has("result")).as("%s: %s", tool, response).isTrue();
        return response.get("result");
    }

    /** A call that must succeed; its structuredContent. */
    JsonNode ok(String tool, Object... pairs) throws Exception {
        JsonNode result = result(tool, pairs);
        assertThat(result.path("isError").asBoolean())
                .as("%s: %s", tool, result)
                .isFalse();
        return result.get("structuredContent");
    }

    /** A call that must be refused; its error code. */
    String refused(String tool, Object... pairs) throws Exception {
        JsonNode result = result(tool, pairs);
        assertThat(result.path("isError").asBoolean())
                .as("%s: %s", tool, result)
                .isTrue();
        String code = result.at("/structuredContent/code").asString();
        assertThat(result.at("/structuredContent/message").asString())
                .as("%s", result)
                .isNotBlank();
        return code;
    }

    /** The layout's current domainRevision (as lomi_workspace_list shows it). */
    String revision() throws Exception {
        return ok("lomi_workspace_list").at("/data/domainRevision").asString();
    }

    /** The listed entries of lomi_android_list whose name starts with {@code prefix}. */
    List<JsonNode> listed(String prefix) throws Exception {
        List<JsonNode> found = new ArrayList<>();
        ok("lomi_android_list", "workspaceId", workspace).at("/data/devices").forEach(device -> {
            if (device.path("name").asString().startsWith(prefix)) {
                found.add(device);
            }
        });
        return found;
    }

    /** The one listed entry whose name starts with {@code prefix}. */
    JsonNode one(String prefix) throws Exception {
        List<JsonNode> found = listed(prefix);
        assertThat(found).as("entries named %s…", prefix).hasSize(1);
        return found.get(0);
    }

    /** lomi_android_open on {@code deviceId} (which starts nothing); the new panel's id. */
    String opened(String deviceId, String keyPrefix) throws Exception {
        JsonNode opened = ok(
                "lomi_android_open",
                "workspaceId",
                workspace,
                "deviceId",
                deviceId,
                "expectedRevision",
                revision(),
                "retryEpoch",
                epoch,
                "requestKey",
                key(keyPrefix));
        assertThat(opened.at("/data/state").asString()).as("%s", opened).isEqualTo("succeeded");
        return opened.at("/data/result/panelId").asString();
    }

    /** lomi_panel_control's claim on the panel {@code target} names, waiting for the admin, approved in the console; the lease id. */
    String leased(Object[] target, String keyPrefix) throws Exception {
        Object[] pairs = new Object[target.length + 8];
        System.arraycopy(target, 0, pairs, 0, target.length);
        System.arraycopy(
                new Object[] {
                    "action", "claim", "expectedRevision", revision(), "retryEpoch", epoch, "requestKey", key(keyPrefix)
                },
                0,
                pairs,
                target.length,
                8);
        JsonNode claim = ok("lomi_panel_control", pairs);
        assertThat(claim.at("/data/state").asString()).as("%s", claim).isEqualTo("awaiting_user");
        JsonNode claimed = decided(claim.at("/data/operationId").asString(), true);
        assertThat(claimed.path("state").asString()).as("%s", claimed).isEqualTo("succeeded");
        return claimed.at("/result/leaseId").asString();
    }

    /** Polls lomi_operation_get until the operation leaves queued, running and awaiting_user; its data. */
    JsonNode settled(String operationId) {
        return Eventually.await(
                operationId + " settles",
                SETTLE,
                Duration.ofMillis(50),
                () -> ok("lomi_operation_get", "operationId", operationId).path("data"),
                data -> !List.of("queued", "running", "cancelling", "awaiting_user")
                        .contains(data.path("state").asString()),
                String::valueOf);
    }

    /** What the admin sees waiting for a decision ({@code console decision list}). */
    String pendingDecisions() throws Exception {
        return broker.console().mergingStderr().ok("decision", "list");
    }

    /** The admin decides the operation in the console ({@code decision approve|reject ID}); the settled operation. */
    JsonNode decided(String operationId, boolean approve) throws Exception {
        broker.console().mergingStderr().ok("decision", approve ? "approve" : "reject", operationId);
        return settled(operationId);
    }
}
