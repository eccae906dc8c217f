package dev.lomicontrol.broker;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.ledger.Target;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.Pairings;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.testing.Agent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.StoredConfig;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the broker attack and cross-feature tests share, on one {@link Agent}: the durable-call
 * envelope (workspace, domain revision, retry epoch, request key), the {@code lomi_files_mutate}
 * envelope, reads they take before an attack (observation, directory revision, panel count), and the
 * assertions that a refusal left nothing behind (no receipt, no effect, no stored artifact).
 */
final class AttackCalls {

    private final Agent agent;
    private final Session session;
    private final RetryEpochId epoch;

    AttackCalls(Agent agent) {
        this(agent, agent.session(), agent.epoch());
    }

    private AttackCalls(Agent agent, Session session, RetryEpochId epoch) {
        this.agent = agent;
        this.session = session;
        this.epoch = epoch;
    }

    /** The same calls made by another session (a narrower grant) on the agent's broker and workspace. */
    AttackCalls as(Session other, RetryEpochId otherEpoch) {
        return new AttackCalls(agent, other, otherEpoch);
    }

    /** The session these calls are made by. */
    Session session() {
        return session;
    }

    /** A real operation runner on the agent's ledger, decision board and clock ({@code yolo}: approvals granted at once). */
    OperationRunner runner(boolean yolo, Duration decisionTimeout) {
        BrokerCallsFixture broker = agent.broker();
        return new OperationRunner(broker.ledger, broker.decisions, () -> yolo, broker.clock, decisionTimeout);
    }

    /** A runner request of the agent's for {@code lomi_files_mutate} on a resource of its workspace, under {@code key}. */
    OperationRunner.Request runnerRequest(String key) {
        return new OperationRunner.Request(
                session,
                "lomi_files_mutate",
                BrokerCallsFixture.JSON.createObjectNode(),
                epoch,
                new RequestKey(key),
                agent.project().id(),
                new Target(agent.workspace(), "resource", "", ""));
    }

    /** The admin approves a pending pairing request with the grant it asked for, over the broker's projects. */
    static Grant approveAsAsked(Pairings pairings, Projects projects, String requestId) {
        return pairings.approve(
                requestId,
                Optional.empty(),
                Optional.empty(),
                name -> projects.find(name).map(Project::id),
                () -> projects.list().stream().map(Project::id).collect(Collectors.toSet()));
    }

    /** A git repository in {@code root} on branch main with a committer identity, for the attack suites. */
    static Git gitRepository(Path root) throws Exception {
        Git git =
                Git.init().setDirectory(root.toFile()).setInitialBranch("main").call();
        StoredConfig config = git.getRepository().getConfig();
        config.setString("user", null, "name", "Attack Test");
        config.setString("user", null, "email", "attack@example.com");
        config.save();
        return git;
    }

    /**
     * The arguments of a durable call in the agent's workspace: {@code workspaceId}, the pairs, then
     * the current {@code expectedRevision}, the agent's {@code retryEpoch} and {@code requestKey}.
     */
    String durable(String key, Object... pairs) {
        return json(durablePairs(key, pairs));
    }

    /** As {@link #durable}, as a node to add nested arguments to. */
    ObjectNode durableNode(String key, Object... pairs) {
        return Agent.object(durablePairs(key, pairs));
    }

    private Object[] durablePairs(String key, Object... pairs) {
        Object[] all = new Object[pairs.length + 8];
        all[0] = "workspaceId";
        all[1] = agent.workspace();
        System.arraycopy(pairs, 0, all, 2, pairs.length);
        Object[] tail = {"expectedRevision", agent.broker().revision(), "retryEpoch", epoch.value(), "requestKey", key};
        System.arraycopy(tail, 0, all, pairs.length + 2, tail.length);
        return all;
    }

    /** One {@code lomi_files_mutate} operation from name/value pairs. */
    static JsonNode operation(Object... pairs) {
        return BrokerCallsFixture.JSON.readTree(json(pairs));
    }

