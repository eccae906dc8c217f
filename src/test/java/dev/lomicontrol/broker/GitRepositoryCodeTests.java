package dev.lomicontrol.broker;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static dev.lomicontrol.broker.BrokerCallsFixture.workspaceOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.testing.GitRemote;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.StoredConfig;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * F2 (security review 2026-12-01): approved git mutations and git reads never run code the
 * repository (or an agent that can write its worktree) supplies. A real repository with hooks in
 * {@code .git/hooks} and in a worktree {@code core.hooksPath}, a clean/smudge filter and
 * {@code uploadpack}/{@code receivepack} programs; every hook and command would touch a marker
 * file. Commit, push, fetch, pull and discard through {@code lomi_git_mutate} leave it absent, and
 * a control run of plain JGit shows the same repository does run them.
 */
class GitRepositoryCodeTests extends GitBrokerTest {

    static final List<String> HOOKS = List.of(
            "pre-commit",
            "prepare-commit-msg",
            "commit-msg",
            "post-commit",
            "pre-push",
            "post-checkout",
            "post-merge",
            "post-rewrite",
            "pre-rebase",
            "reference-transaction");

    Git theirs;
    Path marker;

    @Override
    String shared() {
        return "one\n";
    }

    @Override
    void beforeConnect() throws Exception {
        marker = temp.resolve("MARKER");
        theirs = remote.cloneInto(temp.resolve("theirs"));
    }

    @Test
    void hooksInDotGitAndInAWorktreeHooksPathNeverRunOnCommitPushFetchPullOrDiscard() throws Exception {
        for (String hook : HOOKS) {
            executable(root().resolve(".git/hooks").resolve(hook));
            executable(root().resolve(".husky").resolve(hook));
        }
        for (boolean hooksPath : List.of(false, true)) {
            if (hooksPath) {
                StoredConfig config = mine.getRepository().getConfig();
                config.setString("core", null, "hooksPath", ".husky");
                config.save();
            }
            String round = hooksPath ? "core.hooksPath" : ".git/hooks";
            Files.writeString(root().resolve("file-" + hooksPath + ".txt"), "new\n");
            approved(mutation("stage").set("paths", paths("file-" + hooksPath + ".txt")));
            JsonNode commit = approved(
                    mutation("commit").put("message", "add a file").set("paths", paths("file-" + hooksPath + ".txt")));
            assertThat(commit.path("result").path("plan").path("repositoryCode").asString())
                    .as("the plan says so")
                    .contains("hooks", "not run");
            approved(onOriginMain("push").put("sourceCommit", head()).put("expectedRemoteCommit", remoteHead()));
            theirs.pull().call();
            Files.writeString(temp.resolve("theirs/theirs-" + hooksPath + ".txt"), "theirs\n");
            theirs.add().addFilepattern("theirs-" + hooksPath + ".txt").call();
            theirs.commit().setNoVerify(true).setMessage("theirs").call();
            theirs.push().call();
            approved(onOriginMain("fetch"));
            approved(onOriginMain("pull")
                    .put("sourceCommit", head())
                    .put("pullMode", hooksPath ? "rebase" : "ff_only")
                    .put("expectedRemoteCommit", remoteHead()));
            Files.writeString(root().resolve("shared.txt"), "scribble\n");
            approved(mutation("discard").set("paths", paths("shared.txt")));
            assertThat(root().resolve("shared.txt")).hasContent("one\n");
            assertThat(marker).as("no hook ran (%s)", round).doesNotExist();
        }

        // the control: plain JGit on the same repository runs the worktree's hooks
        mine.commit().setAllowEmpty(true).setMessage("control").call();
        assertThat(marker)
                .as("plain JGit runs core.hooksPath hooks: the test has teeth")
                .exists();
    }

    @Test
    void aCleanOrSmudgeFilterIsRefusedAndNeverRunByStatusStageCommitOrDiscard() throws Exception {
        String touch = "touch '" + marker + "'; cat";
        StoredConfig config = mine.getRepository().getConfig();
        config.setString("filter", "evil", "clean", touch);
        config.setString("filter", "evil", "smudge", touch);
        config.setString("filter", "evil", "process", "touch '" + marker + "'");
        config.save();
        Files.writeString(root().resolve(".gitattributes"), "*.txt filter=evil\n");
        Files.writeString(root().resolve("shared.txt"), "scribble\n");
        Files.writeString(root().resolve("added.txt"), "new\n");

        JsonNode status = broker.call(session, "lomi_git_status", json("workspaceId", workspaceOf(project)));
        assertThat(status.toString()).contains("UNSUPPORTED_CAPABILITY", "never runs repository code");
        assertThat(attempt(mutation("stage").set("paths", paths("added.txt"))).toString())
                .contains("UNSUPPORTED_CAPABILITY");
        assertThat(attempt(mutation("commit").put("message", "x").set("paths", paths("added.txt")))
                        .toString())
                .doesNotContain("\"succeeded\"");
        assertThat(attempt(mutation("discard").set("paths", paths("shared.txt")))
                        .toString())
                .doesNotContain("\"succeeded\"");
        assertThat(marker).as("no filter ran").doesNotExist();

        // the control: plain JGit runs the clean filter of the same repository
        mine.add().addFilepattern("added.txt").call();
        assertThat(marker)
                .as("plain JGit runs filter.evil.clean: the test has teeth")
                .exists();
    }

