package dev.lomicontrol.broker;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static dev.lomicontrol.broker.BrokerCallsFixture.workspaceOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.ToolName;
import dev.lomicontrol.ledger.Reservation;
import dev.lomicontrol.ledger.ReserveRequest;
import dev.lomicontrol.ledger.Target;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Project;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Attack suite: limits reached through the broker's tools, not just the ledger's API — the 4097th
 * receipt, arguments over 64 KiB sent by a client that skips the helper, and unknown fields hidden
 * inside nested objects. Every refusal leaves no receipt and no effect.
 */
class AttackLimitsTests {

    @TempDir
    Path temp;

    BrokerCallsFixture broker;
    Session session;
    Project project;
    RetryEpochId epoch;
    String ws;
    Path root;
    final AtomicInteger keys = new AtomicInteger();

    @BeforeEach
    void open() throws Exception {
        broker = new BrokerCallsFixture(temp);
        project = broker.project("limits");
        root = project.root();
        Files.writeString(root.resolve("e.txt"), "edit me\n");
        session = broker.session();
        epoch = broker.connect(session, project);
        ws = workspaceOf(project);
    }

    @AfterEach
    void close() {
        broker.close();
    }

    @Test
    void the4097thReceiptIsRefusedOnEveryToolWithoutAnEffectWhileEarlierWorkStillAnswers() throws Exception {
        String rootRevision = broker.ok(session, "lomi_files_list", json("workspaceId", ws))
                .path("directoryRevision")
                .asString();
        String firstCreate = mutateCreate("first.txt", rootRevision, "create-0");
        JsonNode first = broker.ok(session, "lomi_files_mutate", firstCreate);
        fillTheLedgerUpTo(4096);
        int panels = panelCount();
        rootRevision = broker.ok(session, "lomi_files_list", json("workspaceId", ws))
                .path("directoryRevision")
                .asString();

        Map<String, String> calls = new LinkedHashMap<>();
        calls.put("lomi_files_mutate", mutateCreate("overflow.txt", rootRevision, "over-1"));
        calls.put("lomi_terminal_create", op(json("workspaceId", ws), "over-2"));
        calls.put("lomi_editor_open", op(json("workspaceId", ws, "relativePath", "e.txt"), "over-3"));
        calls.put("lomi_workspace_create", op(json("workspaceId", ws, "name", "overflow"), "over-4"));
        calls.put("lomi_settings_open", op(json("workspaceId", ws, "page", "editor"), "over-5"));
        for (Map.Entry<String, String> call : calls.entrySet()) {
            assertThat(broker.refused(session, call.getKey(), call.getValue()))
                    .as(call.getKey())
                    .isEqualTo(ErrorCode.RESOURCE_EXHAUSTED);
            String key = BrokerCallsFixture.JSON
                    .readTree(call.getValue())
                    .path("requestKey")
                    .asString();
            assertThat(broker.refused(
                            session,
                            "lomi_operation_get",
                            json("retryEpoch", epoch.value(), "requestKey", key, "tool", call.getKey())))
                    .as("no receipt for %s", call.getKey())
                    .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        }

        assertThat(root.resolve("overflow.txt")).doesNotExist();
        assertThat(broker.terminals.all()).isEmpty();
        assertThat(panelCount()).isEqualTo(panels);
        assertThat(broker.projects.list().get(0).workspaces()).hasSize(1);
        assertThat(broker.decisions.notices()).isEmpty();
        assertThat(broker.ledger.maintenance().status().receipts()).isEqualTo(4096);
        JsonNode replay = broker.ok(session, "lomi_files_mutate", firstCreate);
        assertThat(replay.path("operationId").asString())
                .as("a retry of earlier work still answers at the cap")
                .isEqualTo(first.path("operationId").asString());
        assertThat(broker.ok(
                                session,
                                "lomi_operation_get",
                                json("operationId", first.path("operationId").asString()))
                        .path("state")
                        .asString())
                .isEqualTo("succeeded");
    }

