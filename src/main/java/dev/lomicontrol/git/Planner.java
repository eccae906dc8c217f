package dev.lomicontrol.git;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.util.List;
import java.util.TreeSet;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;

/**
 * Validates a {@link GitAction} against the repository as it is now and freezes it into a {@link GitPlan}.
 * Planning happens before the admin's approval and never contacts a remote (security review N7): the
 * remote commit a plan expects is the caller's, or what the last fetch left in the remote-tracking
 * branch, and the approved plan checks it when it runs.
 */
final class Planner {

    static final int MAX_PATHS = 64;

    private Planner() {}

    static GitPlan plan(Repository repo, GitAction action) throws IOException, GitAPIException {
        GitStatus status = StatusReader.read(repo);
        String head = status.head();
        String observed = status.observationRevision();
        if (action instanceof GitAction.Stage s) {
            return local("stage", known(repo, s.paths(), status, false), head, observed);
        } else if (action instanceof GitAction.Unstage u) {
            return local("unstage", known(repo, u.paths(), status, false), head, observed);
        } else if (action instanceof GitAction.Discard d) {
            return local("discard", known(repo, d.paths(), status, true), head, observed);
        } else if (action instanceof GitAction.Commit c) {
            return commit(repo, c, status);
        } else if (action instanceof GitAction.Fetch f) {
            String url = RemoteTarget.shown(repo, f.remote(), false);
            String reference =
                    f.reference().isPresent() ? branchRef(f.reference().get()) : "refs/remotes/" + f.remote() + "/*";
            return new GitPlan("fetch", List.of(), "", f.remote(), reference, head, "", observed, url);
        } else if (action instanceof GitAction.Pull p) {
            return pull(repo, p, status);
        } else if (action instanceof GitAction.Push p) {
            return push(repo, p, observed);
        }
        throw new LomiException(ErrorCode.INVALID_ARGUMENT, "unknown git action");
    }

    private static GitPlan local(String kind, List<String> paths, String head, String observed) {
        return new GitPlan(kind, paths, "", "", "", head, "", observed);
    }

