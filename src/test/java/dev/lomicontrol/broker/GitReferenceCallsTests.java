package dev.lomicontrol.broker;

import static dev.lomicontrol.testing.GitRemote.head;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.git.api.GitSpecs;
import dev.lomicontrol.testing.Agent;
import dev.lomicontrol.testing.GitRemote;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.StoredConfig;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The git calls of catalog.md §7 / §4.9 exactly as the reference writes them (protocol
 * {@code git.rs}): {@code repositoryRelative} on all seven tools ({@code ""} and a nested repository),
 * {@code lomi_git_history.commit} paging, {@code lomi_git_mutate} in the reference's shape (no
 * observation named: the broker takes it at reserve time and the plan says so), push with
 * {@code expectedRemoteCommit: null} = only if absent, discard never removing an untracked file, and
 * remotes without URLs. The calls the reference refuses stay refused.
 */
class GitReferenceCallsTests extends GitBrokerTest {

    /** §4.9: {@code repositoryRelative: ""} is the project's repository, on every one of the seven tools. */
    @Test
    void repositoryRelativeEmptyIsTheProjectsRepositoryOnAllSeven() throws Exception {
        String head = head(mine);
        write("shared.txt", "one\nTWO\nthree\n");
        JsonNode status = read("lomi_git_status", "repositoryRelative", "", "limit", 100, "cursor", null);
        assertThat(status.path("repositoryRelative").asString()).isEmpty();
        assertThat(status.path("changes").get(0).path("relativePath").asString())
                .isEqualTo("shared.txt");
        JsonNode diff = read(
                "lomi_git_diff",
                "repositoryRelative",
                "",
                "relativePath",
                "shared.txt",
                "comparison",
                "worktree",
                "commit",
                null,
                "startUtf16",
                0,
                "maxChars",
                4096,
                "expectedObservationRevision",
                null);
        assertThat(diff.path("text").asString()).contains("+TWO");
        assertThat(read("lomi_git_history", "repositoryRelative", "", "commit", null, "skip", 0, "limit", 20)
                        .path("commits")
                        .get(0)
                        .path("commit")
                        .asString())
                .isEqualTo(head);
        assertThat(read("lomi_git_commit", "repositoryRelative", "", "commit", head, "filesSkip", 0, "filesLimit", 100)
                        .path("summary")
                        .asString())
                .isEqualTo("seed");
        assertThat(read("lomi_git_remotes", "repositoryRelative", "").path("remotes"))
                .isNotEmpty();
        JsonNode opened = openView("", "type", "diff", "relativePath", "shared.txt", "staged", false);
        assertThat(opened.path("state").asString()).isEqualTo("succeeded");
        assertThat(opened.path("result").path("repositoryRelative").asString()).isEmpty();
        ObjectNode stage = mutate("stage", "");
        stage.putArray("paths").add("shared.txt");
        JsonNode staged = approve(stage);
        assertThat(staged.path("result").path("repositoryRelative").asString()).isEmpty();
        assertThat(mine.status().call().getChanged()).containsExactly("shared.txt");
    }

