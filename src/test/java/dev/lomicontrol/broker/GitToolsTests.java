package dev.lomicontrol.broker;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static dev.lomicontrol.broker.BrokerCallsFixture.workspaceOf;
import static dev.lomicontrol.testing.GitRemote.lines;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.testing.GitRemote;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The seven git tools through the broker, on real repositories with a local bare remote and a real
 * SQLite ledger: bounded, paged reads that never show secrets or credentials; a read-only panel; and
 * mutations that wait for the admin's decision on an exact plan, run once, and record what really
 * happened (succeeded/complete, failed/partial on a conflict, failed/none when the remote moved).
 */
class GitToolsTests extends GitBrokerTest {

    Git theirs;

    @Override
    void beforeConnect() throws Exception {
        theirs = remote.cloneInto(temp.resolve("theirs"));
    }

    @Test
    void statusDiffHistoryCommitAndRemotesOnARepositoryWithEveryKindOfChange() throws Exception {
        write("old.txt", lines("moved"));
        write("bin.dat", "\u0000\u0001binary");
        write(".env", "TOKEN=first\n");
        mine.add()
                .addFilepattern("old.txt")
                .addFilepattern("bin.dat")
                .addFilepattern(".env")
                .call();
        RevCommit second = mine.commit().setMessage("second\n\nwith a body").call();
        write("shared.txt", "one\nTWO\nthree\n");
        mine.add().addFilepattern("shared.txt").call();
        write("shared.txt", "one\nTWO\nthree\nfour\n");
        Files.move(root().resolve("old.txt"), root().resolve("new.txt"));
        mine.rm().addFilepattern("old.txt").call();
        mine.add().addFilepattern("new.txt").call();
        write("untracked.txt", "fresh\n");
        write("bin.dat", "\u0000\u0002binary changed");
        write(".env", "TOKEN=second\n");

        JsonNode status = read("lomi_git_status");
        assertThat(status.path("kind").asString()).isEqualTo("git_status");
        assertThat(status.path("branch").asString()).isEqualTo("main");
        assertThat(status.path("head").asString()).isEqualTo(second.name());
        assertThat(status.path("filtered").asBoolean())
                .as("the .env change is hidden")
                .isTrue();
        List<String> rows = new ArrayList<>();
        status.path("changes")
                .forEach(c -> rows.add(c.path("relativePath").asString() + " "
                        + c.path("staged").asString() + "/"
                        + c.path("worktree").asString() + (c.path("binary").asBoolean() ? " binary" : "")
                        + (c.path("oldPath").isNull()
                                ? ""
                                : " from " + c.path("oldPath").asString())));
        assertThat(rows)
                .containsExactly(
                        "bin.dat none/modified binary",
                        "new.txt renamed/none from old.txt",
                        "shared.txt modified/modified",
                        "untracked.txt none/untracked");
        assertThat(status.toString()).doesNotContain(".env");
        String observed = status.path("observationRevision").asString();

        JsonNode first = read("lomi_git_status", "limit", 3);
        assertThat(first.path("hasMore").asBoolean()).isTrue();
        JsonNode rest = read(
                "lomi_git_status",
                "limit",
                3,
                "cursor",
                first.path("nextCursor").asString());
        assertThat(rest.path("changes")).hasSize(1);
        assertThat(rest.path("nextCursor").isNull()).isTrue();

        JsonNode worktree =
                read("lomi_git_diff", "relativePath", "shared.txt", "expectedObservationRevision", observed);
        assertThat(worktree.path("text").asString()).contains("+four").doesNotContain("-two");
        JsonNode staged = read(
                "lomi_git_diff",
                "relativePath",
                "shared.txt",
                "comparison",
                "staged",
                "expectedObservationRevision",
                observed);
        assertThat(staged.path("text").asString()).contains("-two", "+TWO").doesNotContain("+four");
        StringBuilder paged = new StringBuilder();
        int start = 0;
        JsonNode page;
        do {
            page = read(
                    "lomi_git_diff",
                    "relativePath",
                    "shared.txt",
                    "comparison",
                    "staged",
                    "startUtf16",
                    start,
                    "maxChars",
                    16,
                    "expectedObservationRevision",
                    observed);
            paged.append(page.path("text").asString());
            start = page.path("nextUtf16").asInt();
        } while (page.path("truncated").asBoolean());
        assertThat(paged.toString()).isEqualTo(staged.path("text").asString());
        assertThat(read("lomi_git_diff", "relativePath", "bin.dat", "expectedObservationRevision", observed)
                        .path("binary")
                        .asBoolean())
                .isTrue();
        JsonNode ofCommit =
                read("lomi_git_diff", "relativePath", "old.txt", "comparison", "commit", "commit", second.name());
        assertThat(ofCommit.path("text").asString()).contains("+moved line 0");

        assertThat(read("lomi_git_diff", "relativePath", "shared.txt")
                        .path("observationRevision")
                        .asString())
                .as("a first page needs no observation (the reference's form)")
                .isEqualTo(observed);
        assertThat(readRefused("lomi_git_diff", "relativePath", "shared.txt", "startUtf16", 4))
                .as("a later page names the status it continues")
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(readRefused("lomi_git_diff", "relativePath", ".env", "expectedObservationRevision", observed))
                .isEqualTo(ErrorCode.SCOPE_DENIED);
        assertThat(readRefused(
                        "lomi_git_diff", "relativePath", "../seed/shared.txt", "expectedObservationRevision", observed))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(readRefused("lomi_git_diff", "relativePath", "nowhere.txt", "expectedObservationRevision", observed))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);