    @Test
    void argumentsOver64KiBFromAClientThatSkipsTheHelperAreRefusedBeforeAReceipt() throws Exception {
        JsonNode opened = broker.ok(
                        session, "lomi_editor_open", op(json("workspaceId", ws, "relativePath", "e.txt"), "open"))
                .path("result");
        ObjectNode edit = (ObjectNode) BrokerCallsFixture.JSON.readTree(json(
                "workspaceId",
                ws,
                "panelId",
                opened.path("panelId").asString(),
                "relativePath",
                "e.txt",
                "documentId",
                opened.path("documentId").asString(),
                "expectedBufferRevision",
                opened.path("bufferRevision").asString(),
                "expectedDiskRevision",
                opened.path("diskRevision").asString(),
                "expectedRevision",
                broker.revision(),
                "retryEpoch",
                epoch.value(),
                "requestKey",
                "huge-edit"));
        edit.putArray("edits").addObject().put("fromUtf16", 0).put("toUtf16", 0).put("insert", "x".repeat(64 * 1024));
        assertThat(BrokerCallsFixture.JSON.writeValueAsBytes(edit).length).isGreaterThan(64 * 1024);

        assertThat(broker.refused(session, "lomi_editor_apply_edits", edit.toString()))
                .isEqualTo(ErrorCode.PAYLOAD_TOO_LARGE);
        assertThat(broker.refused(
                        session,
                        "lomi_operation_get",
                        json(
                                "retryEpoch",
                                epoch.value(),
                                "requestKey",
                                "huge-edit",
                                "tool",
                                "lomi_editor_apply_edits")))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        JsonNode buffer = broker.ok(
                session,
                "lomi_editor_read",
                json("workspaceId", ws, "panelId", opened.path("panelId").asString(), "relativePath", "e.txt"));
        assertThat(buffer.path("bufferRevision").asString())
                .isEqualTo(opened.path("bufferRevision").asString());
        assertThat(buffer.path("text").asString()).isEqualTo("edit me\n");
        assertThat(root.resolve("e.txt")).hasContent("edit me\n");
    }

    @Test
    void anUnknownFieldInsideANestedObjectIsRefusedOnEveryToolThatTakesOne() throws Exception {
        String rootRevision = broker.ok(session, "lomi_files_list", json("workspaceId", ws))
                .path("directoryRevision")
                .asString();
        JsonNode opened = broker.ok(
                        session, "lomi_editor_open", op(json("workspaceId", ws, "relativePath", "e.txt"), "open"))
                .path("result");
        String tab = broker.ok(session, "lomi_panel_list", json("workspaceId", ws))
                .path("tabs")
                .get(0)
                .path("tabId")
                .asString();
        String settings = broker.ok(session, "lomi_settings_read", json("workspaceId", ws, "section", "editor"))
                .path("settingsRevision")
                .asString();
        Git.init().setDirectory(root.toFile()).setInitialBranch("main").call().close();
        JsonNode terminal = broker.ok(session, "lomi_terminal_create", op(json("workspaceId", ws), "terminal"))
                .path("result");
        Map<String, String> calls = new LinkedHashMap<>();
        calls.put(
                "lomi_files_mutate",
                nested(
                        json("workspaceId", ws),
                        "operation",
                        json(
                                "type",
                                "create",
                                "relativePath",
                                "n.txt",
                                "kind",
                                "file",
                                "expectedParentRevision",
                                rootRevision,
                                "surprise",
                                true),
                        true));
        calls.put(
                "lomi_files_search",
                nested(json("workspaceId", ws), "query", json("text", "edit", "surprise", true), false));
        calls.put(
                "lomi_panel_move",
                nested(
                        json("workspaceId", ws),
                        "movement",
                        json("type", "reorder_tab", "tabId", tab, "surprise", true),
                        true));
        calls.put(
                "lomi_git_open",
                nested(
                        json("workspaceId", ws),
                        "view",
                        json("type", "diff", "relativePath", "e.txt", "surprise", true),
                        true));
        calls.put(
                "lomi_settings_update",
                nested(
                        json("workspaceId", ws, "expectedSettingsRevision", settings),
                        "patch",
                        json("type", "editor_tab_size", "value", 4, "surprise", true),
                        true));
        calls.put(
                "lomi_terminal_input",
                nested(
                        json(
                                "workspaceId",
                                ws,
                                "panelId",
                                terminal.path("panelId").asString(),
                                "terminalSessionId",
                                terminal.path("terminalSessionId").asString(),
                                "leaseId",
                                terminal.path("leaseId").asString(),
                                "inputSequence",
                                "1"),
                        "input",
                        json("type", "text", "text", "x", "surprise", true),
                        false));
        ObjectNode edits = (ObjectNode) BrokerCallsFixture.JSON.readTree(op(
                json(
                        "workspaceId",
                        ws,
                        "panelId",
                        opened.path("panelId").asString(),
                        "relativePath",
                        "e.txt",
                        "documentId",
                        opened.path("documentId").asString(),
                        "expectedBufferRevision",
                        opened.path("bufferRevision").asString(),
                        "expectedDiskRevision",
                        opened.path("diskRevision").asString()),
                "edit-surprise"));
        edits.putArray("edits")
                .addObject()
                .put("fromUtf16", 0)
                .put("toUtf16", 0)
                .put("insert", "x")
                .put("surprise", true);
        calls.put("lomi_editor_apply_edits", edits.toString());

        for (Map.Entry<String, String> call : calls.entrySet()) {
            JsonNode envelope = broker.call(session, call.getKey(), call.getValue());
            assertThat(envelope.path("code").asString())
                    .as("%s -> %s", call.getKey(), envelope)
                    .isEqualTo("INVALID_ARGUMENT");
            assertThat(envelope.path("message").asString()).as(call.getKey()).contains("surprise");
            JsonNode key = BrokerCallsFixture.JSON.readTree(call.getValue()).path("requestKey");
            if (!key.isMissingNode()) {
                assertThat(broker.refused(
                                session,
                                "lomi_operation_get",
                                json("retryEpoch", epoch.value(), "requestKey", key.asString(), "tool", call.getKey())))
                        .as("no receipt for %s", call.getKey())
                        .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
            }
        }
        assertThat(root.resolve("n.txt")).doesNotExist();
        assertThat(broker.ok(
                                session,
                                "lomi_editor_read",
                                json(
                                        "workspaceId",
                                        ws,
                                        "panelId",
                                        opened.path("panelId").asString(),
                                        "relativePath",
                                        "e.txt"))
                        .path("bufferRevision")
                        .asString())
                .isEqualTo(opened.path("bufferRevision").asString());
        assertThat(broker.decisions.list()).isEmpty();
    }