    /**
     * 1..64 valid, non-secret paths that the repository knows; for discard they must have a worktree
     * change and must not be MCP/IDE client configuration (discard writes the worktree).
     */
    private static List<String> known(Repository repo, List<String> paths, GitStatus status, boolean changedOnly)
            throws IOException {
        if (paths.isEmpty() || paths.size() > MAX_PATHS) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "give 1.." + MAX_PATHS + " paths");
        }
        TreeSet<String> sorted = new TreeSet<>();
        for (String path : paths) {
            String p = GitPaths.checked(path);
            if (changedOnly) {
                GitPaths.requireWritable(p);
            }
            GitPaths.requireNoLinkedParent(repo.getWorkTree().toPath(), p);
            GitPaths.requireNotHardLinked(repo.getWorkTree().toPath(), p);
            if (Files.isDirectory(repo.getWorkTree().toPath().resolve(p), LinkOption.NOFOLLOW_LINKS)) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "name files, not directories: " + p);
            }
            boolean present = repo.readDirCache().getEntry(p) != null
                    || Trees.inHead(repo, p)
                    || Files.exists(repo.getWorkTree().toPath().resolve(p), LinkOption.NOFOLLOW_LINKS);
            boolean changed = status.changes().stream()
                    .anyMatch(c -> c.path().equals(p) && !c.worktree().equals("none"));
            if (changedOnly && present && repo.readDirCache().getEntry(p) == null) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT,
                        p + " is untracked: git discard restores tracked files and never removes "
                                + "untracked ones; use lomi_files_mutate trash");
            }
            if (!present || (changedOnly && !changed)) {
                throw new LomiException(
                        ErrorCode.TARGET_NOT_FOUND, (present ? "no worktree change at " : "no such path: ") + p);
            }
            sorted.add(p);
        }
        return List.copyOf(sorted);
    }

    private static GitPlan commit(Repository repo, GitAction.Commit c, GitStatus status)
            throws IOException, GitAPIException {
        if (c.message() == null || c.message().isBlank()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "a commit message is required");
        }
        if (c.message().length() > GitRepository.MAX_MESSAGE_CHARS) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "the commit message is longer than 64 KiB");
        }
        var raw = new Git(repo).status().call();
        if (raw.getAdded().stream().anyMatch(GitPaths::hidden)
                || raw.getChanged().stream().anyMatch(GitPaths::hidden)
                || raw.getRemoved().stream().anyMatch(GitPaths::hidden)) {
            throw new LomiException(ErrorCode.SCOPE_DENIED, "secret paths are staged; unstage them outside the broker");
        }
        List<String> staged = status.changes().stream()
                .filter(ch -> !ch.staged().equals("none"))
                .map(GitChange::path)
                .toList();
        if (staged.isEmpty()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "nothing is staged");
        }
        return new GitPlan(
                "commit",
                staged,
                c.message(),
                "",
                currentBranchRef(repo),
                status.head(),
                "",
                status.observationRevision());
    }

    private static GitPlan pull(Repository repo, GitAction.Pull p, GitStatus status)
            throws IOException, GitAPIException {
        if (!p.mode().equals("ff_only") && !p.mode().equals("rebase")) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "pull mode must be ff_only or rebase");
        }
        String url = RemoteTarget.shown(repo, p.remote(), false);
        String current = currentBranchRef(repo);
        String ref = p.reference().isPresent() ? branchRef(p.reference().get()) : current;
        String remoteHead;
        if (p.expectedRemoteCommit().isPresent()) {
            remoteHead = p.expectedRemoteCommit().get();
            if (!ObjectId.isId(remoteHead) || !repo.getObjectDatabase().has(ObjectId.fromString(remoteHead))) {
                throw new LomiException(
                        ErrorCode.TARGET_NOT_FOUND,
                        "commit " + remoteHead + " is not in the repository; fetch " + ref + " first");
            }
        } else {
            remoteHead = lastFetched(repo, p.remote(), ref);
        }
        if (remoteHead.isEmpty()) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND, "no fetched " + ref + " of " + p.remote() + "; fetch it first");
        }
        if (repo.getObjectDatabase().has(ObjectId.fromString(remoteHead))) {
            GitPaths.requireNoClientConfigurationChange(repo, ObjectId.fromString(remoteHead));
        }
        return new GitPlan(
                "pull_" + p.mode(),
                List.of(),
                "",
                p.remote(),
                ref,
                status.head(),
                remoteHead,
                status.observationRevision(),
                url);
    }

    private static GitPlan push(Repository repo, GitAction.Push p, String observed)
            throws IOException, GitAPIException {
        String url = RemoteTarget.shown(repo, p.remote(), true);
        String ref = branchRef(p.reference());
        ObjectId local = repo.resolve("HEAD^{commit}");
        if (local == null) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "HEAD names no commit; there is nothing to push");
        }
        String expected = p.expectedRemoteCommit().orElse("");
        if (!expected.isEmpty() && !ObjectId.isId(expected)) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "expectedRemoteCommit is not a commit id: " + expected);
        }
        return new GitPlan("push", List.of(), "", p.remote(), ref, local.name(), expected, observed, url);
    }

    /** A full, valid {@code refs/heads/} name (INVALID_ARGUMENT otherwise). */
    static String branchRef(String reference) {
        if (reference == null
                || !reference.startsWith(Constants.R_HEADS)
                || reference.length() == Constants.R_HEADS.length()
                || !Repository.isValidRefName(reference)) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "reference is a full branch name such as refs/heads/main");
        }
        return reference;
    }

    static void requireRemote(Repository repo, String remote) {
        if (remote == null || !repo.getConfig().getSubsections("remote").contains(remote)) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "no configured remote " + remote);
        }
    }

    /** The commit the last fetch left in {@code ref}'s remote-tracking branch, or "" (no network). */
    private static String lastFetched(Repository repo, String remote, String ref) throws IOException {
        Ref tracking = repo.exactRef(Constants.R_REMOTES + remote + "/" + ref.substring(Constants.R_HEADS.length()));
        return tracking == null || tracking.getObjectId() == null
                ? ""
                : tracking.getObjectId().name();
    }

    static String currentBranchRef(Repository repo) throws IOException {
        String full = repo.getFullBranch();
        if (full == null || !full.startsWith(Constants.R_HEADS)) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "HEAD is detached; check out a branch first");
        }
        return full;
    }
}