    @Test
    void uploadpackAndReceivepackProgramsAreRefusedAndNeverRunByFetchPullOrPush() throws Exception {
        configureRemote(
                "origin",
                "uploadpack",
                "touch '" + marker + "'; git-upload-pack",
                "receivepack",
                "touch '" + marker + "'; git-receive-pack");
        Files.writeString(root().resolve("shared.txt"), "two\n");
        mine.add().addFilepattern("shared.txt").call();
        mine.commit().setMessage("local").call();

        assertThat(attempt(onOriginMain("fetch")).toString()).contains("UNSUPPORTED_CAPABILITY");
        assertThat(attempt(onOriginMain("pull")
                                .put("sourceCommit", head())
                                .put("pullMode", "ff_only")
                                .put("expectedRemoteCommit", remoteHead()))
                        .toString())
                .contains("UNSUPPORTED_CAPABILITY");
        assertThat(attempt(onOriginMain("push").put("sourceCommit", head()).put("expectedRemoteCommit", remoteHead()))
                        .toString())
                .contains("UNSUPPORTED_CAPABILITY");
        assertThat(marker).as("no uploadpack or receivepack ran").doesNotExist();

        // the control: plain JGit runs the configured upload-pack program for the same remote
        try {
            mine.fetch().setRemote("origin").call();
        } catch (Exception expected) {
            // the program ran and then did not speak the protocol: only the marker matters
        }
        assertThat(marker)
                .as("plain JGit runs remote.origin.uploadpack: the test has teeth")
                .exists();
    }

    /** Submits a mutation, approves it and waits; it must succeed. */
    private JsonNode approved(ObjectNode request) {
        JsonNode done = attempt(request);
        assertThat(done.path("state").asString()).as("%s -> %s", request, done).isEqualTo("succeeded");
        return done;
    }

    /** Submits a mutation; approves it if it waits for the admin; answers the settled operation or the refusal envelope. */
    private JsonNode attempt(ObjectNode request) {
        request.put("expectedObservationRevision", observedOrEmpty());
        JsonNode envelope = broker.call(session, "lomi_git_mutate", request.toString());
        if (!envelope.path("status").asString().equals("ok")) {
            return envelope;
        }
        JsonNode parked = envelope.path("data");
        if (parked.path("state").asString().equals("awaiting_user")) {
            broker.decisions.decide(new OperationId(parked.path("operationId").asString()), true);
        }
        return broker.settled(session, parked.path("operationId").asString(), Duration.ofSeconds(30));
    }

    private String observedOrEmpty() {
        JsonNode status = broker.call(session, "lomi_git_status", json("workspaceId", workspaceOf(project)));
        return status.path("data").path("observationRevision").asString("0".repeat(64));
    }

    private ObjectNode mutation(String operation) {
        return mutateRequest(operation, "git-");
    }

    /** A network mutation: {@code paths: []} as the reference has it. */
    private ObjectNode network(String operation) {
        ObjectNode node = mutation(operation);
        node.putArray("paths");
        return node;
    }

    /** The {@code paths} of a mutation: the one path. */
    private static ArrayNode paths(String path) {
        return BrokerCallsFixture.JSON.createArrayNode().add(path);
    }

    /** A network mutation on {@code origin}'s {@code refs/heads/main}. */
    private ObjectNode onOriginMain(String operation) {
        return network(operation).put("remote", "origin").put("reference", "refs/heads/main");
    }

    private String remoteHead() throws IOException {
        return remote.head("refs/heads/main");
    }

    private void executable(Path hook) throws IOException {
        Files.createDirectories(hook.getParent());
        Files.writeString(hook, "#!/bin/sh\ntouch '" + marker + "'\n");
        Files.setPosixFilePermissions(hook, PosixFilePermissions.fromString("rwx------"));
    }

    private String head() throws IOException {
        return GitRemote.head(mine);
    }
}
