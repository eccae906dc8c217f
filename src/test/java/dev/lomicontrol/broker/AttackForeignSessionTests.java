package dev.lomicontrol.broker;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.Scopes;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.testing.Agent;
import dev.lomicontrol.testing.Eventually;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Attack suite: one paired session reaching for another's work — its receipts by id and by key,
 * its waiting operations, its artifacts, its terminal's input lease and its runs — and a session
 * narrowed to one project reaching for another project; and a revoked session reaching for its
 * own. Every attempt gets the answer an unknown id gets (no existence oracle) or a refusal, and
 * the victim's work is untouched.
 */
class AttackForeignSessionTests {

    @RegisterExtension
    final Agent agent = Agent.inProject("shared");

    final AttackCalls attack = new AttackCalls(agent);
    final Session victim = agent.session();
    Project other;
    Session stranger;
    Session narrowed;
    RetryEpochId strangerEpoch;

    @BeforeEach
    void open() throws Exception {
        other = agent.broker().project("other");
        Files.writeString(agent.project().root().resolve("data.txt"), "victim data\n");
        stranger = agent.broker().session();
        narrowed = agent.broker().session(new Grant(false, Set.of(other.id()), Scopes.all()));
        strangerEpoch = agent.broker().connect(stranger, agent.project());
        agent.broker().connect(narrowed, other);
    }

    @Test
    void aForeignReceiptIsNotFoundByIdByKeyOrForCancelAndItsWaitingWorkIsUntouched() {
        ObjectNode update = (ObjectNode) BrokerCallsFixture.JSON.readTree(json(
                "workspaceId",
                agent.workspace(),
                "expectedSettingsRevision",
                agent.ok("lomi_settings_read", "workspaceId", agent.workspace(), "section", "editor")
                        .path("settingsRevision")
                        .asString(),
                "expectedRevision",
                agent.broker().revision(),
                "retryEpoch",
                agent.epoch().value(),
                "requestKey",
                "victim-key"));
        update.set("patch", BrokerCallsFixture.JSON.readTree("{\"type\":\"editor_tab_size\",\"value\":8}"));
        JsonNode parked = attack.ok("lomi_settings_update", update.toString());
        String id = parked.path("operationId").asString();
        assertThat(parked.path("state").asString()).isEqualTo("awaiting_user");
        JsonNode unknown = agent.broker().call(stranger, "lomi_operation_get", json("operationId", "ab".repeat(20)));

        for (Session intruder : List.of(stranger, narrowed)) {
            JsonNode byId = agent.broker().call(intruder, "lomi_operation_get", json("operationId", id));
            assertThat(byId).as("the same answer as an unknown id").isEqualTo(unknown);
            for (RetryEpochId epoch : List.of(agent.epoch(), strangerEpoch)) {
                assertThat(settingsReceipt(intruder, epoch)).isEqualTo(ErrorCode.TARGET_NOT_FOUND);
                assertThat(settingsReceipt(
                                intruder,
                                epoch,
                                "projectId",
                                agent.project().id().value()))
                        .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
            }
            assertThat(agent.broker().refused(intruder, "lomi_operation_cancel", json("operationId", id)))
                    .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        }
        assertThat(agent.broker().refused(narrowed, "lomi_events_read", json("workspaceId", agent.workspace())))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);

