package dev.lomicontrol.git;

import static dev.lomicontrol.testing.GitRemote.lines;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every read against one real repository holding staged, unstaged, untracked, renamed, deleted,
 * binary and secret changes.
 */
class GitReadTests {

    @TempDir
    Path dir;

    GitFixture repo;
    RevCommit first;
    RevCommit second;
    GitRepository git;

    @BeforeEach
    void buildRepository() throws Exception {
        repo = GitFixture.init(dir.resolve("project"));
        repo.write("a.txt", "alpha\n")
                .write("b.txt", "old line\n")
                .write("d.txt", "doomed\n")
                .write("old.txt", lines("moved"));
        repo.add(".");
        first = repo.commit("first commit");
        repo.write("b.txt", "old line\nsecond line\n")
                .write("keys/server.pem", "PRIVATE\n")
                .add("b.txt", "keys/server.pem");
        second = repo.commit("second commit\n\nwith a body");
        // staged modification, unstaged modification, untracked, staged rename, binary, deletion, secrets
        repo.write("a.txt", "alpha\nstaged\n").add("a.txt");
        repo.write("b.txt", "new line\n");
        repo.write("c.txt", "untracked\n");
        repo.git.rm().addFilepattern("old.txt").call();
        repo.write("new.txt", lines("moved")).add("new.txt");
        repo.writeBytes("img.bin", new byte[] {0, 1, 2, 0, (byte) 0xff}).add("img.bin");
        Files.delete(repo.root.resolve("d.txt"));
        repo.write(".env", "TOKEN=1\n").write("keys/server.pem", "CHANGED\n");
        git = GitRepository.open(repo.root);
    }

    @AfterEach
    void close() {
        repo.close();
    }

    @Test
    void statusReportsEveryKindOfChangeSortedWithSecretsOmitted() {
        GitStatus status = git.status();

        assertThat(status.branch()).isEqualTo("main");
        assertThat(status.head()).isEqualTo(second.name());
        assertThat(status.filtered()).isTrue();
        assertThat(status.changes())
                .containsExactly(
                        new GitChange("a.txt", null, "modified", "none", false, false),
                        new GitChange("b.txt", null, "none", "modified", false, false),
                        new GitChange("c.txt", null, "none", "untracked", false, false),
                        new GitChange("d.txt", null, "none", "deleted", false, false),
                        new GitChange("img.bin", null, "added", "none", true, false),
                        new GitChange("new.txt", "old.txt", "renamed", "none", false, false));
    }

    @Test
    void observationRevisionIsStableUntilTheWorktreeChanges() throws Exception {
        String before = git.status().observationRevision();
        assertThat(git.status().observationRevision()).isEqualTo(before);

        repo.write("b.txt", "newer line\n");

        assertThat(git.status().observationRevision()).isNotEqualTo(before);
    }

    @Test
    void worktreeAndStagedDiffsShowTheLiteralPatch() {
        String revision = git.status().observationRevision();

        GitDiff worktree = git.diff("b.txt", "worktree", Optional.empty(), revision);
        GitDiff staged = git.diff("a.txt", "staged", Optional.empty(), revision);

        assertThat(worktree.text())
                .contains("-old line", "-second line", "+new line")
                .doesNotContain("alpha");
        assertThat(worktree.binary()).isFalse();
        assertThat(worktree.observationRevision()).isEqualTo(revision);
        assertThat(staged.text()).contains("+staged").doesNotContain("new line");
    }

    @Test
    void diffsPageInUtf16UnitsWithoutSplittingSurrogatePairs() throws Exception {
        repo.write("b.txt", "\uD83D\uDE00".repeat(50) + "\n");
        GitDiff diff =
                git.diff("b.txt", "worktree", Optional.empty(), git.status().observationRevision());
        int emoji = diff.text().indexOf('\uD83D');

        var first = diff.page(0, emoji + 3);
        var rest = diff.page(first.nextUtf16(), Integer.MAX_VALUE);

        assertThat(first.nextUtf16()).isEqualTo(emoji + 2);
        assertThat(first.truncated()).isTrue();
        assertThat(first.text() + rest.text()).isEqualTo(diff.text());
        assertThat(rest.truncated()).isFalse();
    }

    @Test
    void binaryChangesAreFlaggedNotPrinted() {
        GitDiff diff =
                git.diff("img.bin", "staged", Optional.empty(), git.status().observationRevision());

        assertThat(diff.binary()).isTrue();
        assertThat(diff.text()).contains("Binary files differ");
    }

