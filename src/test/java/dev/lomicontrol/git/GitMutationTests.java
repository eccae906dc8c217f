package dev.lomicontrol.git;

import static dev.lomicontrol.git.GitReadTests.assertCode;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.testing.GitRemote;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Plans and their execution against a real clone of a local bare remote, with a second clone racing it. */
class GitMutationTests {

    @TempDir
    Path dir;

    GitRemote remote;
    GitFixture mine;
    GitFixture theirs;
    GitRepository git;

    @BeforeEach
    void cloneTwice() throws Exception {
        remote = GitRemote.seeded(dir);
        mine = GitFixture.cloneOf(remote, dir.resolve("mine"));
        theirs = GitFixture.cloneOf(remote, dir.resolve("theirs"));
        git = GitRepository.open(mine.root);
    }

    @AfterEach
    void close() {
        if (mine != null) {
            mine.close();
        }
        if (theirs != null) {
            theirs.close();
        }
    }

    @Test
    void stageThenCommitRunExactlyThePlannedChange() throws Exception {
        mine.write("b.txt", "new\n");
        Files.delete(mine.root.resolve("shared.txt"));

        GitPlan stage = git.plan(new GitAction.Stage(List.of("shared.txt", "b.txt")));
        assertThat(stage.paths()).containsExactly("b.txt", "shared.txt");
        assertThat(git.execute(stage).state()).isEqualTo("succeeded");

        GitPlan commit = git.plan(new GitAction.Commit("add b"));
        assertThat(commit.reference()).isEqualTo("refs/heads/main");
        assertThat(commit.paths()).containsExactly("b.txt", "shared.txt");
        assertThat(commit.toJson())
                .startsWith("{\"kind\":\"commit\",\"paths\":[\"b.txt\",\"shared.txt\"],\"message\":\"add b\"");
        GitOutcome outcome = git.execute(commit);

        assertThat(outcome.state()).isEqualTo("succeeded");
        assertThat(outcome.effect()).isEqualTo("complete");
        assertThat(git.history(Optional.empty(), 0, 1).get(0).id()).isEqualTo(outcome.newHead());
        assertThat(git.status().changes()).isEmpty();
        assertThat(git.commit(outcome.newHead()).files())
                .containsExactly(
                        new GitFileChange("b.txt", null, "added"), new GitFileChange("shared.txt", null, "deleted"));
    }

    @Test
    void aPlanMadeBeforeTheWorktreeChangedIsRefused() throws Exception {
        mine.write("shared.txt", "edited\n");
        GitPlan stage = git.plan(new GitAction.Stage(List.of("shared.txt")));
        mine.write("shared.txt", "edited again\n");

        assertCode(() -> git.execute(stage), ErrorCode.REVISION_CONFLICT);
    }