        assertThat(agent.ok("lomi_operation_get", "operationId", id)
                        .path("state")
                        .asString())
                .isEqualTo("awaiting_user");
        assertThat(agent.broker().decisions.list())
                .singleElement()
                .satisfies(d -> assertThat(d.operationId().value()).isEqualTo(id));
    }

    @Test
    void aRevokedSessionChangesNothingAndNoLongerSeesEvenItsOwnWork() throws Exception {
        String rootRevision = attack.rootRevision();
        ObjectNode create = createIn("before.txt", rootRevision, "before-revoke");
        String id = attack.ok("lomi_files_mutate", create.toString())
                .path("operationId")
                .asString();
        Terminal terminal = create(victim, agent.epoch());
        long receipts = agent.broker().ledger.maintenance().status().receipts();

        agent.broker().sessions.revoke(victim.id(), "admin revoked it");

        create.put("requestKey", "after-revoke");
        ((ObjectNode) create.get("operation")).put("relativePath", "after.txt");
        assertThat(attack.refused("lomi_files_mutate", create.toString())).isEqualTo(ErrorCode.CONTROL_REVOKED);
        assertThat(attack.refused("lomi_terminal_input", terminal.input(terminal.lease, 1, "echo REVOKED-$((40+2))\r")))
                .isEqualTo(ErrorCode.CONTROL_REVOKED);
        assertThat(agent.refused("lomi_operation_get", "operationId", id)).isEqualTo(ErrorCode.CONTROL_REVOKED);
        assertThat(agent.project().root().resolve("after.txt")).doesNotExist();
        assertThat(agent.broker().ledger.maintenance().status().receipts()).isEqualTo(receipts);
        String output = agent.broker()
                .ok(stranger, "lomi_terminal_read", terminal.read())
                .path("text")
                .asString();
        assertThat(output).doesNotContain("REVOKED-42");
        assertThat(agent.broker()
                        .ok(stranger, "lomi_panel_list", json("workspaceId", agent.workspace()))
                        .toString())
                .as("the lease died with the session")
                .doesNotContain("\"inputControlled\":true");
    }

    @Test
    void aForeignRetryEpochCannotReserveUnderTheVictimsName() throws Exception {
        String rootRevision = agent.broker()
                .ok(stranger, "lomi_files_list", json("workspaceId", agent.workspace()))
                .path("directoryRevision")
                .asString();
        ObjectNode create = createIn("borrowed.txt", rootRevision, "borrowed-epoch");

        assertThat(agent.broker().refused(stranger, "lomi_files_mutate", create.toString()))
                .isEqualTo(ErrorCode.RETRY_WINDOW_EXPIRED);
        assertThat(agent.project().root().resolve("borrowed.txt")).doesNotExist();
        attack.assertNoReceipt("lomi_files_mutate", "borrowed-epoch");
    }

    @Test
    void aForeignArtifactCanNeitherBeReadNorExported() throws Exception {
        byte[] bytes = "victim data\n".getBytes(StandardCharsets.UTF_8);
        String sha = AttackCalls.sha256(bytes);
        String artifact = attack.ok("lomi_artifact_import", attack.importFile("victim-import", "data.txt", bytes))
                .path("result")
                .path("artifactId")
                .asString();

        JsonNode foreign = agent.broker()
                .call(stranger, "lomi_artifact_read", json("workspaceId", agent.workspace(), "artifactId", artifact));
        JsonNode unknown = agent.broker()
                .call(
                        stranger,
                        "lomi_artifact_read",
                        json("workspaceId", agent.workspace(), "artifactId", "art-0123456789abcdef"));
        assertThat(foreign.path("code").asString()).isEqualTo("TARGET_NOT_FOUND");
        assertThat(foreign.toString())
                .doesNotContain(java.util.Base64.getEncoder().encodeToString(bytes));
        assertThat(foreign.path("code")).isEqualTo(unknown.path("code"));

        String parent = agent.broker()
                .ok(stranger, "lomi_files_list", json("workspaceId", agent.workspace()))
                .path("directoryRevision")
                .asString();
        JsonNode export = agent.broker()
                .call(
                        stranger,
                        "lomi_artifact_export",
                        json(
                                "workspaceId",
                                agent.workspace(),
                                "artifactId",
                                artifact,
                                "expectedSha256",
                                sha,
                                "relativePath",
                                "stolen.txt",
                                "expectedParentRevision",
                                parent,
                                "expectedRevision",
                                agent.broker().revision(),
                                "retryEpoch",
                                strangerEpoch.value(),
                                "requestKey",
                                "steal"));
        assertThat(AttackCalls.refusalCode(export)).as("%s", export).isEqualTo("TARGET_NOT_FOUND");
        assertThat(agent.project().root().resolve("stolen.txt")).doesNotExist();
        assertThat(agent.ok("lomi_artifact_read", "workspaceId", agent.workspace(), "artifactId", artifact)
                        .path("sha256")
                        .asString())
                .isEqualTo(sha);
    }

    @Test
    void terminalInputWithoutALeaseOrWithAReleasedOneTypesNothing() throws Exception {
        Terminal terminal = create(victim, agent.epoch());

        assertThat(attack.refused("lomi_terminal_input", terminal.input("f".repeat(32), 1, "echo NOLEASE-$((40+2))")))
                .isEqualTo(ErrorCode.CONTROL_REVOKED);
        assertThat(agent.broker()
                        .refused(
                                stranger,
                                "lomi_terminal_input",
                                terminal.input("f".repeat(32), 1, "echo NOLEASE-$((40+2))")))
                .isEqualTo(ErrorCode.CONTROL_REVOKED);
        assertThat(agent.broker()
                        .refused(stranger, "lomi_panel_control", terminal.op(json("action", "release"), strangerEpoch)))
                .as("only the holder can release")
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        ObjectNode run = (ObjectNode) BrokerCallsFixture.JSON.readTree(
                terminal.op(json("leaseId", "f".repeat(32), "command", "echo NORUN-$((40+2))"), agent.epoch()));
        String runKey = run.path("requestKey").asString();
        assertThat(attack.refused("lomi_terminal_run", run.toString())).isEqualTo(ErrorCode.CONTROL_REVOKED);
        attack.assertNoReceipt("lomi_terminal_run", runKey);

        attack.ok("lomi_panel_control", terminal.op(json("action", "release"), agent.epoch()));
        assertThat(attack.refused("lomi_terminal_input", terminal.input(terminal.lease, 1, "echo RELEASED-$((40+2))")))
                .isEqualTo(ErrorCode.CONTROL_REVOKED);

        String screen =
                attack.ok("lomi_terminal_read", terminal.read()).path("text").asString();
        assertThat(screen).doesNotContain("NOLEASE", "NORUN", "RELEASED");
    }

    /**
     * A lease is input authority of the session it was granted to (SPEC §5), not a bearer token:
     * another session that learned the id must not type with it.
     */
    @Test
    void anotherSessionsLeaseIsNotABearerToken() throws Exception {
        Terminal terminal = create(victim, agent.epoch());

        assertThat(agent.broker()
                        .refused(
                                stranger,
                                "lomi_terminal_input",
                                terminal.input(terminal.lease, 1, "echo STOLEN-$((40+2))")))
                .isEqualTo(ErrorCode.CONTROL_REVOKED);
        ObjectNode run = (ObjectNode) BrokerCallsFixture.JSON.readTree(
                terminal.op(json("leaseId", terminal.lease, "command", "echo STOLENRUN-$((40+2))"), strangerEpoch));
        assertThat(agent.broker().refused(stranger, "lomi_terminal_run", run.toString()))
                .isEqualTo(ErrorCode.CONTROL_REVOKED);

        attack.ok("lomi_terminal_input", terminal.input(terminal.lease, 1, "echo VICTIM-$((40+2))\r"));
        String text = awaitText(terminal, "VICTIM-42");
        assertThat(text).doesNotContain("STOLEN-42", "STOLENRUN-42");
    }

    @Test
    void aForeignRunCannotBeInterrupted() throws Exception {
        Terminal terminal = create(victim, agent.epoch());
        ObjectNode run = (ObjectNode) BrokerCallsFixture.JSON.readTree(
                terminal.op(json("leaseId", terminal.lease, "command", "sleep 30"), agent.epoch()));
        String runId = attack.ok("lomi_terminal_run", run.toString())
                .path("operationId")
                .asString();
        awaitPrompt(terminal, "running");

        ObjectNode interrupt = (ObjectNode) BrokerCallsFixture.JSON.readTree(
                terminal.op(json("leaseId", terminal.lease, "operationId", runId), strangerEpoch));
        assertThat(agent.broker().refused(stranger, "lomi_terminal_interrupt", interrupt.toString()))
                .isIn(ErrorCode.TARGET_NOT_FOUND, ErrorCode.CONTROL_REVOKED);
        assertThat(agent.broker().refused(stranger, "lomi_operation_cancel", json("operationId", runId)))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);

        assertThat(agent.ok("lomi_operation_get", "operationId", runId)
                        .path("state")
                        .asString())
                .isEqualTo("running");
        assertThat(agent.broker().stopRequests).isEmpty();
        agent.ok("lomi_operation_cancel", "operationId", runId);
        assertThat(agent.broker()
                        .settled(victim, runId, Duration.ofSeconds(20))
                        .path("state")
                        .asString())
                .isEqualTo("cancelled");
    }

    // --- helpers

    /** A lookup by {@code who} of the victim's settings update by its key in {@code epoch} (plus {@code more} pairs). */
    private ErrorCode settingsReceipt(Session who, RetryEpochId epoch, Object... more) {
        Object[] pairs = java.util.Arrays.copyOf(
                new Object[] {"retryEpoch", epoch.value(), "requestKey", "victim-key", "tool", "lomi_settings_update"},
                6 + more.length);
        System.arraycopy(more, 0, pairs, 6, more.length);
        return agent.broker().refused(who, "lomi_operation_get", json(pairs));
    }

    /** The victim's {@code lomi_files_mutate} creating the file {@code relativePath} under {@code key}. */
    private ObjectNode createIn(String relativePath, String rootRevision, String key) {
        ObjectNode create = attack.durableNode(key);
        create.set("operation", AttackCalls.create(relativePath, "file", rootRevision));
        return create;
    }

    private Terminal create(Session owner, RetryEpochId epoch) {
        JsonNode created = agent.broker()
                .ok(
                        owner,
                        "lomi_terminal_create",
                        json(
                                "workspaceId",
                                agent.workspace(),
                                "expectedRevision",
                                agent.broker().revision(),
                                "retryEpoch",
                                epoch.value(),
                                "requestKey",
                                agent.key("create")));
        assertThat(created.path("state").asString()).as("%s", created).isEqualTo("succeeded");
        Terminal terminal = new Terminal(created.path("result"));
        awaitPrompt(terminal, "ready");
        return terminal;
    }

    private void awaitPrompt(Terminal terminal, String prompt) {
        Eventually.await(
                "the prompt becomes " + prompt,
                Duration.ofSeconds(30),
                () -> attack.ok("lomi_terminal_read", terminal.read())
                        .path("prompt")
                        .asString(),
                prompt::equals);
    }

    private String awaitText(Terminal terminal, String needle) {
        return Eventually.await(
                "the terminal prints " + needle,
                Duration.ofSeconds(30),
                () -> attack.ok("lomi_terminal_read", terminal.read())
                        .path("text")
                        .asString(),
                text -> text.contains(needle));
    }

    private final class Terminal {
        final String panel;
        final String id;
        final String lease;

        Terminal(JsonNode result) {
            panel = result.path("panelId").asString();
            id = result.path("terminalSessionId").asString();
            lease = result.path("leaseId").asString();
        }

        String read() {
            return json(on("cursor", "0", "maxBytes", 65536));
        }

        /** The workspace, panel and terminal session of this terminal, then {@code more} pairs. */
        Object[] on(Object... more) {
            Object[] pairs = java.util.Arrays.copyOf(
                    new Object[] {"workspaceId", agent.workspace(), "panelId", panel, "terminalSessionId", id},
                    6 + more.length);
            System.arraycopy(more, 0, pairs, 6, more.length);
            return pairs;
        }

        String input(String leaseId, long sequence, String text) {
            ObjectNode node = Agent.object(on("leaseId", leaseId, "inputSequence", Long.toString(sequence)));
            node.set("input", BrokerCallsFixture.JSON.readTree(json("type", "text", "text", text)));
            return node.toString();
        }

        String op(String arguments, RetryEpochId epoch) {
            ObjectNode node = (ObjectNode) BrokerCallsFixture.JSON.readTree(arguments);
            node.put("workspaceId", agent.workspace());
            node.put("panelId", panel);
            node.put("terminalSessionId", id);
            node.put("retryEpoch", epoch.value());
            node.put("requestKey", agent.key("t"));
            return node.toString();
        }
    }
}