    // --- helpers

    /** Reserves receipts straight in the ledger (16 threads, group commit) until it holds {@code total}. */
    private void fillTheLedgerUpTo(int total) throws Exception {
        long existing = broker.ledger.maintenance().status().receipts();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Future<Reservation>> results = new ArrayList<>();
            for (long i = existing; i < total; i++) {
                String key = "filler-" + i;
                results.add(pool.submit(() -> broker.ledger.reserve(new ReserveRequest(
                        session.id(),
                        epoch,
                        project.id(),
                        new ToolName("lomi_files_mutate"),
                        new RequestKey(key),
                        BrokerCallsFixture.JSON.readTree("{\"k\":\"" + key + "\"}"),
                        new Target(ws, key, "", "")))));
            }
            for (Future<Reservation> result : results) {
                assertThat(result.get()).isInstanceOf(Reservation.Reserved.class);
            }
        } finally {
            pool.shutdown();
        }
        assertThat(broker.ledger.maintenance().status().receipts()).isEqualTo(total);
    }

    private int panelCount() {
        return broker.ok(session, "lomi_panel_list", json("workspaceId", ws))
                .path("panels")
                .size();
    }

    private String mutateCreate(String path, String parentRevision, String key) {
        ObjectNode node = (ObjectNode) BrokerCallsFixture.JSON.readTree(op(json("workspaceId", ws), key));
        node.set(
                "operation",
                BrokerCallsFixture.JSON.readTree(json(
                        "type",
                        "create",
                        "relativePath",
                        path,
                        "kind",
                        "file",
                        "expectedParentRevision",
                        parentRevision)));
        return node.toString();
    }

    private String op(String arguments, String key) {
        ObjectNode node = (ObjectNode) BrokerCallsFixture.JSON.readTree(arguments);
        node.put("expectedRevision", broker.revision());
        node.put("retryEpoch", epoch.value());
        node.put("requestKey", key);
        return node.toString();
    }

    /** {@code outer} with {@code inner} set as field {@code name}; {@code durable} adds the OP fields. */
    private String nested(String outer, String name, String inner, boolean durable) {
        ObjectNode node = (ObjectNode)
                BrokerCallsFixture.JSON.readTree(durable ? op(outer, "nested-" + keys.incrementAndGet()) : outer);
        node.set(name, BrokerCallsFixture.JSON.readTree(inner));
        return node.toString();
    }
}