        write("untracked.txt", "fresher\n");
        assertThat(readRefused("lomi_git_diff", "relativePath", "shared.txt", "expectedObservationRevision", observed))
                .as("the repository moved on")
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(readRefused(
                        "lomi_git_status",
                        "limit",
                        3,
                        "cursor",
                        first.path("nextCursor").asString()))
                .isEqualTo(ErrorCode.CURSOR_EXPIRED);

        JsonNode history = read("lomi_git_history", "limit", 1);
        assertThat(history.path("commits").get(0).path("commit").asString()).isEqualTo(second.name());
        assertThat(history.path("commits").get(0).path("summary").asString()).isEqualTo("second");
        assertThat(history.path("hasMore").asBoolean()).isTrue();
        write("x.txt", "x\n");
        mine.add().addFilepattern("x.txt").call();
        mine.commit().setMessage("third").call();
        JsonNode older = read(
                "lomi_git_history",
                "limit",
                1,
                "startCommit",
                history.path("startCommit").asString(),
                "skip",
                history.path("nextSkip").asInt());
        assertThat(older.path("commits").get(0).path("summary").asString())
                .as("stable paging while HEAD moved")
                .isEqualTo("seed");
        assertThat(older.path("hasMore").asBoolean()).isFalse();
        assertThat(read("lomi_git_history", "relativePath", "old.txt").path("commits"))
                .as("added by second, renamed away by third (it took the staged index along)")
                .extracting(c -> c.path("summary").asString())
                .containsExactly("third", "second");

        JsonNode commit = read("lomi_git_commit", "commit", second.name(), "filesLimit", 1);
        assertThat(commit.path("message").asString()).isEqualTo("second\n\nwith a body");
        assertThat(commit.path("totalFiles").asInt()).as(".env is not listed").isEqualTo(2);
        assertThat(commit.path("files").get(0).path("relativePath").asString()).isEqualTo("bin.dat");
        assertThat(commit.path("hasMoreFiles").asBoolean()).isTrue();
        JsonNode files = read(
                "lomi_git_commit",
                "commit",
                second.name(),
                "filesSkip",
                commit.path("nextFilesSkip").asInt());
        assertThat(files.path("files").get(0).path("relativePath").asString()).isEqualTo("old.txt");
        assertThat(readRefused("lomi_git_commit", "commit", "0".repeat(40))).isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        assertThat(readRefused("lomi_git_commit", "commit", "HEAD")).isEqualTo(ErrorCode.INVALID_ARGUMENT);