    /** The arguments of {@code lomi_files_mutate} carrying {@code operation} under {@code key}. */
    String mutate(JsonNode operation, String key) {
        ObjectNode node = durableNode(key);
        node.set("operation", operation);
        return node.toString();
    }

    /** The answer of {@code lomi_files_mutate} with {@code operation} under {@code key}. */
    JsonNode callMutate(JsonNode operation, String key) {
        return agent.broker().call(session, "lomi_files_mutate", mutate(operation, key));
    }

    /** As {@link #callMutate(JsonNode, String)} under a fresh key of the agent's. */
    JsonNode callMutate(JsonNode operation) {
        return callMutate(operation, agent.key("files-mutate"));
    }

    /** The git status's observation revision. */
    String observation() {
        return ok("lomi_git_status", "workspaceId", agent.workspace())
                .path("observationRevision")
                .asString();
    }

    /** The directory revision of a listing ({@code ""}: the root). */
    String directoryRevision(String directory) {
        return ok("lomi_files_list", "workspaceId", agent.workspace(), "relativeDirectory", directory)
                .path("directoryRevision")
                .asString();
    }

    /** The root listing's directory revision (the listing asked with no directory). */
    String rootRevision() {
        return ok("lomi_files_list", "workspaceId", agent.workspace())
                .path("directoryRevision")
                .asString();
    }

    /** The arguments of {@code lomi_artifact_import} of the file at {@code relativePath} whose bytes are {@code bytes}. */
    String importFile(String key, String relativePath, byte[] bytes) throws Exception {
        return durable(
                key,
                "relativePath",
                relativePath,
                "kind",
                "file",
                "expectedByteLength",
                bytes.length,
                "expectedSha256",
                sha256(bytes));
    }

    /** The disk revision of a file, from a read. */
    String diskRevision(String relativePath) {
        return ok("lomi_files_read", "workspaceId", agent.workspace(), "relativePath", relativePath)
                .path("diskRevision")
                .asString();
    }

    /** How many panels the workspace has. */
    int panels() {
        return ok("lomi_panel_list", "workspaceId", agent.workspace())
                .path("panels")
                .size();
    }

    private JsonNode ok(String tool, Object... pairs) {
        return agent.broker().ok(session, tool, json(pairs));
    }

    /** The refusal of an answer: the envelope's code, or the errorCode of an operation that failed. */
    static String refusalCode(JsonNode envelope) {
        if (envelope.path("status").asString().equals("error")) {
            return envelope.path("code").asString();
        }
        JsonNode data = envelope.path("data");
        return data.path("state").asString().equals("failed")
                ? data.path("errorCode").asString()
                : "NOT REFUSED: " + data;
    }

    /** A refusal before the receipt left none; a refusal inside the operation left it failed with no effect. */
    void assertNothingHappenedTo(JsonNode answer, String tool, String key) {
        if (answer.path("status").asString().equals("error")) {
            assertNoReceipt(tool, key);
        } else {
            assertThat(answer.path("data").path("state").asString()).isEqualTo("failed");
            assertThat(answer.path("data").path("effectState").asString()).isEqualTo("none");
        }
    }

    /** No receipt exists for {@code tool} under {@code key} in the agent's retry epoch. */
    void assertNoReceipt(String tool, String key) {
        assertThat(agent.broker()
                        .refused(
                                session,
                                "lomi_operation_get",
                                json("retryEpoch", epoch.value(), "requestKey", key, "tool", tool)))
                .as("no receipt for %s %s", tool, key)
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
    }

    /** The artifact blobs the broker stored. */
    List<Path> storedArtifacts() throws Exception {
        Path dir = agent.broker().temp.resolve("artifacts");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .filter(p -> p.getFileName().toString().endsWith(".bin"))
                    .toList();
        }
    }

    static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
