package dev.lomicontrol.broker;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.ToolName;
import dev.lomicontrol.ledger.Reservation;
import dev.lomicontrol.ledger.ReserveRequest;
import dev.lomicontrol.ledger.Target;
import dev.lomicontrol.testing.Agent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Attack suite: limits reached through the broker's tools, not just the ledger's API — the 4097th
 * receipt, arguments over 64 KiB sent by a client that skips the helper, and unknown fields hidden
 * inside nested objects. Every refusal leaves no receipt and no effect.
 */
class AttackLimitsTests {

    @RegisterExtension
    final Agent agent = Agent.inProject("limits");

    final AttackCalls attack = new AttackCalls(agent);
    final Path root = agent.project().root();

    @BeforeEach
    void open() throws Exception {
        Files.writeString(root.resolve("e.txt"), "edit me\n");
    }

    @Test
    void the4097thReceiptIsRefusedOnEveryToolWithoutAnEffectWhileEarlierWorkStillAnswers() throws Exception {
        String rootRevision = attack.rootRevision();
        String firstCreate = mutateCreate("first.txt", rootRevision, "create-0");
        JsonNode first = attack.ok("lomi_files_mutate", firstCreate);
        fillTheLedgerUpTo(4096);
        int panels = attack.panels();
        rootRevision = attack.rootRevision();

        Map<String, String> calls = new LinkedHashMap<>();
        calls.put("lomi_files_mutate", mutateCreate("overflow.txt", rootRevision, "over-1"));
        calls.put("lomi_terminal_create", attack.durable("over-2"));
        calls.put("lomi_editor_open", attack.durable("over-3", "relativePath", "e.txt"));
        calls.put("lomi_workspace_create", attack.durable("over-4", "name", "overflow"));
        calls.put("lomi_settings_open", attack.durable("over-5", "page", "editor"));
        for (Map.Entry<String, String> call : calls.entrySet()) {
            assertThat(attack.refused(call.getKey(), call.getValue()))
                    .as(call.getKey())
                    .isEqualTo(ErrorCode.RESOURCE_EXHAUSTED);
            String key = BrokerCallsFixture.JSON
                    .readTree(call.getValue())
                    .path("requestKey")
                    .asString();
            attack.assertNoReceipt(call.getKey(), key);
        }

        assertThat(root.resolve("overflow.txt")).doesNotExist();
        assertThat(agent.broker().terminals.all()).isEmpty();
        assertThat(attack.panels()).isEqualTo(panels);
        assertThat(agent.broker().projects.list().get(0).workspaces()).hasSize(1);
        assertThat(agent.broker().decisions.notices()).isEmpty();
        assertThat(agent.broker().ledger.maintenance().status().receipts()).isEqualTo(4096);
        JsonNode replay = attack.ok("lomi_files_mutate", firstCreate);
        assertThat(replay.path("operationId").asString())
                .as("a retry of earlier work still answers at the cap")
                .isEqualTo(first.path("operationId").asString());
        assertThat(agent.ok(
                                "lomi_operation_get",
                                "operationId",
                                first.path("operationId").asString())
                        .path("state")
                        .asString())
                .isEqualTo("succeeded");
    }

    @Test
    void argumentsOver64KiBFromAClientThatSkipsTheHelperAreRefusedBeforeAReceipt() throws Exception {
        JsonNode opened = attack.ok("lomi_editor_open", attack.durable("open", "relativePath", "e.txt"))
                .path("result");
        ObjectNode edit = attack.editorCall(
                "huge-edit", opened, opened.path("bufferRevision").asString());
        edit.putArray("edits").addObject().put("fromUtf16", 0).put("toUtf16", 0).put("insert", "x".repeat(64 * 1024));
        assertThat(BrokerCallsFixture.JSON.writeValueAsBytes(edit).length).isGreaterThan(64 * 1024);

        assertThat(attack.refused("lomi_editor_apply_edits", edit.toString())).isEqualTo(ErrorCode.PAYLOAD_TOO_LARGE);
        attack.assertNoReceipt("lomi_editor_apply_edits", "huge-edit");
        JsonNode buffer = editorRead(opened);
        assertThat(buffer.path("bufferRevision").asString())
                .isEqualTo(opened.path("bufferRevision").asString());
        assertThat(buffer.path("text").asString()).isEqualTo("edit me\n");
        assertThat(root.resolve("e.txt")).hasContent("edit me\n");
    }

