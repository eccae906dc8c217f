package dev.lomicontrol.proof.cap;

import static org.awaitility.Awaitility.await;

import dev.lomicontrol.testing.CreatedFiles;
import dev.lomicontrol.testing.McpHelperProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One agent: the real MCP helper in its own JVM (one helper = one connection = one session),
 * driven as an MCP client would — workspace list, {@code lomi_connect}, file creations in
 * {@code created/} with the parent revision each answer returns, reads by id until settled.
 */
final class CapAgent implements AutoCloseable {

    static final String CREATED = CreatedFiles.DIRECTORY;

    final McpHelperProcess helper;
    String workspaceId;
    String epoch;
    private String domainRevision;
    private String createdRevision;

    private CapAgent(McpHelperProcess helper) {
        this.helper = helper;
    }

    static CapAgent start(Path data, String discoveryKey, Path stderr) throws Exception {
        return new CapAgent(McpHelperProcess.startPinned(
                data.resolve("agent-control/discovery.json"), discoveryKey, stderr, "crash-suite"));
    }

    /** The workspace, a retry epoch from lomi_connect (or its error envelope), and the revisions a create needs. */
    JsonNode connect() throws Exception {
        // the helper may still be pairing (YOLO approves, but not before the helper asked): such calls were never sent
        AtomicReference<JsonNode> list = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    list.set(call("lomi_workspace_list", object()));
                    return !List.of("PAIRING_REQUIRED", "APP_UNAVAILABLE")
                            .contains(list.get().path("code").asString(""));
                });
        workspaceId =
                ok(list.get()).path("workspaces").path(0).path("workspaceId").asString();
        JsonNode connection = call("lomi_connect", object().put("workspaceId", workspaceId));
        if (!isOk(connection)) {
            return connection;
        }
        epoch = connection.path("data").path("retryEpoch").asString();
        domainRevision = CreatedFiles.domainRevision(this::okData, workspaceId);
        createdRevision = CreatedFiles.parentRevision(this::okData, workspaceId);
        return connection;
    }

    /** The exact arguments of a file creation under this connection's epoch. */
    ObjectNode createRequest(String key) {
        return CreatedFiles.request(workspaceId, epoch, domainRevision, createdRevision, key);
    }

    /** Sends a creation and follows it to its end; answers the settled operation envelope, or the refusal. */
    JsonNode create(ObjectNode request) throws Exception {
        JsonNode answer = call("lomi_files_mutate", request);
        if (!isOk(answer)) {
            return answer;
        }
        String id = answer.path("data").path("operationId").asString();
        AtomicReference<JsonNode> last = new AtomicReference<>(answer);
        await().atMost(Duration.ofSeconds(30))
                .pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(5))
                .until(() -> settled(last.get()) || settled(last.updateAndGet(x -> get(id))));
        JsonNode done = last.get();
        if (done.path("data").path("state").asString().equals("succeeded")) {
            createdRevision =
                    done.path("data").path("result").path("parentRevision").asString();
        }
        return done;
    }

    /** {@code lomi_status} as the agent sees it (answered by the helper itself). */
    JsonNode status() throws Exception {
        return ok(call("lomi_status", object()));
    }

    /** One tools/call; answers the Control API envelope (structuredContent). */
    JsonNode call(String tool, ObjectNode arguments) throws Exception {
        JsonNode response = helper.call(tool, arguments);
        JsonNode envelope = response.path("result").path("structuredContent");
        if (envelope.isMissingNode()) {
            throw new AssertionError(tool + " answered no Control API envelope: " + response);
        }
        return envelope;
    }

    private JsonNode get(String operationId) {
        try {
            return call("lomi_operation_get", object().put("operationId", operationId));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static boolean isOk(JsonNode envelope) {
        return envelope.path("status").asString("").equals("ok");
    }

    static boolean settled(JsonNode envelope) {
        return isOk(envelope)
                && List.of("succeeded", "failed", "cancelled", "outcome_unknown")
                        .contains(envelope.path("data").path("state").asString());
    }

    private JsonNode okData(String tool, ObjectNode arguments) throws Exception {
        return ok(call(tool, arguments));
    }

    private static JsonNode ok(JsonNode envelope) {
        if (!isOk(envelope)) {
            throw new AssertionError("expected ok, got " + envelope);
        }
        return envelope.path("data");
    }

    static ObjectNode object() {
        return McpHelperProcess.JSON.createObjectNode();
    }

    @Override
    public void close() throws InterruptedException {
        helper.close();
    }
}