    /** §4.9: a nested repository inside the project by its relative path; paths inside it are relative to its root. */
    @Test
    void aNestedRepositoryIsReachedByItsRelativePath() throws Exception {
        Path nestedRoot = project.root().resolve("libs/inner");
        Files.createDirectories(nestedRoot);
        RevCommit first;
        try (Git nested = GitRemote.init(nestedRoot, "trunk")) {
            Files.writeString(nestedRoot.resolve("inner.txt"), "inner\n");
            nested.add().addFilepattern("inner.txt").call();
            first = nested.commit().setMessage("inner seed").call();
            Files.writeString(nestedRoot.resolve("inner.txt"), "inner changed\n");

            JsonNode status = read("lomi_git_status", "repositoryRelative", "libs/inner");
            assertThat(status.path("repositoryRelative").asString()).isEqualTo("libs/inner");
            assertThat(status.path("branch").asString()).isEqualTo("trunk");
            assertThat(status.path("head").asString()).isEqualTo(first.name());
            assertThat(status.path("changes"))
                    .extracting(c -> c.path("relativePath").asString())
                    .containsExactly("inner.txt");
            assertThat(read("lomi_git_diff", "repositoryRelative", "libs/inner", "relativePath", "inner.txt")
                            .path("text")
                            .asString())
                    .contains("+inner changed");
            assertThat(read("lomi_git_history", "repositoryRelative", "libs/inner")
                            .path("commits"))
                    .extracting(c -> c.path("summary").asString())
                    .containsExactly("inner seed");
            assertThat(read("lomi_git_commit", "repositoryRelative", "libs/inner", "commit", first.name())
                            .path("files")
                            .get(0)
                            .path("relativePath")
                            .asString())
                    .isEqualTo("inner.txt");
            assertThat(read("lomi_git_remotes", "repositoryRelative", "libs/inner")
                            .path("remotes"))
                    .isEmpty();
            JsonNode opened = openView("libs/inner", "type", "commit", "commit", first.name());
            assertThat(opened.path("result").path("repositoryRelative").asString())
                    .isEqualTo("libs/inner");

            ObjectNode stage = mutate("stage", "libs/inner");
            stage.putArray("paths").add("inner.txt");
            JsonNode staged = approve(stage);
            assertThat(staged.path("result").path("repositoryRelative").asString())
                    .isEqualTo("libs/inner");
            assertThat(nested.status().call().getChanged()).containsExactly("inner.txt");
            assertThat(mine.status().call().getChanged())
                    .as("the outer repository is untouched")
                    .isEmpty();
        }

        // not a repository root, a link to one, outside the project, a secret path: refused
        assertThat(broker.refused(session, "lomi_git_status", inWorkspace("repositoryRelative", "libs")))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        Files.createSymbolicLink(project.root().resolve("linked"), nestedRoot);
        assertThat(broker.refused(session, "lomi_git_status", inWorkspace("repositoryRelative", "linked")))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        Files.createSymbolicLink(project.root().resolve("hop"), project.root().resolve("libs"));
        assertThat(broker.refused(session, "lomi_git_status", inWorkspace("repositoryRelative", "hop/inner")))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        assertThat(broker.refused(session, "lomi_git_status", inWorkspace("repositoryRelative", "../seed")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(broker.refused(session, "lomi_git_status", inWorkspace("repositoryRelative", "/tmp")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(broker.refused(session, "lomi_git_status", inWorkspace("repositoryRelative", "missing/repo")))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        assertThat(broker.refused(session, "lomi_git_status", inWorkspace("repositoryRelative", ".git")))
                .isEqualTo(ErrorCode.SCOPE_DENIED);
    }

    /** §4.9: history takes the reference's {@code commit}; pages continue with the returned startCommit (as commit) and nextSkip. */
    @Test
    void historyPagesWithTheReferencesCommitField() throws Exception {
        for (int i = 1; i <= 3; i++) {
            write("n.txt", "n" + i + "\n");
            mine.add().addFilepattern("n.txt").call();
            mine.commit().setMessage("c" + i).call();
        }
        JsonNode first = read("lomi_git_history", "limit", 2);
        assertThat(first.path("commits"))
                .extracting(c -> c.path("summary").asString())
                .containsExactly("c3", "c2");
        String start = first.path("startCommit").asString();
        write("n.txt", "moved on\n");
        mine.add().addFilepattern("n.txt").call();
        mine.commit().setMessage("c4").call();

        JsonNode second = read(
                "lomi_git_history",
                "commit",
                start,
                "skip",
                first.path("nextSkip").asInt(),
                "limit",
                2);
        assertThat(second.path("startCommit").asString()).isEqualTo(start);
        assertThat(second.path("commits"))
                .extracting(c -> c.path("summary").asString())
                .as("stable while HEAD moved")
                .containsExactly("c1", "seed");
        assertThat(second.path("hasMore").asBoolean()).isFalse();
        assertThat(second.path("nextSkip").isNull()).isTrue();
        assertThat(read("lomi_git_history", "skip", 1, "limit", 1)
                        .path("commits")
                        .get(0)
                        .path("summary")
                        .asString())
                .as("skip without commit is from HEAD, as in the reference")
                .isEqualTo("c3");
        assertThat(broker.refused(session, "lomi_git_history", inWorkspace("commit", "HEAD")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(broker.refused(session, "lomi_git_history", inWorkspace("commit", start, "startCommit", head(mine))))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }

    /** §7: git_mutate stage in the reference's form: no observation named — the broker takes it when it reserves, and the plan says so. */
    @Test
    void stageInTheReferenceFormIsPlannedOnTheBrokersObservation() throws Exception {
        write("shared.txt", "one\nstaged\nthree\n");
        ObjectNode stage = mutate("stage", "");
        stage.putArray("paths").add("shared.txt");
        stage.putNull("message")
                .putNull("remote")
                .putNull("reference")
                .putNull("sourceCommit")
                .putNull("expectedRemoteCommit")
                .putNull("pullMode");
        JsonNode parked = broker.ok(session, "lomi_git_mutate", stage.toString());
        assertThat(parked.path("state").asString()).isEqualTo("awaiting_user");
        String observed = read("lomi_git_status").path("observationRevision").asString();
        assertThat(broker.decisions.list()).singleElement().satisfies(d -> {
            assertThat(d.plan())
                    .contains(
                            "\"kind\":\"stage\"",
                            "\"observedBy\":\"broker\"",
                            "\"observationRevision\":\"" + observed + "\"");
            assertThat(d.summary()).contains("git stage shared.txt");
        });
        broker.decisions.decide(new OperationId(parked.path("operationId").asString()), true);
        JsonNode done = broker.settled(session, parked.path("operationId").asString(), Duration.ofSeconds(30));
        assertThat(done.path("state").asString()).isEqualTo("succeeded");
        assertThat(done.path("result").path("kind").asString()).isEqualTo("git_mutated");
        assertThat(done.path("result").path("outcome").asString()).isEqualTo("succeeded");
        assertThat(done.path("result").path("reason").isNull()).isTrue();
        assertThat(done.path("result").path("plan").path("observedBy").asString())
                .isEqualTo("broker");
        assertThat(mine.status().call().getChanged()).containsExactly("shared.txt");

        // the reference's expectedRevision is the layout's domainRevision: a stale one is refused without a receipt
        ObjectNode stale = mutate("stage", "");
        stale.putArray("paths").add("shared.txt");
        stale.put("expectedRevision", Long.toString(broker.projects.revision() + 1));
        assertThat(broker.refused(session, "lomi_git_mutate", stale.toString())).isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertNoReceipt(stale);
    }

    /** §7: git_mutate push in the reference's form, and {@code expectedRemoteCommit: null} = "only if the remote branch is absent". */
    @Test
    void pushInTheReferenceFormAndExpectedRemoteCommitNullMeansOnlyIfAbsent() throws Exception {
        write("mine.txt", "mine\n");
        mine.add().addFilepattern("mine.txt").call();
        RevCommit local = mine.commit().setMessage("mine").call();

        ObjectNode overExisting = network("push");
        overExisting
                .put("remote", "origin")
                .put("reference", "refs/heads/main")
                .put("sourceCommit", local.name())
                .putNull("expectedRemoteCommit");
        String before = remote.head("refs/heads/main");
        assertRemoteMoved(overExisting, "main exists on the remote (checked by the push, after approval: N7)");
        assertThat(remote.head("refs/heads/main")).isEqualTo(before);

        ObjectNode create = network("push");
        create.put("remote", "origin")
                .put("reference", "refs/heads/feature")
                .put("sourceCommit", local.name())
                .putNull("expectedRemoteCommit")
                .putNull("message")
                .putNull("pullMode");
        JsonNode created = approve(create);
        assertThat(created.path("result")
                        .path("plan")
                        .path("expectedRemoteHead")
                        .asString())
                .isEmpty();
        assertThat(created.path("result").path("plan").path("reference").asString())
                .isEqualTo("refs/heads/feature");
        assertThat(remote.head("refs/heads/feature")).isEqualTo(local.name());
        assertThat(remote.head("refs/heads/main"))
                .as("only the named reference")
                .isNotEqualTo(local.name());

        ObjectNode again = network("push");
        again.put("remote", "origin").put("reference", "refs/heads/feature").put("sourceCommit", local.name());
        assertRemoteMoved(again, "absent expectedRemoteCommit: now it exists");

        String remoteMain = remote.head("refs/heads/main");
        ObjectNode fastForward = network("push");
        fastForward
                .put("remote", "origin")
                .put("reference", "refs/heads/main")
                .put("sourceCommit", local.name())
                .put("expectedRemoteCommit", remoteMain);
        approve(fastForward);
        assertThat(remote.head("refs/heads/main")).isEqualTo(local.name());

        ObjectNode notHead = network("push");
        notHead.put("remote", "origin")
                .put("reference", "refs/heads/main")
                .put("sourceCommit", local.getParent(0).name())
                .put("expectedRemoteCommit", local.name());
        assertThat(broker.refused(session, "lomi_git_mutate", notHead.toString()))
                .as("sourceCommit must be HEAD")
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(broker.decisions.list()).isEmpty();
    }

    /** §4.9: discard restores tracked files and never removes an untracked one — naming one is refused, as the reference ("use lomi_files_mutate trash"). */
    @Test
    void discardLeavesAnUntrackedFileInPlace() throws Exception {
        write("shared.txt", "scribble\n");
        write("scratch.txt", "keep me\n");
        ObjectNode both = mutate("discard", "");
        both.putArray("paths").add("shared.txt").add("scratch.txt");
        JsonNode refusal = broker.call(session, "lomi_git_mutate", both.toString());
        assertThat(refusal.path("code").asString()).isEqualTo("INVALID_ARGUMENT");
        assertThat(refusal.toString()).contains("lomi_files_mutate trash");
        assertNoReceipt(both);
        assertThat(root().resolve("shared.txt")).hasContent("scribble\n");

        ObjectNode tracked = mutate("discard", "");
        tracked.putArray("paths").add("shared.txt");
        JsonNode parked = broker.ok(session, "lomi_git_mutate", tracked.toString());
        assertThat(broker.decisions.list())
                .singleElement()
                .satisfies(d -> assertThat(d.summary()).contains("untracked files are never touched"));
        broker.decisions.decide(new OperationId(parked.path("operationId").asString()), true);
        assertThat(broker.settled(session, parked.path("operationId").asString(), Duration.ofSeconds(30))
                        .path("state")
                        .asString())
                .isEqualTo("succeeded");
        assertThat(root().resolve("shared.txt")).hasContent("one\ntwo\nthree\n");
        assertThat(root().resolve("scratch.txt")).hasContent("keep me\n");
    }

    /** §4.9: per remote and role the reference's name, role, transport, host, port and locationRedacted — never a URL. */
    @Test
    void remotesHaveTheReferencesShapeWithoutUrls() throws Exception {
        configureRemote("gh", "url", "https://user:tok3n@github.com:8443/team/private-repo.git?x=y#frag");
        configureRemote(
                "scp",
                "url",
                "git@gitlab.example:team/other.git",
                "pushurl",
                "ssh://deploy@push.example:2222/team/other.git");

        JsonNode remotes = remotesWithout(
                "tok3n",
                "user",
                "private-repo",
                "team/",
                "frag",
                "deploy",
                "://",
                remote.bare().toString());
        assertThat(remotes.toString()).doesNotContain("fetchUrls", "pushUrls");
        List<String> rows = new ArrayList<>();
        remotes.path("remotes").forEach(r -> {
            List<String> fields = new ArrayList<>();
            r.propertyNames().forEach(fields::add);
            assertThat(fields).containsExactly("name", "role", "transport", "host", "port", "locationRedacted");
            rows.add(r.path("name").asString() + " " + r.path("role").asString() + " "
                    + r.path("transport").asString() + " "
                    + (r.path("host").isNull() ? "-" : r.path("host").asString()) + " "
                    + (r.path("port").isNull() ? "-" : r.path("port").asInt())
                    + " " + r.path("locationRedacted").asBoolean());
        });
        assertThat(rows)
                .containsExactly(
                        "gh fetch https github.com 8443 true",
                        "gh push https github.com 8443 true",
                        "origin fetch file - - true",
                        "origin push file - - true",
                        "scp fetch ssh gitlab.example - true",
                        "scp push ssh push.example 2222 true");
    }

    /** Reference calls of the other mutations, and what the reference refuses stays refused. */
    @Test
    void theOtherReferenceFormsAndTheRefusals() throws Exception {
        // commit: paths name the complete staged set
        write("shared.txt", "one\ncommitted\nthree\n");
        write("other.txt", "other\n");
        mine.add().addFilepattern("shared.txt").addFilepattern("other.txt").call();
        ObjectNode partial = mutate("commit", "");
        partial.put("message", "partial").putArray("paths").add("shared.txt");
        assertThat(broker.refused(session, "lomi_git_mutate", partial.toString()))
                .as("other.txt is staged too")
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        ObjectNode commit = mutate("commit", "");
        commit.put("message", "both").putArray("paths").add("other.txt").add("shared.txt");
        JsonNode committed = approve(commit);
        assertThat(committed.path("result").path("newHead").asString()).isEqualTo(head(mine));

        // fetch {remote, reference, paths: []}
        Git theirs = remote.cloneInto(temp.resolve("theirs"));
        Files.writeString(temp.resolve("theirs/t.txt"), "t\n");
        theirs.add().addFilepattern("t.txt").call();
        RevCommit their = theirs.commit().setMessage("theirs").call();
        theirs.push().call();
        ObjectNode fetch = network("fetch");
        fetch.put("remote", "origin").put("reference", "refs/heads/main");
        approve(fetch);
        assertThat(mine.getRepository().resolve("refs/remotes/origin/main")).isEqualTo(their.getId());

        // refused as intended: this host's former fields, unknown fields, a field of another operation, a short
        // reference
        ObjectNode old = network("push");
        old.put("remote", "origin").put("branch", "main");
        assertThat(broker.refused(session, "lomi_git_mutate", old.toString())).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        ObjectNode foreign = mutate("stage", "");
        foreign.put("expectedRemoteCommit", head(mine)).putArray("paths").add("shared.txt");
        assertThat(broker.refused(session, "lomi_git_mutate", foreign.toString()))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        ObjectNode shortRef = network("fetch");
        shortRef.put("remote", "origin").put("reference", "main");
        assertThat(broker.refused(session, "lomi_git_mutate", shortRef.toString()))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        ObjectNode noPaths = mutate("stage", "");
        noPaths.remove("paths");
        assertThat(broker.refused(session, "lomi_git_mutate", noPaths.toString()))
                .as("paths is required")
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(broker.refused(session, "lomi_git_status", inWorkspace("verbose", true)))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(broker.refused(session, "lomi_git_status", inWorkspace("limit", 0)))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(broker.decisions.list()).isEmpty();

        // the binder the helper runs is the same: the reference's push binds, this host's former one does not
        GitSpecs.MutateInput bound = GitSpecs.MUTATE.bind(BrokerCallsFixture.JSON.readTree(network("push")
                .put("remote", "origin")
                .put("reference", "refs/heads/main")
                .put("sourceCommit", head(mine))
                .putNull("expectedRemoteCommit")
                .toString()));
        assertThat(bound.expectedRemoteCommit()).isEmpty();
        assertThat(bound.expectedObservationRevision()).isEmpty();
    }

    /** Every answer of the seven tools — reads, an opened view, a mutation that ran and one that failed — fits its published schema. */
    @Test
    void everyAnswerValidatesAgainstItsPublishedOutputSchema() throws Exception {
        write("shared.txt", "one\nTWO\nthree\n");
        String head = head(mine);
        conforms(GitSpecs.STATUS, broker.call(session, "lomi_git_status", inWorkspace()));
        conforms(GitSpecs.DIFF, broker.call(session, "lomi_git_diff", inWorkspace("relativePath", "shared.txt")));
        conforms(
                GitSpecs.DIFF,
                broker.call(
                        session,
                        "lomi_git_diff",
                        inWorkspace("relativePath", "shared.txt", "comparison", "commit", "commit", head)));
        conforms(GitSpecs.HISTORY, broker.call(session, "lomi_git_history", inWorkspace()));
        conforms(GitSpecs.COMMIT, broker.call(session, "lomi_git_commit", inWorkspace("commit", head)));
        conforms(GitSpecs.REMOTES, broker.call(session, "lomi_git_remotes", inWorkspace()));
        conforms(
                GitSpecs.OPEN,
                broker.call(session, "lomi_git_open", op(inWorkspace("view", view("type", "commit", "commit", head)))));
        ObjectNode stage = mutate("stage", "");
        stage.putArray("paths").add("shared.txt");
        JsonNode parked = broker.call(session, "lomi_git_mutate", stage.toString());
        conforms(GitSpecs.MUTATE, parked);
        broker.decisions.decide(
                new OperationId(parked.path("data").path("operationId").asString()), true);
        broker.settled(session, parked.path("data").path("operationId").asString(), Duration.ofSeconds(30));
        conforms(GitSpecs.MUTATE, broker.call(session, "lomi_git_mutate", stage.toString()));

        StoredConfig config = mine.getRepository().getConfig();
        config.setString(
                "remote",
                "gone",
                "url",
                temp.resolve("no-such-remote.git").toUri().toString());
        config.save();
        broker.yolo.set(true);
        ObjectNode fetch = network("fetch");
        fetch.put("remote", "gone").put("reference", "refs/heads/main");
        JsonNode failed = broker.call(session, "lomi_git_mutate", fetch.toString());
        JsonNode data = failed.path("data");
        assertThat(data.path("state").asString()).as(failed.toString()).isEqualTo("failed");
        assertThat(data.path("result").path("kind").asString()).isEqualTo("failure");
        assertThat(data.path("result").path("code").asString()).isEqualTo("APP_UNAVAILABLE");
        assertThat(data.path("result").path("detail").path("kind").asString()).isEqualTo("git_mutated");
        assertThat(data.path("result").path("detail").path("reason").asString()).isEqualTo("unreachable");
        conforms(GitSpecs.MUTATE, failed);
    }

    // --- helpers

    /** The envelope validates against the tool's published outputSchema (the helper's own validator). */
    private static void conforms(dev.lomicontrol.tools.ToolSpec<?> spec, JsonNode envelope) throws Exception {
        assertThat(envelope.path("status").asString())
                .as("%s: %s", spec.name(), envelope)
                .isEqualTo("ok");
        var validator = Class.forName("dev.lomicontrol.mcp.SchemaValidator")
                .getDeclaredMethod("firstViolation", JsonNode.class, JsonNode.class, String.class);
        validator.setAccessible(true);
        assertThat((java.util.Optional<?>) validator.invoke(null, spec.outputSchema(), envelope, "result"))
                .as("%s: %s", spec.name(), envelope)
                .isEmpty();
    }

    /** A read (a call that must succeed) with the workspace and these name/value pairs. */
    private JsonNode read(String tool, Object... pairs) {
        return broker.ok(session, tool, inWorkspace(pairs));
    }

    /** A lomi_git_open of the view (name/value pairs) in the repository at {@code repositoryRelative}. */
    private JsonNode openView(String repositoryRelative, Object... view) {
        return broker.ok(
                session,
                "lomi_git_open",
                op(inWorkspace("repositoryRelative", repositoryRelative, "view", view(view))));
    }

    private static JsonNode view(Object... pairs) {
        return Agent.object(pairs);
    }

    private String op(String arguments) {
        ObjectNode node = (ObjectNode) BrokerCallsFixture.JSON.readTree(arguments);
        node.put("expectedRevision", broker.revision())
                .put("retryEpoch", epoch.value())
                .put("requestKey", "ref-" + keys.incrementAndGet());
        return node.toString();
    }

    /** A reference-shaped mutation: no expectedObservationRevision; the test adds paths and the operation's fields. */
    private ObjectNode mutate(String operation, String repositoryRelative) {
        return mutateRequest(operation, "ref-").put("repositoryRelative", repositoryRelative);
    }

    private ObjectNode network(String operation) {
        ObjectNode node = mutate(operation, "");
        node.putArray("paths");
        return node;
    }

    private JsonNode approve(ObjectNode request) {
        JsonNode parked = broker.ok(session, "lomi_git_mutate", request.toString());
        assertThat(parked.path("state").asString())
                .as("%s -> %s", request, parked)
                .isEqualTo("awaiting_user");
        broker.decisions.decide(new OperationId(parked.path("operationId").asString()), true);
        JsonNode done = broker.settled(session, parked.path("operationId").asString(), Duration.ofSeconds(30));
        assertThat(done.path("state").asString()).as("%s -> %s", request, done).isEqualTo("succeeded");
        assertThat(done.path("result").path("kind").asString()).isEqualTo("git_mutated");
        return done;
    }

    /** Approves a push whose expectation the remote does not meet: it fails with nothing pushed. */
    private void assertRemoteMoved(ObjectNode request, String why) {
        JsonNode parked = broker.ok(session, "lomi_git_mutate", request.toString());
        assertThat(parked.path("state").asString()).as(why).isEqualTo("awaiting_user");
        broker.decisions.decide(new OperationId(parked.path("operationId").asString()), true);
        JsonNode done = broker.settled(session, parked.path("operationId").asString(), Duration.ofSeconds(30));
        assertThat(done.path("state").asString()).as(why).isEqualTo("failed");
        assertThat(done.path("effectState").asString()).isEqualTo("none");
        assertThat(done.path("errorCode").asString()).isEqualTo("REVISION_CONFLICT");
        assertThat(done.path("result").path("detail").path("reason").asString()).isEqualTo("remote_moved");
    }

    private void assertNoReceipt(ObjectNode request) {
        assertThat(broker.refused(
                        session,
                        "lomi_operation_get",
                        BrokerCallsFixture.json(
                                "retryEpoch",
                                epoch.value(),
                                "requestKey",
                                request.path("requestKey").asString(),
                                "tool",
                                "lomi_git_mutate")))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
    }
}