    @Test
    void anUnknownFieldInsideANestedObjectIsRefusedOnEveryToolThatTakesOne() throws Exception {
        String rootRevision = attack.rootRevision();
        JsonNode opened = attack.ok("lomi_editor_open", attack.durable("open", "relativePath", "e.txt"))
                .path("result");
        String tab = agent.ok("lomi_panel_list", "workspaceId", agent.workspace())
                .path("tabs")
                .get(0)
                .path("tabId")
                .asString();
        String settings = agent.ok("lomi_settings_read", "workspaceId", agent.workspace(), "section", "editor")
                .path("settingsRevision")
                .asString();
        Git.init().setDirectory(root.toFile()).setInitialBranch("main").call().close();
        JsonNode terminal =
                attack.ok("lomi_terminal_create", attack.durable("terminal")).path("result");
        Map<String, String> calls = new LinkedHashMap<>();
        calls.put(
                "lomi_files_mutate",
                nested(
                        json("workspaceId", agent.workspace()),
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
                nested(json("workspaceId", agent.workspace()), "query", json("text", "edit", "surprise", true), false));
        calls.put(
                "lomi_panel_move",
                nested(
                        json("workspaceId", agent.workspace()),
                        "movement",
                        json("type", "reorder_tab", "tabId", tab, "surprise", true),
                        true));
        calls.put(
                "lomi_git_open",
                nested(
                        json("workspaceId", agent.workspace()),
                        "view",
                        json("type", "diff", "relativePath", "e.txt", "surprise", true),
                        true));
        calls.put(
                "lomi_settings_update",
                nested(
                        json("workspaceId", agent.workspace(), "expectedSettingsRevision", settings),
                        "patch",
                        json("type", "editor_tab_size", "value", 4, "surprise", true),
                        true));
        calls.put(
                "lomi_terminal_input",
                nested(
                        json(
                                "workspaceId",
                                agent.workspace(),
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
        ObjectNode edits = attack.editorCall(
                "edit-surprise", opened, opened.path("bufferRevision").asString());
        edits.putArray("edits")
                .addObject()
                .put("fromUtf16", 0)
                .put("toUtf16", 0)
                .put("insert", "x")
                .put("surprise", true);
        calls.put("lomi_editor_apply_edits", edits.toString());

        for (Map.Entry<String, String> call : calls.entrySet()) {
            JsonNode envelope = attack.call(call.getKey(), call.getValue());
            assertThat(envelope.path("code").asString())
                    .as("%s -> %s", call.getKey(), envelope)
                    .isEqualTo("INVALID_ARGUMENT");
            assertThat(envelope.path("message").asString()).as(call.getKey()).contains("surprise");
            JsonNode key = BrokerCallsFixture.JSON.readTree(call.getValue()).path("requestKey");
            if (!key.isMissingNode()) {
                attack.assertNoReceipt(call.getKey(), key.asString());
            }
        }
        assertThat(root.resolve("n.txt")).doesNotExist();
        assertThat(editorRead(opened).path("bufferRevision").asString())
                .isEqualTo(opened.path("bufferRevision").asString());
        assertThat(agent.broker().decisions.list()).isEmpty();
    }

    // --- helpers

    /** The editor's read of e.txt in the panel {@code opened} (the result of {@code lomi_editor_open}). */
    private JsonNode editorRead(JsonNode opened) {
        return agent.ok(
                "lomi_editor_read",
                "workspaceId",
                agent.workspace(),
                "panelId",
                opened.path("panelId").asString(),
                "relativePath",
                "e.txt");
    }

    /** Reserves receipts straight in the ledger (16 threads, group commit) until it holds {@code total}. */
    private void fillTheLedgerUpTo(int total) throws Exception {
        long existing = agent.broker().ledger.maintenance().status().receipts();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Future<Reservation>> results = new ArrayList<>();
            for (long i = existing; i < total; i++) {
                String key = "filler-" + i;
                results.add(pool.submit(() -> agent.broker()
                        .ledger
                        .reserve(new ReserveRequest(
                                agent.session().id(),
                                agent.epoch(),
                                agent.project().id(),
                                new ToolName("lomi_files_mutate"),
                                new RequestKey(key),
                                BrokerCallsFixture.JSON.readTree("{\"k\":\"" + key + "\"}"),
                                new Target(agent.workspace(), key, "", "")))));
            }
            for (Future<Reservation> result : results) {
                assertThat(result.get()).isInstanceOf(Reservation.Reserved.class);
            }
        } finally {
            pool.shutdown();
        }
        assertThat(agent.broker().ledger.maintenance().status().receipts()).isEqualTo(total);
    }

    private String mutateCreate(String path, String parentRevision, String key) {
        return attack.mutate(AttackCalls.create(path, "file", parentRevision), key);
    }

    private String op(String arguments, String key) {
        ObjectNode node = (ObjectNode) BrokerCallsFixture.JSON.readTree(arguments);
        node.put("expectedRevision", agent.broker().revision());
        node.put("retryEpoch", agent.epoch().value());
        node.put("requestKey", key);
        return node.toString();
    }

    /** {@code outer} with {@code inner} set as field {@code name}; {@code durable} adds the OP fields. */
    private String nested(String outer, String name, String inner, boolean durable) {
        ObjectNode node =
                (ObjectNode) BrokerCallsFixture.JSON.readTree(durable ? op(outer, agent.key("nested")) : outer);
        node.set(name, BrokerCallsFixture.JSON.readTree(inner));
        return node.toString();
    }
}
