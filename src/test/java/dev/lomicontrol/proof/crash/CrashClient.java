package dev.lomicontrol.proof.crash;

import dev.lomicontrol.proof.crash.WorkItem.Kind;
import dev.lomicontrol.proof.crash.WorkItem.Knowledge;
import dev.lomicontrol.testing.Eventually;
import dev.lomicontrol.testing.McpHelperProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The scripted MCP client. It follows the documented recovery rules (SPEC §6, MCP.md): every
 * mutating call carries a fresh requestKey and the retryEpoch of this connection; an answer that
 * leaves the outcome open keeps the request as it was; after the broker is back it reads the
 * receipt back by key and by id and repeats the identical request — and it never sends the work
 * again under a new key or a new epoch, whatever those answers are.
 */
final class CrashClient {

    private static final Duration POLL = Duration.ofMillis(20);
    private static final Duration RUN_LIMIT = Duration.ofSeconds(20);

    private final McpHelperProcess helper;
    private final List<WorkItem> items = new ArrayList<>();
    private String workspaceId;
    private String epoch;
    private String domainRevision;
    private String createdRevision;
    private ObjectNode terminal;
    int sends;
    int retries;
    int reads;

    private final int waitMs;
    /** Work items answered while still running, followed with lomi_operation_get {waitMs} (waiting mode). */
    int waitedOn;

    CrashClient(McpHelperProcess helper) {
        this(helper, 0);
    }

    /**
     * With {@code waitMs} > 0 (issue 20) every work item is sent with that wait and every poll is a
     * lomi_operation_get with it instead of a 20 ms sleep; a terminal append then takes a moment
     * (a short sleep before its echo), so the broker is often killed while calls wait.
     */
    CrashClient(McpHelperProcess helper, int waitMs) {
        this.helper = helper;
        this.waitMs = waitMs;
    }

    /** Every item so far, setup included. */
    List<WorkItem> items() {
        return items;
    }

    /**
     * Waits until a broker call goes through. The helper's lomi_status is no proof: it notices a
     * dead connection only when a call uses it, and while it reconnects a call may be answered
     * APP_UNAVAILABLE or PAIRING_REQUIRED ("not sent"); a read is simply asked again.
     */
    void awaitBroker(Duration max) throws Exception {
        Eventually.await(
                "a broker call goes through",
                max,
                POLL.multipliedBy(10),
                () -> {
                    Answer answer = call("lomi_workspace_list", object().put("limit", 1), false);
                    if (!answer.ok() && !answer.neverSent()) {
                        throw new AssertionError("no broker call went through: " + answer.data() + "; helper stderr:\n"
                                + helper.stderrTail());
                    }
                    return answer;
                },
                Answer::ok,
                answer -> answer.data() + "; helper stderr:\n" + helper.stderrTail());
    }

    /**
     * A new connection's round: a fresh retry epoch, the exited terminal panels of earlier rounds
     * closed (a workspace holds at most 128 panels), the revision of {@code created/}, and a new
     * terminal at a ready prompt. Nothing here runs under fire.
     */
    void setUp(int round) throws Exception {
        if (workspaceId == null) {
            workspaceId = read("lomi_workspace_list", object())
                    .path("workspaces")
                    .path(0)
                    .path("workspaceId")
                    .asString();
        }
        epoch = read("lomi_connect", object().put("workspaceId", workspaceId))
                .path("retryEpoch")
                .asString();
        JsonNode panels =
                read("lomi_panel_list", object().put("workspaceId", workspaceId).put("limit", 500));
        domainRevision = panels.path("domainRevision").asString();
        int closed = 0;
        for (JsonNode panel : panels.path("panels")) {
            if (panel.path("kind").asString().equals("terminal")
                    && panel.path("runtimeState").asString().equals("exited")) {
                ObjectNode close = object().put("workspaceId", workspaceId)
                        .put("panelId", panel.path("panelId").asString())
                        .put("expectedRevision", domainRevision);
                domainRevision = setupOperation(round, "close" + (++closed), "lomi_panel_close", close)
                        .path("domainRevision")
                        .asString();
            }
        }
        createdRevision = read(
                        "lomi_files_list",
                        object().put("workspaceId", workspaceId)
                                .put("relativeDirectory", CrashSuite.CREATED)
                                .put("limit", 1))
                .path("directoryRevision")
                .asString();
        terminal = (ObjectNode) setupOperation(
                round,
                "term",
                "lomi_terminal_create",
                object().put("workspaceId", workspaceId).put("expectedRevision", domainRevision));
        domainRevision = terminal.path("domainRevision").asString();
        awaitPrompt();
    }

    /**
     * Sends work items (a file create, then a terminal append, alternating) until an answer leaves
     * the outcome open or refuses, or {@code cap} items were sent. Stops issuing work as soon as
     * {@code killed} says the broker is gone.
     */
    void drive(int round, int cap, BooleanSupplier killed) throws Exception {
        for (int i = 1; i <= cap && !killed.getAsBoolean(); i++) {
            WorkItem item = i % 2 == 1 ? fileCreate(round, i) : terminalAppend(round, i);
            items.add(item);
            if (!send(item)) {
                return;
            }
        }
    }

    /**
     * After the broker came back (a new broker run, so a new connection): for every item whose
     * outcome the client does not know, read it back by key with its original epoch, by id when
     * the receipt was acknowledged, then repeat the identical request once. Records every answer.
     */
    void recover(List<WorkItem> open) throws Exception {
        for (WorkItem item : open) {
            ObjectNode byKey = object().put(
                            "retryEpoch", item.request.path("retryEpoch").asString())
                    .put("requestKey", item.key)
                    .put("tool", item.tool);
            learn(item, "get-by-key", call("lomi_operation_get", byKey, false));
            if (item.operationId.isPresent() && item.uncertain()) {
                learn(
                        item,
                        "get-by-id",
                        call("lomi_operation_get", object().put("operationId", item.operationId.get()), false));
            }
            if (item.uncertain() || item.knowledge == Knowledge.NOT_SENT) {
                retries++;
                learn(item, "same-request", call(item.tool, item.request, true));
            }
        }
    }