    @Test
    void plansRefuseSecretUnknownAndEmptyInput() throws Exception {
        mine.write(".env", "TOKEN=1\n");

        assertCode(() -> git.plan(new GitAction.Stage(List.of(".env"))), ErrorCode.SCOPE_DENIED);
        assertCode(() -> git.plan(new GitAction.Stage(List.of("missing.txt"))), ErrorCode.TARGET_NOT_FOUND);
        assertCode(() -> git.plan(new GitAction.Stage(List.of())), ErrorCode.INVALID_ARGUMENT);
        mine.write("keys/server.pem", "PRIVATE\n");
        assertCode(() -> git.plan(new GitAction.Stage(List.of("keys"))), ErrorCode.INVALID_ARGUMENT);
        assertCode(() -> git.plan(new GitAction.Commit("  ")), ErrorCode.INVALID_ARGUMENT);
        assertCode(() -> git.plan(new GitAction.Commit("nothing staged")), ErrorCode.INVALID_ARGUMENT);
        assertCode(() -> git.plan(new GitAction.Fetch("upstream")), ErrorCode.TARGET_NOT_FOUND);
        assertCode(() -> git.plan(new GitAction.Pull("origin", "merge")), ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void unstageAndDiscardRestoreThePreviousState() throws Exception {
        mine.write("shared.txt", "edited\n").add("shared.txt");
        mine.write("scratch.txt", "temp\n");

        git.execute(git.plan(new GitAction.Unstage(List.of("shared.txt"))));
        assertThat(git.status().changes()).extracting(GitChange::staged).containsOnly("none");

        assertCode(
                () -> git.plan(new GitAction.Discard(List.of("shared.txt", "scratch.txt"))),
                ErrorCode.INVALID_ARGUMENT);
        GitOutcome discarded = git.execute(git.plan(new GitAction.Discard(List.of("shared.txt"))));

        assertThat(discarded.state()).isEqualTo("succeeded");
        assertThat(mine.read("shared.txt")).isEqualTo("one\ntwo\nthree\n");
        assertThat(mine.read("scratch.txt"))
                .as("git discard never removes an untracked file")
                .isEqualTo("temp\n");
        assertThat(git.status().changes()).extracting(GitChange::path).containsExactly("scratch.txt");
    }

    @Test
    void pushSendsThePlannedCommitAndFastForwardPullBringsItToTheOtherClone() throws Exception {
        RevCommit local = mine.write("shared.txt", "one\ntwo\nthree\nfour\n")
                .add("shared.txt")
                .commit("four");

        GitPlan push = git.plan(new GitAction.Push(
                "origin", "refs/heads/main", Optional.of(local.getParent(0).name())));
        assertThat(push.expectedHead()).isEqualTo(local.name());
        assertThat(push.expectedRemoteHead()).isEqualTo(local.getParent(0).name());
        assertThat(push.remoteUrl()).isEqualTo(remote.uri());
        assertThat(git.execute(push).state()).isEqualTo("succeeded");

        GitRepository other = GitRepository.open(theirs.root);
        other.execute(other.plan(new GitAction.Fetch("origin")));
        GitOutcome pulled = other.execute(other.plan(new GitAction.Pull("origin", "ff_only")));

        assertThat(pulled.state()).isEqualTo("succeeded");
        assertThat(pulled.newHead()).isEqualTo(local.name());
        assertThat(theirs.read("shared.txt")).endsWith("four\n");
    }

    @Test
    void aPushIsRejectedWhenTheRemoteMovedAfterPlanning() throws Exception {
        RevCommit local = mine.write("mine.txt", "mine\n").add("mine.txt").commit("mine");
        GitPlan push = git.plan(new GitAction.Push(
                "origin", "refs/heads/main", Optional.of(local.getParent(0).name())));

        theirs.write("theirs.txt", "theirs\n").add("theirs.txt").commit("theirs");
        theirs.git.push().call();
        GitOutcome outcome = git.execute(push);

        assertFailedWithoutEffect(outcome);
        assertThat(outcome.detail()).contains("remote moved");
        assertThat(remote.head("refs/heads/main")).isEqualTo(GitRemote.head(theirs.git));
    }

    @Test
    void aPullWhoseRemoteMovedAfterPlanningDoesNothing() throws Exception {
        theirs.write("shared.txt", "one\ntwo\nthree\nfour\n").add("shared.txt").commit("four");
        theirs.git.push().call();
        mine.git.fetch().call();
        GitPlan pull = git.plan(new GitAction.Pull("origin", "ff_only"));
        theirs.write("shared.txt", "one\ntwo\nthree\nfour\nfive\n")
                .add("shared.txt")
                .commit("five");
        theirs.git.push().call();

        GitOutcome outcome = git.execute(pull);

        assertFailedWithoutEffect(outcome);
        assertThat(outcome.detail()).contains("remote moved");
        assertThat(mine.read("shared.txt")).isEqualTo("one\ntwo\nthree\n");
    }

    @Test
    void aConflictingRebasePullFailsPartiallyAndReportsTheConflicts() throws Exception {
        theirs.write("shared.txt", "one\nTHEIRS\nthree\n").add("shared.txt").commit("theirs");
        theirs.git.push().call();
        mine.write("shared.txt", "one\nMINE\nthree\n").add("shared.txt").commit("mine");
        mine.git.fetch().call();

        GitOutcome ffOnly = git.execute(git.plan(new GitAction.Pull("origin", "ff_only")));
        assertThat(ffOnly.state()).isEqualTo("failed");
        assertThat(ffOnly.effect()).isEqualTo("none");

        GitOutcome rebase = git.execute(git.plan(new GitAction.Pull("origin", "rebase")));

        assertThat(rebase.state()).isEqualTo("failed");
        assertThat(rebase.effect()).isEqualTo("partial");
        assertThat(rebase.conflicts()).containsExactly("shared.txt");
        assertThat(git.status().changes())
                .extracting(GitChange::path, GitChange::conflicted)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("shared.txt", true));
    }

    @Test
    void fetchUpdatesTheRemoteTrackingBranchOnly() throws Exception {
        RevCommit pushed = theirs.write("t.txt", "t\n").add("t.txt").commit("t");
        theirs.git.push().call();
        String head = git.status().head();

        GitOutcome fetched = git.execute(git.plan(new GitAction.Fetch("origin")));

        assertThat(fetched.state()).isEqualTo("succeeded");
        assertThat(fetched.newHead()).isEqualTo(head);
        assertThat(mine.git.getRepository().resolve("refs/remotes/origin/main")).isEqualTo(pushed.getId());
    }

    @Test
    void aFetchOfOneReferenceUpdatesOnlyThatRemoteTrackingBranch() throws Exception {
        RevCommit main = theirs.write("t.txt", "t\n").add("t.txt").commit("t");
        theirs.git.push().call();
        theirs.git.branchCreate().setName("side").call();
        theirs.git.push().add("side").call();
        String head = git.status().head();

        GitPlan plan = git.plan(new GitAction.Fetch("origin", java.util.Optional.of("refs/heads/main")));
        assertThat(plan.reference()).isEqualTo("refs/heads/main");
        GitOutcome fetched = git.execute(plan);

        assertThat(fetched.state()).isEqualTo("succeeded");
        assertThat(fetched.newHead()).isEqualTo(head);
        assertThat(mine.git.getRepository().resolve("refs/remotes/origin/main")).isEqualTo(main.getId());
        assertThat(mine.git.getRepository().resolve("refs/remotes/origin/side"))
                .as("only the named branch")
                .isNull();
        assertCode(
                () -> git.plan(new GitAction.Fetch("origin", java.util.Optional.of("main"))),
                ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void aPullOfAFetchedCommitNeedsItLocally() throws Exception {
        RevCommit four = theirs.write("shared.txt", "one\ntwo\nthree\nfour\n")
                .add("shared.txt")
                .commit("four");
        theirs.git.push().call();
        java.util.Optional<String> ref = java.util.Optional.of("refs/heads/main");
        assertCode(
                () -> git.plan(new GitAction.Pull("origin", "ff_only", ref, java.util.Optional.of(four.name()))),
                ErrorCode.TARGET_NOT_FOUND);

        git.execute(git.plan(new GitAction.Fetch("origin", ref)));
        GitPlan pull = git.plan(new GitAction.Pull("origin", "ff_only", ref, java.util.Optional.of(four.name())));
        assertThat(pull.expectedRemoteHead()).isEqualTo(four.name());
        assertThat(git.execute(pull).newHead()).isEqualTo(four.name());
    }

    @Test
    void anUnreachableRemoteIsAFailedFetchWithNoEffect() throws Exception {
        var config = mine.git.getRepository().getConfig();
        config.setString(
                "remote",
                "gone",
                "url",
                dir.resolve("no-such-remote.git").toUri().toString());
        config.save();

        GitOutcome outcome = git.execute(git.plan(new GitAction.Fetch("gone")));

        assertFailedWithoutEffect(outcome);
        assertThat(outcome.detail()).contains("could not be reached");
    }

    @Test
    void aFastForwardPullThatWouldOverwriteLocalEditsFailsAndNamesThem() throws Exception {
        theirs.write("shared.txt", "one\ntwo\nthree\nfour\n").add("shared.txt").commit("four");
        theirs.git.push().call();
        mine.write("shared.txt", "local edit\n");
        mine.git.fetch().call();

        GitOutcome outcome = git.execute(git.plan(new GitAction.Pull("origin", "ff_only")));

        assertFailedWithoutEffect(outcome);
        assertThat(outcome.conflicts()).containsExactly("shared.txt");
        assertThat(mine.read("shared.txt")).isEqualTo("local edit\n");
    }

    @Test
    void aForgedPlanNamingASecretPathIsRefusedAtExecution() throws Exception {
        mine.write(".env", "TOKEN=1\n");
        GitPlan honest = git.plan(new GitAction.Stage(List.of("shared.txt")));
        GitPlan forged = new GitPlan(
                "stage", List.of(".env"), "", "", "", honest.expectedHead(), "", honest.observationRevision());

        assertCode(() -> git.execute(forged), ErrorCode.SCOPE_DENIED);
        assertThat(mine.git.status().call().getAdded()).isEmpty();
    }

    @Test
    void aForgedDiscardPlanNamingAnUntrackedFileRemovesNothing() throws Exception {
        mine.write("shared.txt", "edited\n");
        mine.write("scratch.txt", "keep\n");
        GitPlan honest = git.plan(new GitAction.Discard(List.of("shared.txt")));
        GitPlan forged = new GitPlan(
                "discard",
                List.of("shared.txt", "scratch.txt"),
                "",
                "",
                "",
                honest.expectedHead(),
                "",
                honest.observationRevision());

        assertCode(() -> git.execute(forged), ErrorCode.INVALID_ARGUMENT);
        assertThat(mine.read("scratch.txt")).isEqualTo("keep\n");
        assertThat(mine.read("shared.txt")).as("nothing was restored either").isEqualTo("edited\n");
    }

    @Test
    void transportErrorsNeverEchoCredentials() throws Exception {
        var config = mine.git.getRepository().getConfig();
        config.setString("remote", "web", "url", "http://user:s3cret-token@127.0.0.1:1/r.git");
        config.save();

        GitOutcome outcome = git.execute(git.plan(new GitAction.Fetch("web")));

        assertThat(outcome.state()).isEqualTo("failed");
        assertThat(outcome.detail()).doesNotContain("s3cret-token").doesNotContain("user:");
    }

    private static void assertFailedWithoutEffect(GitOutcome outcome) {
        assertThat(outcome.state()).isEqualTo("failed");
        assertThat(outcome.effect()).isEqualTo("none");
    }
}
