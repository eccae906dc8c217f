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

    /** A {@code create} operation of a file or directory. */
    static JsonNode create(String relativePath, String kind, String parentRevision) {
        return operation(
                "type", "create", "relativePath", relativePath, "kind", kind, "expectedParentRevision", parentRevision);
    }

    /** A {@code trash} operation of a file or directory. */
    static JsonNode trash(String relativePath, String kind, String entryRevision, String parentRevision) {
        return fileOperation(
                "trash", relativePath, "kind", kind, "expectedEntryRevision", entryRevision, parentRevision);
    }

    /** A {@code rename} operation of a file in its directory. */
    static JsonNode rename(String relativePath, String newName, String diskRevision, String parentRevision) {
        return fileOperation(
                "rename", relativePath, "newName", newName, "expectedDiskRevision", diskRevision, parentRevision);
    }

    /** A {@code move} operation of a file to another path. */
    static JsonNode move(String relativePath, String target, String diskRevision, String parentRevision) {
        return fileOperation(
                "move",
                relativePath,
                "targetRelativePath",
                target,
                "expectedDiskRevision",
                diskRevision,
                parentRevision);
    }

    /**
     * A file operation of {@code type} on {@code relativePath}: one named value ({@code what}), the
     * revision it names and the parent's revision.
     */
    static JsonNode fileOperation(
            String type,
            String relativePath,
            String what,
            String value,
            String revisionName,
            String revision,
            String parentRevision) {
        return operation(
                "type",
                type,
                "relativePath",
                relativePath,
                what,
                value,
                revisionName,
                revision,
                "expectedParentRevision",
                parentRevision);
    }

    /** The arguments of {@code lomi_files_mutate} carrying {@code operation} under {@code key}. */
    String mutate(JsonNode operation, String key) {
        ObjectNode node = durableNode(key);
        node.set("operation", operation);
        return node.toString();
    }

    /** The answer of {@code lomi_files_mutate} with {@code operation} under {@code key}. */
    JsonNode callMutate(JsonNode operation, String key) {
        return call("lomi_files_mutate", mutate(operation, key));
    }

    /** As {@link #callMutate(JsonNode, String)} under a fresh key of the agent's. */
    JsonNode callMutate(JsonNode operation) {
        return callMutate(operation, agent.key("files-mutate"));
    }

    /** The git status's observation revision. */
    String observation() {
        return text("lomi_git_status", "observationRevision", "workspaceId", agent.workspace());
    }

    /** The directory revision of a listing ({@code ""}: the root). */
    String directoryRevision(String directory) {
        return text(
                "lomi_files_list",
                "directoryRevision",
                "workspaceId",
                agent.workspace(),
                "relativeDirectory",
                directory);
    }

    /** The root listing's directory revision (the listing asked with no directory). */
    String rootRevision() {
        return text("lomi_files_list", "directoryRevision", "workspaceId", agent.workspace());
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

    /** The arguments of {@code lomi_artifact_export} of {@code artifact} to {@code relativePath} under a parent at {@code parentRevision}. */
    String exportTo(String key, String artifact, String sha, String relativePath, String parentRevision) {
        return durable(
                key,
                "artifactId",
                artifact,
                "expectedSha256",
                sha,
                "relativePath",
                relativePath,
                "expectedParentRevision",
                parentRevision);
    }

    /** The disk revision of a file, from a read. */
    String diskRevision(String relativePath) {
        return text("lomi_files_read", "diskRevision", "workspaceId", agent.workspace(), "relativePath", relativePath);
    }

    /** How many panels the workspace has. */
    int panels() {
        return okPairs("lomi_panel_list", "workspaceId", agent.workspace())
                .path("panels")
                .size();
    }

    /** The durable arguments of an editor call on {@code opened} (the result of {@code lomi_editor_open}) at {@code bufferRevision}. */
    ObjectNode editorCall(String key, JsonNode opened, String bufferRevision) {
        return durableNode(
                key,
                "panelId",
                opened.path("panelId").asString(),
                "relativePath",
                opened.path("relativePath").asString(),
                "documentId",
                opened.path("documentId").asString(),
                "expectedBufferRevision",
                bufferRevision,
                "expectedDiskRevision",
                opened.path("diskRevision").asString());
    }

    /** The raw envelope of a call by this session; {@code arguments} is JSON text. */
    JsonNode call(String tool, String arguments) {
        return agent.broker().call(session, tool, arguments);
    }

    /** The data of a call by this session that must succeed. */
    JsonNode ok(String tool, String arguments) {
        return agent.broker().ok(session, tool, arguments);
    }

    /** The error code of a call by this session that must fail. */
    ErrorCode refused(String tool, String arguments) {
        return agent.broker().refused(session, tool, arguments);
    }

    private String text(String tool, String field, Object... pairs) {
        return okPairs(tool, pairs).path(field).asString();
    }

    private JsonNode okPairs(String tool, Object... pairs) {
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
