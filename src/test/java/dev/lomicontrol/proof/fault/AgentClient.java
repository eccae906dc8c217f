package dev.lomicontrol.proof.fault;

import dev.lomicontrol.testing.BrokerChildProcess;
import dev.lomicontrol.testing.CreatedFiles;
import dev.lomicontrol.testing.Eventually;
import dev.lomicontrol.testing.McpHelperProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * An agent as the broker sees it: the real MCP helper ({@code lomi-control --mcp}) in a child JVM
 * ({@link McpHelperProcess}). Its one piece of work is {@code lomi_files_mutate} create of
 * {@code created/<requestKey>} in the project, each under its own requestKey, so every effect is a
 * file anyone can count.
 */
final class AgentClient implements AutoCloseable {

    static final JsonMapper JSON = McpHelperProcess.JSON;
    static final String CREATED = CreatedFiles.DIRECTORY;

    /**
     * One answer to a tool call as the client sees it: an operation ({@code state}, {@code operationId})
     * or an error envelope ({@code code}, {@code message}); {@code raw} is the whole JSON-RPC response.
     */
    record Answer(String state, String operationId, String code, String message, JsonNode raw) {

        boolean succeeded() {
            return state.equals("succeeded");
        }

        /** The helper's words for "the call never reached a broker" (MCP.md). */
        boolean neverSent() {
            return List.of("APP_UNAVAILABLE", "PAIRING_REQUIRED", "DEADLINE_EXCEEDED")
                    .contains(code);
        }

        String word() {
            return code.isEmpty() ? state : code;
        }
    }

    private final McpHelperProcess helper;
    private String workspaceId = "";
    private String epoch = "";
    private String domainRevision = "";
    private String parentRevision = "";

    private AgentClient(McpHelperProcess helper) {
        this.helper = helper;
    }

    /** Starts the helper pinned to {@code broker}'s discovery key, initializes MCP and waits until a broker call goes through. */
    static AgentClient connect(BrokerChildProcess broker, Path stderr) throws Exception {
        AgentClient client = launch(broker.discoveryFile(), broker.discoveryKey(), stderr);
        client.awaitBroker();
        client.refresh();
        return client;
    }

    /** Starts the helper and initializes MCP, without waiting for a broker (there may be none). */
    static AgentClient launch(Path discoveryFile, String discoveryKey, Path stderr) throws Exception {
        return new AgentClient(McpHelperProcess.startPinned(discoveryFile, discoveryKey, stderr, "fault-suite"));
    }

    /** A fresh retry epoch and the current revisions of the workspace and of {@code created/}. */
    void refresh() throws Exception {
        workspaceId = ok(call("lomi_workspace_list", object().put("limit", 1)))
                .path("workspaces")
                .path(0)
                .path("workspaceId")
                .asString();
        epoch = ok(call("lomi_connect", object().put("workspaceId", workspaceId)))
                .path("retryEpoch")
                .asString();
        domainRevision = CreatedFiles.domainRevision(this::okData, workspaceId);
        parentRevision = CreatedFiles.parentRevision(this::okData, workspaceId);
    }

    /** The create request for {@code key} with this connection's epoch and the revisions last seen. */
    ObjectNode createRequest(String key) {
        return CreatedFiles.request(workspaceId, epoch, domainRevision, parentRevision, key);
    }

    /** Sends a create request (a new one or an identical repeat) and follows its receipt to a settled state. */
    Answer create(ObjectNode request) throws Exception {
        Answer first = call("lomi_files_mutate", request);
        Answer answer = settled(first)
                ? first
                : Eventually.await(
                        "operation " + first.operationId() + " settles",
                        Duration.ofSeconds(30),
                        () -> call("lomi_operation_get", object().put("operationId", first.operationId())),
                        AgentClient::settled,
                        a -> a.raw().toString());
        if (answer.succeeded()) {
            parentRevision = answer.raw()
                    .path("result")
                    .path("structuredContent")
                    .path("data")
                    .path("result")
                    .path("parentRevision")
                    .asString();
        }
        return answer;
    }

    private static boolean settled(Answer answer) {
        return !answer.code().isEmpty()
                || !List.of("queued", "running", "awaiting_user", "cancelling").contains(answer.state());
    }

    /** One {@code tools/call}. A JSON-RPC error (the helper's "outcome unknown") comes back with code {@code OUTCOME_UNKNOWN}. */
    Answer call(String tool, ObjectNode arguments) throws Exception {
        ObjectNode params = object().put("name", tool);
        params.set("arguments", arguments);
        JsonNode response = helper.request("tools/call", params);
        if (response.has("error")) {
            return new Answer(
                    "",
                    "",
                    "OUTCOME_UNKNOWN",
                    response.path("error").path("message").asString(""),
                    response);
        }
        JsonNode envelope = response.path("result").path("structuredContent");
        if (envelope.path("status").asString("").equals("ok")) {
            JsonNode data = envelope.path("data");
            return new Answer(
                    data.path("state").asString(""), data.path("operationId").asString(""), "", "", response);
        }
        return new Answer(
                "",
                "",
                envelope.path("code").asString("NO_ENVELOPE"),
                envelope.path("message").asString(""),
                response);
    }

    /** Lines the helper wrote to stdout that were not JSON-RPC (must stay empty). */
    List<String> foreignLines() {
        return helper.foreignLines();
    }

    /** Waits until a read goes through the broker: right after a (re)start the helper may still be connecting or pairing. */
    private void awaitBroker() throws Exception {
        Eventually.await(
                "a broker call goes through",
                Duration.ofSeconds(90),
                Duration.ofMillis(200),
                () -> {
                    Answer answer = call("lomi_workspace_list", object().put("limit", 1));
                    if (!answer.code().isEmpty() && !answer.neverSent()) {
                        throw new AssertionError("no broker call went through: " + answer.raw());
                    }
                    return answer;
                },
                answer -> answer.code().isEmpty(),
                answer -> answer.raw().toString());
    }

    private JsonNode okData(String tool, ObjectNode arguments) throws Exception {
        return ok(call(tool, arguments));
    }

    private static JsonNode ok(Answer answer) {
        if (!answer.code().isEmpty()) {
            throw new AssertionError("expected an ok answer: " + answer.raw());
        }
        return answer.raw().path("result").path("structuredContent").path("data");
    }

    static ObjectNode object() {
        return JSON.createObjectNode();
    }

    @Override
    public void close() throws InterruptedException {
        helper.close();
    }
}