    @Test
    void aStaleObservationIsRefused() throws Exception {
        String revision = git.status().observationRevision();
        repo.write("c.txt", "changed again\n");

        assertThatThrownBy(() -> git.diff("b.txt", "worktree", Optional.empty(), revision))
                .isInstanceOfSatisfying(
                        LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.REVISION_CONFLICT));
    }

    @Test
    void diffRefusesSecretUnknownAndMalformedPaths() {
        String revision = git.status().observationRevision();

        assertCode(() -> git.diff("keys/server.pem", "worktree", Optional.empty(), revision), ErrorCode.SCOPE_DENIED);
        assertCode(() -> git.diff(".git/config", "worktree", Optional.empty(), revision), ErrorCode.SCOPE_DENIED);
        assertCode(() -> git.diff("nope.txt", "worktree", Optional.empty(), revision), ErrorCode.TARGET_NOT_FOUND);
        assertCode(() -> git.diff("../outside", "worktree", Optional.empty(), revision), ErrorCode.INVALID_ARGUMENT);
        assertCode(() -> git.diff("b.txt", "sideways", Optional.empty(), revision), ErrorCode.INVALID_ARGUMENT);
        assertCode(() -> git.diff("b.txt", "worktree", Optional.empty(), ""), ErrorCode.INVALID_ARGUMENT);
        assertCode(() -> git.diff("b.txt", "commit", Optional.empty(), ""), ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void commitDiffsNeedNoObservation() {
        GitDiff diff = git.diff("b.txt", "commit", Optional.of(second.name()), "");

        assertThat(diff.text()).contains("+second line");
    }

    @Test
    void historyPagesNewestFirstAndFiltersByPath() {
        List<GitCommitInfo> all = git.history(Optional.empty(), 0, 10);
        List<GitCommitInfo> page = git.history(Optional.empty(), 1, 1);
        List<GitCommitInfo> touchingA = git.history(Optional.of("a.txt"), 0, 10);

        assertThat(all).extracting(GitCommitInfo::id).containsExactly(second.name(), first.name());
        assertThat(all.get(0).summary()).isEqualTo("second commit");
        assertThat(all.get(0).parents()).containsExactly(first.name());
        assertThat(all.get(0).author()).isEqualTo("Test Author");
        assertThat(all.get(0).email()).isEqualTo("author@example.com");
        assertThat(page).extracting(GitCommitInfo::id).containsExactly(first.name());
        assertThat(touchingA).extracting(GitCommitInfo::id).containsExactly(first.name());
        assertCode(() -> git.history(Optional.empty(), 0, 101), ErrorCode.INVALID_ARGUMENT);
        assertCode(() -> git.history(Optional.of(".env"), 0, 10), ErrorCode.SCOPE_DENIED);
    }

    @Test
    void commitDetailCarriesTheMessageAndHidesSecretFiles() {
        GitCommitDetail detail = git.commit(second.name());

        assertThat(detail.info().id()).isEqualTo(second.name());
        assertThat(detail.message()).isEqualTo("second commit\n\nwith a body");
        assertThat(detail.files()).containsExactly(new GitFileChange("b.txt", null, "modified"));
    }

    @Test
    void commitDetailPairsRenames() throws Exception {
        RevCommit renamed = repo.commit("rename");

        assertThat(GitRepository.open(repo.root).commit(renamed.name()).files())
                .contains(
                        new GitFileChange("new.txt", "old.txt", "renamed"),
                        new GitFileChange("img.bin", null, "added"));
    }

    @Test
    void unknownAndAbbreviatedCommitsAreRefused() {
        assertCode(() -> git.commit("0".repeat(40)), ErrorCode.TARGET_NOT_FOUND);
        assertCode(() -> git.commit(second.name().substring(0, 12)), ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void remotesComeBackWithCredentialsRedacted() throws Exception {
        var config = repo.git.getRepository().getConfig();
        config.setString("remote", "origin", "url", "https://user:token@example.com/r.git");
        config.setString("remote", "origin", "pushurl", "https://ghp_secret@example.com/push.git");
        config.setString("remote", "mirror", "url", "git@example.com:team/r.git");
        config.save();

        assertThat(git.remotes())
                .containsExactly(
                        new GitRemote(
                                "mirror", List.of("git@example.com:team/r.git"), List.of("git@example.com:team/r.git")),
                        new GitRemote(
                                "origin",
                                List.of("https://***@example.com/r.git"),
                                List.of("https://***@example.com/push.git")));
    }

    @Test
    void aDiffLargerThanSixteenMebibytesIsRefusedInsteadOfHeldInMemory() throws Exception {
        String line = "x".repeat(1023) + "\n";
        repo.write("a.txt", line.repeat(17 * 1024));
        String observed = git.status().observationRevision();

        assertCode(() -> git.diff("a.txt", "worktree", Optional.empty(), observed), ErrorCode.PAYLOAD_TOO_LARGE);
        repo.write("a.txt", line.repeat(15 * 1024));
        assertThat(git.diff("a.txt", "worktree", Optional.empty(), git.status().observationRevision())
                        .text())
                .hasSizeGreaterThan(15 << 20);
    }

    @Test
    void aFolderWithoutGitIsNotARepository() throws Exception {
        Path plain = Files.createDirectories(dir.resolve("plain"));

        assertCode(() -> GitRepository.open(plain), ErrorCode.TARGET_NOT_FOUND);
    }

    static void assertCode(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, ErrorCode code) {
        assertThatThrownBy(call)
                .isInstanceOfSatisfying(
                        LomiException.class, e -> assertThat(e.code()).isEqualTo(code));
    }
}
