package dev.lomicontrol.android;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.pairing.Scopes;
import dev.lomicontrol.testing.BrokerChildProcess;
import dev.lomicontrol.testing.Eventually;
import dev.lomicontrol.testing.McpHelperProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
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
    private final AtomicInteger keys = new AtomicInteger();
    final String workspace;
    final String epoch;

    private HelperAgent(McpHelperProcess helper, BrokerChildProcess broker, String workspace, String epoch) {
        this.helper = helper;
        this.broker = broker;
        this.workspace = workspace;
        this.epoch = epoch;
    }

    /**
     * Initializes {@code helper}, has the admin approve its pairing with every scope of a full grant
     * plus android.* for the Android {@code devices} and {@code packages} named, and connects.
     */
    static HelperAgent paired(
            BrokerChildProcess broker, McpHelperProcess helper, List<String> devices, List<String> packages)
            throws Exception {
        helper.initialize(McpHelperProcess.PROTOCOL, "android-flow");
        Set<String> scopes = new TreeSet<>(Scopes.all());
        helper.approvedInTheConsole(
                broker,
                "--scopes",
                String.join(",", scopes),
                "--android-devices",
                String.join(",", devices),
                "--android-packages",
                String.join(",", packages));
        HelperAgent unconnected = new HelperAgent(helper, broker, "", "");
        String workspace = unconnected
                .ok("lomi_workspace_list")
                .at("/data/workspaces/0/workspaceId")
                .asString();
        String epoch = unconnected
                .ok("lomi_connect", "workspaceId", workspace)
                .at("/data/retryEpoch")
                .asString();
        return new HelperAgent(helper, broker, workspace, epoch);
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
