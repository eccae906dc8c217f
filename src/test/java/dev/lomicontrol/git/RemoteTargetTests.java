package dev.lomicontrol.git;

import static dev.lomicontrol.git.GitReadTests.assertCode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.testing.GitRemote;
import dev.lomicontrol.testing.SilentRemote;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.StoredConfig;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * N7 (security review 2026-12-06): a plan names the URL a fetch, pull or push really goes to
 * ({@code pushurl}, {@code insteadOf}, {@code pushInsteadOf} applied, credentials redacted), runs only
 * while the remote still resolves to it, plans without touching the network, and a remote that
 * accepts and then stays silent ends the plan at the transport timeout.
 */
class RemoteTargetTests {

    @TempDir
    Path dir;

    GitRemote remote;
    Path bare;
    Path elsewhere;
    GitFixture mine;
    GitRepository git;

    @BeforeEach
    void cloneOne() throws Exception {
        remote = GitRemote.seeded(dir, "one\n");
        bare = remote.bare();
        elsewhere = GitRemote.empty(dir.resolve("elsewhere.git"));
        mine = GitFixture.cloneOf(remote, dir.resolve("mine"));
        git = GitRepository.open(mine.root);
    }

    @AfterEach
    void close() {
        mine.close();
    }

    @Test
    void aPushurlIsThePlansUrlAndThePushGoesThereOnly() throws Exception {
        config("remote", "origin", "pushurl", elsewhere.toUri().toString());
        RevCommit local = mine.write("mine.txt", "mine\n").add("mine.txt").commit("mine");

        GitPlan push = git.plan(new GitAction.Push("origin", "refs/heads/feature", Optional.empty()));
        assertThat(push.remoteUrl()).isEqualTo(elsewhere.toUri().toString());
        assertThat(push.toJson()).contains("\"remoteUrl\":\"" + elsewhere.toUri() + "\"");
        GitPlan fetch = git.plan(new GitAction.Fetch("origin"));
        assertThat(fetch.remoteUrl())
                .as("a fetch still reads url")
                .isEqualTo(bare.toUri().toString());

        assertThat(git.execute(push).state()).isEqualTo("succeeded");
        assertThat(head(elsewhere, "refs/heads/feature")).isEqualTo(local.name());
        assertThat(head(bare, "refs/heads/feature"))
                .as("origin's url got nothing")
                .isNull();
    }

    @Test
    void insteadOfAndPushInsteadOfRewriteThePlansUrlWithCredentialsRedacted() throws Exception {
        config("remote", "origin", "url", "https://github.example/me/repo.git");
        config("url", "https://builder:s3cret-token@attacker.example/", "insteadOf", "https://github.example/");
        assertThat(git.plan(new GitAction.Fetch("origin")).remoteUrl())
                .isEqualTo("https://***@attacker.example/me/repo.git");

        config("url", "ssh://push.attacker.example/", "pushInsteadOf", "https://github.example/");
        mine.write("mine.txt", "mine\n").add("mine.txt").commit("mine");
        GitPlan push = git.plan(new GitAction.Push("origin", "refs/heads/main", Optional.empty()));
        assertThat(push.remoteUrl()).isEqualTo("ssh://push.attacker.example/me/repo.git");
        assertThat(push.toJson()).doesNotContain("s3cret-token").doesNotContain("builder");
    }

    @Test
    void aRemoteRepointedAfterApprovalIsRefusedAndNothingIsPushed() throws Exception {
        RevCommit local = mine.write("mine.txt", "mine\n").add("mine.txt").commit("mine");
        GitPlan push = git.plan(new GitAction.Push(
                "origin", "refs/heads/main", Optional.of(local.getParent(0).name())));

        config("remote", "origin", "pushurl", elsewhere.toUri().toString());

        assertCode(() -> git.execute(push), ErrorCode.REVISION_CONFLICT);
        assertThat(head(elsewhere, "refs/heads/main")).isNull();
        assertThat(head(bare, "refs/heads/main")).isEqualTo(local.getParent(0).name());
    }

    @Test
    void aSilentRemoteIsNeverContactedByPlanningAndEndsAPushOrFetchAtTheTimeout() throws Exception {
        try (SilentRemote silent = new SilentRemote()) {
            config("remote", "origin", "url", silent.httpUrl());
            mine.write("mine.txt", "mine\n").add("mine.txt").commit("mine");
            GitRepository quick = git.withTransportTimeout(2);

            GitPlan push = quick.plan(new GitAction.Push("origin", "refs/heads/main", Optional.empty()));
            GitPlan fetch = quick.plan(new GitAction.Fetch("origin", Optional.of("refs/heads/main")));
            assertThat(push.remoteUrl()).isEqualTo(silent.httpUrl());
            assertThat(silent.connections()).as("planning contacts no remote").isZero();

            for (GitPlan plan : new GitPlan[] {push, fetch}) {
                long started = System.nanoTime();
                GitOutcome outcome = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> quick.execute(plan));
                assertThat(outcome.state()).isEqualTo("failed");
                assertThat(outcome.effect()).isEqualTo("none");
                assertThat(outcome.reason()).isEqualTo("unreachable");
                assertThat(outcome.detail()).contains("no answer within 2 s");
                assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(15));
            }
            assertThat(silent.connections()).isEqualTo(2);
        }
    }

    @Test
    void aGitProtocolRemoteIsRefusedBeforeAnyConnectionBecauseItsReadsCannotTimeOut() throws Exception {
        try (SilentRemote silent = new SilentRemote()) {
            config("remote", "origin", "url", silent.gitUrl());
            mine.write("mine.txt", "mine\n").add("mine.txt").commit("mine");

            assertCode(
                    () -> git.plan(new GitAction.Push("origin", "refs/heads/main", Optional.empty())),
                    ErrorCode.UNSUPPORTED_CAPABILITY);
            assertCode(() -> git.plan(new GitAction.Fetch("origin")), ErrorCode.UNSUPPORTED_CAPABILITY);
            assertThat(silent.connections()).isZero();
        }
    }

    private void config(String section, String subsection, String name, String value) throws Exception {
        StoredConfig config = mine.git.getRepository().getConfig();
        config.setString(section, subsection, name, value);
        config.save();
    }

    private static String head(Path remote, String ref) throws Exception {
        try (Git git = Git.open(remote.toFile())) {
            var id = git.getRepository().resolve(ref);
            return id == null ? null : id.name();
        }
    }
}
