package dev.lomicontrol.broker;

import static dev.lomicontrol.broker.BrokerCallsFixture.workspaceOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.testing.GitRemote;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.StoredConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A git test class through the broker: before each test a {@link GitRemote} seeded with {@code
 * shared.txt}, a project {@code repo} that is a clone of it ({@link #mine}), and an agent session
 * connected to the project on a real SQLite ledger.
 */
abstract class GitBrokerTest {

    @TempDir
    Path temp;

    BrokerCallsFixture broker;
    GitRemote remote;
    Project project;
    Git mine;
    Session session;
    RetryEpochId epoch;
    final AtomicInteger keys = new AtomicInteger();

    @BeforeEach
    void openGitProject() throws Exception {
        broker = new BrokerCallsFixture(temp);
        remote = GitRemote.seeded(temp, shared());
        project = broker.project("repo");
        mine = remote.cloneInto(project.root());
        beforeConnect();
        project = broker.projects.list().get(0);
        session = broker.session();
        epoch = broker.connect(session, project);
    }

    @AfterEach
    void closeGitProject() {
        remote.close();
        broker.close();
    }

    /** What {@code shared.txt} holds in the seed commit. */
    String shared() {
        return GitRemote.SHARED;
    }

    /** Runs after the clone, before the session connects to the project: for more repositories or commits. */
    void beforeConnect() throws Exception {}

    Path root() {
        return project.root();
    }

    /**
     * A {@code lomi_git_mutate} request for {@code operation} on the project under this session's
     * epoch and the current domain revision, with a fresh requestKey {@code keyPrefix<n>}.
     */
    ObjectNode mutateRequest(String operation, String keyPrefix) {
        ObjectNode node = BrokerCallsFixture.JSON.createObjectNode();
        node.put("workspaceId", workspaceOf(project))
                .put("operation", operation)
                .put("expectedRevision", broker.revision())
                .put("retryEpoch", epoch.value())
                .put("requestKey", keyPrefix + keys.incrementAndGet());
        return node;
    }

    /** The arguments of a read: the project's workspace and the given name/value pairs ({@link BrokerCallsFixture#json}). */
    String inWorkspace(Object... pairs) {
        Object[] all = new Object[pairs.length + 2];
        all[0] = "workspaceId";
        all[1] = workspaceOf(project);
        System.arraycopy(pairs, 0, all, 2, pairs.length);
        return BrokerCallsFixture.json(all);
    }

    /** Sets {@code remote.NAME.KEY} to each value (key/value pairs) in the clone's config, and saves it. */
    void configureRemote(String name, String... keysAndValues) throws IOException {
        StoredConfig config = mine.getRepository().getConfig();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            config.setString("remote", name, keysAndValues[i], keysAndValues[i + 1]);
        }
        config.save();
    }

    /** The lomi_git_remotes answer (a read that must succeed), whose text contains none of {@code secrets}. */
    JsonNode remotesWithout(String... secrets) {
        JsonNode remotes = broker.ok(session, "lomi_git_remotes", inWorkspace());
        assertThat(remotes.toString()).doesNotContain(secrets);
        return remotes;
    }

    /** Writes {@code text} to {@code path} in the project's worktree. */
    void write(String path, String text) throws IOException {
        Files.writeString(root().resolve(path), text, StandardCharsets.UTF_8);
    }
}