        configureRemote(
                "mirror",
                "url",
                "https://user:s3cret-token@example.com/team/repo.git",
                "pushurl",
                "https://ghp_abcdef@example.com/team/repo.git");
        JsonNode remotes = remotesWithout(
                "s3cret-token",
                "user:",
                "ghp_abcdef",
                "team/repo",
                "://",
                remote.bare().toString());
        assertThat(remotes.path("remotes"))
                .extracting(r -> r.path("name").asString() + " "
                        + r.path("role").asString() + " "
                        + r.path("transport").asString() + " "
                        + (r.path("host").isNull() ? "-" : r.path("host").asString()) + " "
                        + r.path("locationRedacted").asBoolean())
                .containsExactly(
                        "mirror fetch https example.com true",
                        "mirror push https example.com true",
                        "origin fetch file - true",
                        "origin push file - true");
    }

    @Test
    void theReadsNeedTheGitReadScopeAndARepository() throws Exception {
        Session reader = broker.session(new Grant(true, Set.of(), Set.of("workspace.read", "files.read")));
        assertThat(broker.refused(reader, "lomi_git_status", json("workspaceId", workspace())))
                .isEqualTo(ErrorCode.SCOPE_DENIED);
        Project plain = broker.project("plain");
        assertThat(broker.refused(session, "lomi_git_status", json("workspaceId", workspaceOf(plain))))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        assertThat(readRefused("lomi_git_status", "limit", 201)).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(readRefused("lomi_git_remotes", "verbose", true)).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void aLinkedDirectoryNeverLeadsAPlanOrADiffOutOfTheWorktree() throws Exception {
        Path outside = Files.createDirectories(temp.resolve("outside"));
        Files.writeString(outside.resolve("victim.txt"), "keep me\n");
        Files.createSymbolicLink(root().resolve("link"), outside);
        String observed = observed();

        assertThat(readRefused(
                        "lomi_git_diff", "relativePath", "link/victim.txt", "expectedObservationRevision", observed))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        for (String operation : List.of("stage", "discard")) {
            ObjectNode request = mutation(operation, observed);
            request.putArray("paths").add("link/victim.txt");
            assertThat(broker.refused(session, "lomi_git_mutate", request.toString()))
                    .as(operation)
                    .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        }
        assertThat(outside.resolve("victim.txt")).hasContent("keep me\n");
        assertThat(broker.decisions.list()).isEmpty();
    }

    @Test
    void gitOpenShowsAReadOnlyPanelAndFocusesTheSameViewInsteadOfOpeningItTwice() throws Exception {
        String head = mine.getRepository().resolve("HEAD").name();
        JsonNode opened = openView("type", "commit", "commit", head);
        assertThat(opened.path("state").asString()).isEqualTo("succeeded");
        String panel = opened.path("result").path("panelId").asString();
        JsonNode again = openView("type", "commit", "commit", head);
        assertThat(again.path("result").path("panelId").asString()).isEqualTo(panel);
        write("shared.txt", "changed\n");
        JsonNode diff = openView("type", "diff", "relativePath", "shared.txt");
        assertThat(diff.path("result").path("view").path("staged").asBoolean()).isFalse();

        JsonNode panels = broker.ok(session, "lomi_panel_list", json("workspaceId", workspace()));
        List<JsonNode> git = new ArrayList<>();
        panels.path("panels").forEach(p -> {
            if (p.path("kind").asString().equals("git")) {
                git.add(p);
            }
        });
        assertThat(git).hasSize(2);
        assertThat(git.get(0).path("gitView").path("commit").asString()).isEqualTo(head);
        assertThat(git.get(1).path("gitView").path("relativePath").asString()).isEqualTo("shared.txt");
        assertThat(git.get(1).path("focused").asBoolean()).isTrue();

        assertThat(openRefused("type", "diff", "relativePath", ".env")).isEqualTo(ErrorCode.SCOPE_DENIED);
        assertThat(openRefused("type", "commit", "commit", head, "relativePath", "x"))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        String stale = Long.toString(broker.projects.revision() - 1);
        String staleKey = "stale-open";
        assertThat(broker.refused(
                        session,
                        "lomi_git_open",
                        withOp(
                                json(
                                        "workspaceId",
                                        workspace(),
                                        "view",
                                        BrokerCallsFixture.JSON.readTree(json("type", "commit", "commit", head))),
                                stale,
                                staleKey)))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertNoReceipt("lomi_git_open", staleKey);
    }

    @Test
    void everyMutationWaitsForTheAdminAndRunsOnlyWhenApproved() throws Exception {
        // stage: rejected leaves the index alone, approved stages
        write("shared.txt", "one\nchanged\nthree\n");
        ObjectNode stage = mutation("stage", observed());
        stage.putArray("paths").add("shared.txt");
        assertRejectedThenApproved(stage, () -> staged().contains("shared.txt"));
        assertThat(broker.decisions.list()).isEmpty();

        ObjectNode unstage = mutation("unstage", observed());
        unstage.putArray("paths").add("shared.txt");
        assertRejectedThenApproved(unstage, () -> !staged().contains("shared.txt"));

        stage = mutation("stage", observed());
        stage.putArray("paths").add("shared.txt");
        approve(stage);
        ObjectNode commit = mutation("commit", observed());
        commit.put("message", "change two").putArray("paths").add("shared.txt");
        String before = head();
        JsonNode committed = assertRejectedThenApproved(commit, () -> !head().equals(before));
        assertThat(committed.path("result").path("newHead").asString()).isEqualTo(head());
        assertThat(committed.path("result").path("plan").path("paths").get(0).asString())
                .isEqualTo("shared.txt");

        write("shared.txt", "scribble\n");
        write("scratch.txt", "untracked\n");
        ObjectNode discard = mutation("discard", observed());
        discard.putArray("paths").add("shared.txt");
        assertRejectedThenApproved(
                discard, () -> Files.readString(root().resolve("shared.txt")).equals("one\nchanged\nthree\n"));
        assertThat(root().resolve("scratch.txt"))
                .as("discard never touches an untracked file")
                .hasContent("untracked\n");
        Files.delete(root().resolve("scratch.txt"));

        ObjectNode push = network("push", observed());
        push.put("remote", "origin")
                .put("reference", "refs/heads/main")
                .put("sourceCommit", head())
                .put("expectedRemoteCommit", remoteHead());
        assertRejectedThenApproved(push, () -> remoteHead().equals(head()));

        theirs.pull().call();
        Files.writeString(theirPath("shared.txt"), "one\nchanged\nthree\ntheirs\n");
        theirs.add().addFilepattern("shared.txt").call();
        RevCommit theirCommit = theirs.commit().setMessage("theirs").call();
        theirs.push().call();
        ObjectNode fetch = network("fetch", observed());
        fetch.put("remote", "origin").put("reference", "refs/heads/main");
        assertRejectedThenApproved(
                fetch,
                () -> mine.getRepository().resolve("refs/remotes/origin/main").equals(theirCommit.getId()));

        ObjectNode pull = network("pull", observed());
        pull.put("remote", "origin")
                .put("reference", "refs/heads/main")
                .put("sourceCommit", head())
                .put("pullMode", "ff_only")
                .put("expectedRemoteCommit", theirCommit.name());
        JsonNode pulled = assertRejectedThenApproved(pull, () -> head().equals(theirCommit.name()));
        assertThat(pulled.path("effectState").asString()).isEqualTo("complete");
        assertThat(root().resolve("shared.txt")).hasContent("one\nchanged\nthree\ntheirs\n");
    }

    @Test
    void aConflictingRebasePullFailsPartiallyAndReportsTheWorktreeState() throws Exception {
        Files.writeString(theirPath("shared.txt"), "one\nTHEIRS\nthree\n");
        theirs.add().addFilepattern("shared.txt").call();
        theirs.commit().setMessage("theirs").call();
        theirs.push().call();
        write("shared.txt", "one\nMINE\nthree\n");
        mine.add().addFilepattern("shared.txt").call();
        mine.commit().setMessage("mine").call();
        mine.fetch().call();
        broker.yolo.set(true);

        ObjectNode pull = network("pull", observed());
        pull.put("remote", "origin")
                .put("reference", "refs/heads/main")
                .put("sourceCommit", head())
                .put("pullMode", "rebase")
                .put(
                        "expectedRemoteCommit",
                        mine.getRepository().resolve("refs/remotes/origin/main").name());
        JsonNode failed = broker.ok(session, "lomi_git_mutate", pull.toString());

        assertThat(failed.path("state").asString()).isEqualTo("failed");
        assertThat(failed.path("effectState").asString()).isEqualTo("partial");
        assertThat(failed.path("errorCode").asString()).isEqualTo("REVISION_CONFLICT");
        assertThat(failed.path("result").path("kind").asString()).isEqualTo("failure");
        assertThat(failed.path("result").path("detail").path("reason").asString())
                .isEqualTo("conflict");
        assertThat(failed.path("result").path("detail").path("conflicts"))
                .extracting(JsonNode::asString)
                .containsExactly("shared.txt");
        JsonNode status = read("lomi_git_status");
        assertThat(status.path("changes").get(0).path("conflicted").asBoolean())
                .as("the worktree is left mid-rebase, as reported")
                .isTrue();

        JsonNode retried = broker.ok(session, "lomi_git_mutate", pull.toString());
        assertThat(retried.path("operationId").asString())
                .as("never replayed")
                .isEqualTo(failed.path("operationId").asString());
    }

    @Test
    void neitherAPullNorADiscardWritesClientConfigurationEvenWithYolo() throws Exception {
        broker.yolo.set(true);
        String before = head();
        Files.createDirectories(theirPath(".vscode"));
        Files.writeString(
                theirPath(".vscode/tasks.json"), "{\"tasks\":[{\"runOptions\":{\"runOn\":\"folderOpen\"}}]}\n");
        theirs.add().addFilepattern(".vscode/tasks.json").call();
        RevCommit planted = theirs.commit().setMessage("planted task").call();
        theirs.push().call();

        mine.fetch().call();
        for (String mode : List.of("ff_only", "rebase")) {
            ObjectNode pull = network("pull", observed());
            pull.put("remote", "origin")
                    .put("reference", "refs/heads/main")
                    .put("sourceCommit", head())
                    .put("pullMode", mode)
                    .put("expectedRemoteCommit", planted.name());
            JsonNode refused = broker.call(session, "lomi_git_mutate", pull.toString());
            assertThat(AttackLinksTests.refusalCode(refused)).as("%s", refused).isEqualTo("SCOPE_DENIED");
            assertThat(refused.toString()).contains(".vscode/tasks.json", "client configuration", "by hand");
        }
        assertThat(head()).isEqualTo(before);
        assertThat(root().resolve(".vscode")).doesNotExist();

        Files.createDirectories(root().resolve(".claude"));
        write(".claude/settings.json", "{}\n");
        mine.add().addFilepattern(".claude/settings.json").call();
        mine.commit().setMessage("the user's own settings").call();
        write(".claude/settings.json", "{\"model\":\"the user's edit\"}\n");
        ObjectNode discard = mutation("discard", observed());
        discard.putArray("paths").add(".claude/settings.json");
        JsonNode discarded = broker.call(session, "lomi_git_mutate", discard.toString());
        assertThat(AttackLinksTests.refusalCode(discarded)).as("%s", discarded).isEqualTo("SCOPE_DENIED");
        assertThat(root().resolve(".claude/settings.json")).hasContent("{\"model\":\"the user's edit\"}");
    }

    @Test
    void aPushIsRejectedWhenTheRemoteMovedWhileTheAdminWasDeciding() throws Exception {
        write("mine.txt", "mine\n");
        mine.add().addFilepattern("mine.txt").call();
        mine.commit().setMessage("mine").call();
        ObjectNode push = network("push", observed());
        push.put("remote", "origin")
                .put("reference", "refs/heads/main")
                .put("sourceCommit", head())
                .put("expectedRemoteCommit", remoteHead());
        JsonNode parked = broker.ok(session, "lomi_git_mutate", push.toString());
        assertThat(parked.path("state").asString()).isEqualTo("awaiting_user");
        assertThat(broker.decisions.list()).singleElement().satisfies(decision -> {
            assertThat(decision.summary()).contains("git push refs/heads/main", "origin");
            assertThat(decision.plan()).contains("\"kind\":\"push\"", "\"expectedHead\":\"" + head() + "\"");
        });

        Files.writeString(theirPath("theirs.txt"), "theirs\n");
        theirs.add().addFilepattern("theirs.txt").call();
        RevCommit moved = theirs.commit().setMessage("theirs").call();
        theirs.push().call();
        broker.decisions.decide(new OperationId(parked.path("operationId").asString()), true);

        JsonNode failed = broker.settled(session, parked.path("operationId").asString(), Duration.ofSeconds(30));
        assertThat(failed.path("state").asString()).isEqualTo("failed");
        assertThat(failed.path("effectState").asString()).isEqualTo("none");
        assertThat(failed.path("errorCode").asString()).isEqualTo("REVISION_CONFLICT");
        assertThat(failed.path("result").path("detail").path("reason").asString())
                .isEqualTo("remote_moved");
        assertThat(remoteHead()).isEqualTo(moved.name());
    }

    @Test
    void aRetryWithTheSameKeyRunsOnceAndAChangedPlanUnderItIsAConflict() throws Exception {
        write("shared.txt", "one\nretried\nthree\n");
        mine.add().addFilepattern("shared.txt").call();
        broker.yolo.set(true);
        ObjectNode commit = mutation("commit", observed());
        commit.put("message", "once").putArray("paths").add("shared.txt");

        JsonNode first = broker.ok(session, "lomi_git_mutate", commit.toString());
        assertThat(first.path("state").asString()).isEqualTo("succeeded");
        JsonNode again = broker.ok(session, "lomi_git_mutate", commit.toString());
        assertThat(again.path("operationId").asString())
                .isEqualTo(first.path("operationId").asString());
        assertThat(again.path("state").asString()).isEqualTo("succeeded");
        assertThat(commitCount()).as("seed + one commit").isEqualTo(2);

        ObjectNode changed = commit.deepCopy();
        changed.put("message", "twice");
        assertThat(broker.refused(session, "lomi_git_mutate", changed.toString()))
                .isEqualTo(ErrorCode.IDEMPOTENCY_CONFLICT);
        assertThat(commitCount()).isEqualTo(2);

        JsonNode cancelled = broker.ok(
                session,
                "lomi_operation_cancel",
                json("operationId", first.path("operationId").asString()));
        assertThat(cancelled.path("cancel").asString())
                .as("the commit happened; a late cancel changes nothing")
                .isEqualTo("unchanged");
        assertThat(broker.ok(
                                session,
                                "lomi_operation_get",
                                json("operationId", first.path("operationId").asString()))
                        .path("state")
                        .asString())
                .isEqualTo("succeeded");
    }

    @Test
    void aStaleObservationIsRefusedWithoutAReceiptAndAWaitingPlanCanBeCancelled() throws Exception {
        String observed = observed();
        write("shared.txt", "moved on\n");
        ObjectNode stage = mutation("stage", observed);
        stage.putArray("paths").add("shared.txt");
        assertThat(broker.refused(session, "lomi_git_mutate", stage.toString())).isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertNoReceipt("lomi_git_mutate", stage.path("requestKey").asString());

        stage = mutation("stage", observed());
        stage.putArray("paths").add("shared.txt");
        JsonNode parked = broker.ok(session, "lomi_git_mutate", stage.toString());
        JsonNode cancelled = broker.ok(
                session,
                "lomi_operation_cancel",
                json("operationId", parked.path("operationId").asString()));
        assertThat(cancelled.path("cancel").asString()).isEqualTo("cancelled");
        assertThat(broker.decisions.list()).as("the admin no longer sees it").isEmpty();
        assertThat(staged()).isEmpty();
    }

    @Test
    void eachMutationNeedsItsOwnScopeAndExactlyItsOwnFields() throws Exception {
        Session writer = broker.session(new Grant(
                true, Set.of(), Set.of("workspace.read", "files.read", "git.read", "git.write", "git.execute")));
        RetryEpochId writerEpoch = broker.connect(writer, project);
        ObjectNode push = network("push", observed());
        push.put("remote", "origin")
                .put("reference", "refs/heads/main")
                .put("sourceCommit", head())
                .put("retryEpoch", writerEpoch.value());
        assertThat(broker.refused(writer, "lomi_git_mutate", push.toString())).isEqualTo(ErrorCode.SCOPE_DENIED);
        ObjectNode discard = mutation("discard", observed());
        discard.putArray("paths").add("shared.txt");
        discard.put("retryEpoch", writerEpoch.value());
        assertThat(broker.refused(writer, "lomi_git_mutate", discard.toString()))
                .isEqualTo(ErrorCode.SCOPE_DENIED);
        Session reader = broker.session(new Grant(true, Set.of(), Set.of("workspace.read", "files.read", "git.read")));
        assertThat(broker.refused(
                        reader, "lomi_git_mutate", onOriginMain("fetch").toString()))
                .isEqualTo(ErrorCode.SCOPE_DENIED);

        ObjectNode mixed = mutation("commit", observed());
        mixed.put("message", "m").put("remote", "origin").putArray("paths").add("shared.txt");
        assertThat(broker.refused(session, "lomi_git_mutate", mixed.toString())).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        ObjectNode noPaths = mutation("commit", observed());
        noPaths.put("message", "m").putArray("paths");
        assertThat(broker.refused(session, "lomi_git_mutate", noPaths.toString()))
                .as("a commit names its staged set")
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        ObjectNode fetchWithPaths = onOriginMain("fetch");
        fetchWithPaths.putArray("paths").add("shared.txt");
        assertThat(broker.refused(session, "lomi_git_mutate", fetchWithPaths.toString()))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(broker.refused(
                        session,
                        "lomi_git_mutate",
                        network("fetch", observed()).put("remote", "origin").toString()))
                .as("a fetch names its reference")
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(broker.refused(
                        session,
                        "lomi_git_mutate",
                        network("fetch", observed())
                                .put("remote", "nowhere")
                                .put("reference", "refs/heads/main")
                                .toString()))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        ObjectNode nothing = mutation("commit", observed()).put("message", "nothing staged");
        nothing.putArray("paths").add("shared.txt");
        assertThat(broker.refused(session, "lomi_git_mutate", nothing.toString()))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        ObjectNode secret = mutation("stage", observed());
        secret.putArray("paths").add(".env");
        write(".env", "TOKEN=x\n");
        secret.put("expectedObservationRevision", observed());
        assertThat(broker.refused(session, "lomi_git_mutate", secret.toString()))
                .isEqualTo(ErrorCode.SCOPE_DENIED);
        assertThat(broker.decisions.list()).isEmpty();
    }

    // --- helpers ---

    private JsonNode assertRejectedThenApproved(ObjectNode request, Check effect) throws Exception {
        JsonNode parked = broker.ok(session, "lomi_git_mutate", request.toString());
        assertThat(parked.path("state").asString()).as(request.toString()).isEqualTo("awaiting_user");
        assertThat(broker.decisions.list())
                .singleElement()
                .satisfies(d -> assertThat(d.tool()).isEqualTo("lomi_git_mutate"));
        broker.decisions.decide(new OperationId(parked.path("operationId").asString()), false);
        JsonNode rejected = broker.settled(session, parked.path("operationId").asString(), Duration.ofSeconds(10));
        assertThat(rejected.path("state").asString()).isEqualTo("failed");
        assertThat(rejected.path("errorCode").asString()).isEqualTo("SCOPE_DENIED");
        assertThat(effect.holds())
                .as("nothing happened on rejection: %s", request)
                .isFalse();

        ObjectNode fresh = request.deepCopy();
        fresh.put("requestKey", "git-" + keys.incrementAndGet());
        JsonNode done = approve(fresh);
        assertThat(effect.holds()).as("the approved plan ran: %s", request).isTrue();
        return done;
    }

    private JsonNode approve(ObjectNode request) {
        JsonNode parked = broker.ok(session, "lomi_git_mutate", request.toString());
        assertThat(parked.path("state").asString()).isEqualTo("awaiting_user");
        broker.decisions.decide(new OperationId(parked.path("operationId").asString()), true);
        JsonNode done = broker.settled(session, parked.path("operationId").asString(), Duration.ofSeconds(30));
        assertThat(done.path("state").asString()).as("%s -> %s", request, done).isEqualTo("succeeded");
        assertThat(done.path("effectState").asString()).isEqualTo("complete");
        assertThat(done.path("result").path("kind").asString()).isEqualTo("git_mutated");
        return done;
    }

    @FunctionalInterface
    private interface Check {
        boolean holds() throws Exception;
    }

    /** A mutation naming the observation it is based on (this host's optional field); the test adds paths and the operation's fields. */
    private ObjectNode mutation(String operation, String observed) {
        return mutateRequest(operation, "git-").put("expectedObservationRevision", observed);
    }

    /** A network mutation: paths [] as the reference requires. */
    private ObjectNode network(String operation, String observed) {
        ObjectNode node = mutation(operation, observed);
        node.putArray("paths");
        return node;
    }

    /** A lomi_git_open of the view (name/value pairs) in the project's workspace (a durable call that must succeed). */
    private JsonNode openView(Object... view) {
        return broker.ok(session, "lomi_git_open", openArguments(view));
    }

    /** As {@link #openView}, for an open that must be refused. */
    private ErrorCode openRefused(Object... view) {
        return broker.refused(session, "lomi_git_open", openArguments(view));
    }

    private String openArguments(Object... view) {
        return layoutOp(json("workspaceId", workspace(), "view", BrokerCallsFixture.JSON.readTree(json(view))));
    }

    /** A network mutation on {@code origin}'s {@code refs/heads/main} at the current observation. */
    private ObjectNode onOriginMain(String operation) {
        return network(operation, observed()).put("remote", "origin").put("reference", "refs/heads/main");
    }

    private String layoutOp(String arguments) {
        return withOp(arguments, broker.revision(), "open-" + keys.incrementAndGet());
    }

    private String withOp(String arguments, String revision, String key) {
        ObjectNode node = (ObjectNode) BrokerCallsFixture.JSON.readTree(arguments);
        node.put("expectedRevision", revision).put("retryEpoch", epoch.value()).put("requestKey", key);
        return node.toString();
    }

    private void assertNoReceipt(String tool, String key) {
        assertThat(broker.refused(
                        session,
                        "lomi_operation_get",
                        json("retryEpoch", epoch.value(), "requestKey", key, "tool", tool)))
                .as("no receipt for %s", key)
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
    }

    private String observed() {
        return read("lomi_git_status").path("observationRevision").asString();
    }

    private Set<String> staged() throws Exception {
        var status = mine.status().call();
        Set<String> staged = new java.util.TreeSet<>(status.getAdded());
        staged.addAll(status.getChanged());
        staged.addAll(status.getRemoved());
        return staged;
    }

    private String head() throws IOException {
        return GitRemote.head(mine);
    }

    private String remoteHead() throws IOException {
        return remote.head("refs/heads/main");
    }

    private int commitCount() throws Exception {
        int count = 0;
        for (RevCommit ignored : mine.log().call()) {
            count++;
        }
        return count;
    }

    /** A git read (a call that must succeed) in the project's workspace, with these name/value pairs. */
    private JsonNode read(String tool, Object... pairs) {
        return broker.ok(session, tool, inWorkspace(pairs));
    }

    /** As {@link #read}, for a read that must be refused. */
    private ErrorCode readRefused(String tool, Object... pairs) {
        return broker.refused(session, tool, inWorkspace(pairs));
    }

    private String workspace() {
        return workspaceOf(project);
    }

    private Path theirPath(String name) {
        return temp.resolve("theirs").resolve(name);
    }
}