    private void learn(WorkItem item, String step, Answer answer) {
        item.recovery.add(step + ":" + answer.word());
        if (answer.isOperation()
                && item.operationId.map(answer.operationId()::equals).orElse(true)) {
            item.operationId = Optional.of(answer.operationId());
            item.lastSeen = answer.state();
            if (answer.settled()) {
                item.knowledge = Knowledge.SETTLED;
            }
        }
    }

    private WorkItem fileCreate(int round, int index) {
        String key = key(round, index, "file");
        ObjectNode operation = object().put("type", "create")
                .put("relativePath", CrashSuite.CREATED + "/" + key)
                .put("kind", "file")
                .put("expectedParentRevision", createdRevision);
        ObjectNode request = object().put("workspaceId", workspaceId);
        request.set("operation", operation);
        request.put("expectedRevision", domainRevision).put("retryEpoch", epoch).put("requestKey", key);
        return new WorkItem(round, key, Kind.FILE_CREATE, "lomi_files_mutate", waited(request));
    }

    private WorkItem terminalAppend(int round, int index) {
        String key = key(round, index, "run");
        ObjectNode request = terminalTarget()
                .put("leaseId", terminal.path("leaseId").asString())
                .put("command", (waitMs > 0 ? "sleep 0.3; " : "") + "echo " + key + " >> " + CrashSuite.EFFECTS_LOG)
                .put("retryEpoch", epoch)
                .put("requestKey", key);
        return new WorkItem(round, key, Kind.TERMINAL_APPEND, "lomi_terminal_run", waited(request));
    }

    /** Sends the item and, for a running operation, polls it to its end; false when the round must stop. */
    private boolean send(WorkItem item) throws Exception {
        sends++;
        Answer answer = call(item.tool, item.request, true);
        if (!answer.ok()) {
            item.lastSeen = answer.code();
            item.knowledge = answer.outcomeUnknown()
                    ? Knowledge.UNKNOWN_NO_RECEIPT
                    : answer.neverSent() ? Knowledge.NOT_SENT : Knowledge.REFUSED;
            return false;
        }
        item.operationId = Optional.of(answer.operationId());
        item.lastSeen = answer.state();
        long deadline = System.nanoTime() + RUN_LIMIT.toNanos();
        if (!answer.settled() && waitMs > 0) {
            waitedOn++;
        }
        while (!answer.settled()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(item + " did not settle within " + RUN_LIMIT + " while the broker ran");
            }
            if (waitMs == 0) {
                // intentional, not synchronisation (docs/adr/0011): a client written for the reference polls at its own
                // pace
                Thread.sleep(POLL.toMillis());
            }
            answer = call("lomi_operation_get", waited(object().put("operationId", item.operationId.get())), false);
            if (!answer.isOperation()) {
                item.knowledge = Knowledge.UNKNOWN_ACKNOWLEDGED;
                return false;
            }
            item.lastSeen = answer.state();
        }
        item.knowledge = Knowledge.SETTLED;
        if (item.kind == Kind.FILE_CREATE && answer.state().equals("succeeded")) {
            createdRevision =
                    answer.data().path("result").path("parentRevision").asString();
        }
        return answer.state().equals("succeeded");
    }

    private JsonNode setupOperation(int round, String name, String tool, ObjectNode arguments) throws Exception {
        WorkItem item = new WorkItem(round, String.format("r%04d-%s", round, name), Kind.SETUP, tool, arguments);
        arguments.put("retryEpoch", epoch).put("requestKey", item.key);
        items.add(item);
        Answer answer = call(tool, arguments, true);
        if (!answer.settled() || !answer.state().equals("succeeded")) {
            throw new AssertionError("setup step " + item + " answered " + answer.data());
        }
        item.operationId = Optional.of(answer.operationId());
        item.lastSeen = answer.state();
        item.knowledge = Knowledge.SETTLED;
        return answer.data().path("result");
    }

    private void awaitPrompt() throws Exception {
        Eventually.await(
                "the new terminal shows a ready prompt",
                RUN_LIMIT,
                POLL,
                () -> read("lomi_terminal_read", terminalTarget())
                        .path("prompt")
                        .asString(),
                "ready"::equals,
                String::valueOf);
    }

    private ObjectNode terminalTarget() {
        return object().put("workspaceId", workspaceId)
                .put("panelId", terminal.path("panelId").asString())
                .put("terminalSessionId", terminal.path("terminalSessionId").asString());
    }

    private JsonNode read(String tool, ObjectNode arguments) throws Exception {
        Answer answer = call(tool, arguments, false);
        if (!answer.ok()) {
            throw new AssertionError(tool + " " + arguments + " answered " + answer.data());
        }
        return answer.data();
    }

    private Answer call(String tool, ObjectNode arguments, boolean mutating) throws Exception {
        if (!mutating) {
            reads++;
        }
        return Answer.of(tool, helper.call(tool, arguments));
    }

    /** The request with this client's waitMs (part of the frozen request: a retry sends it again, and it changes nothing). */
    private ObjectNode waited(ObjectNode request) {
        return waitMs > 0 ? request.put("waitMs", waitMs) : request;
    }

    private static String key(int round, int index, String what) {
        return String.format("r%04d-%03d-%s", round, index, what);
    }

    private static ObjectNode object() {
        return McpHelperProcess.JSON.createObjectNode();
    }
}
