package dev.lomicontrol.git;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.MergeCommand;
import org.eclipse.jgit.api.MergeResult;
import org.eclipse.jgit.api.RebaseResult;
import org.eclipse.jgit.api.errors.CheckoutConflictException;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.NullProgressMonitor;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.transport.FetchResult;
import org.eclipse.jgit.transport.PushResult;
import org.eclipse.jgit.transport.RefSpec;
import org.eclipse.jgit.transport.RemoteRefUpdate;
import org.eclipse.jgit.transport.Transport;

/**
 * Runs an approved {@link GitPlan} exactly once. Local plans need the observed status unchanged
 * (REVISION_CONFLICT); remote plans check the expected source and remote commits and report a moved
 * remote as a failed outcome rather than retrying.
 */
final class Executor {

    private Executor() {}

    /**
     * Runs the plan. Refusals found before any effect are thrown as {@link LomiException}; a remote that
     * cannot be reached is a failed outcome with no effect; any other fault after work began is
     * OUTCOME_UNKNOWN, because the repository may have been changed part-way.
     */
    static GitOutcome execute(Repository repo, GitPlan plan) throws IOException {
        try {
            return run(repo, plan);
        } catch (org.eclipse.jgit.api.errors.TransportException
                | org.eclipse.jgit.api.errors.InvalidRemoteException e) {
            return done(
                    repo,
                    "failed",
                    "none",
                    "unreachable",
                    "the remote could not be reached: " + Remotes.redactText(e.getMessage()),
                    List.of());
        } catch (GitAPIException | org.eclipse.jgit.api.errors.JGitInternalException | IOException e) {
            throw new LomiException(
                    ErrorCode.OUTCOME_UNKNOWN, plan.kind() + " failed part-way: " + Remotes.redactText(e.getMessage()));
        }
    }

    private static GitOutcome run(Repository repo, GitPlan plan) throws IOException, GitAPIException {
        // a plan is a plain record and may come back from storage: its paths and remote are checked again
        for (String path : plan.paths()) {
            GitPaths.requireNoLinkedParent(repo.getWorkTree().toPath(), GitPaths.checked(path));
            GitPaths.requireNotHardLinked(repo.getWorkTree().toPath(), path);
            if (plan.kind().equals("discard")) {
                GitPaths.requireWritable(path);
            }
        }
        if (!plan.remote().isEmpty()) {
            Planner.requireRemote(repo, plan.remote());
        }
        Git git = new Git(repo);
        switch (plan.kind()) {
            case "stage" -> {
                requireObserved(repo, plan);
                for (String p : plan.paths()) {
                    git.add().addFilepattern(p).call();
                    git.add().setUpdate(true).addFilepattern(p).call();
                }
            }
            case "unstage" -> {
                requireObserved(repo, plan);
                unstage(repo, git, plan.paths());
            }
            case "discard" -> {
                requireObserved(repo, plan);
                discard(repo, git, plan.paths());
            }
            case "commit" -> {
                requireObserved(repo, plan);
                // never signed: a signing program is repository (or user) configuration the broker does not run
                git.commit()
                        .setMessage(plan.message())
                        .setSign(false)
                        .setNoVerify(true)
                        .call();
            }
            case "fetch" -> {
                requireHead(repo, plan);
                if (plan.reference().startsWith(org.eclipse.jgit.lib.Constants.R_HEADS)) {
                    // one branch into its remote-tracking branch: no tags, no other refs
                    git.fetch()
                            .setRemote(plan.remote())
                            .setTagOpt(org.eclipse.jgit.transport.TagOpt.NO_TAGS)
                            .setRefSpecs(new RefSpec("+" + plan.reference() + ":" + tracking(plan)))
                            .call();
                } else {
                    git.fetch().setRemote(plan.remote()).call();
                }
            }
            case "pull_ff_only", "pull_rebase" -> {
                requireObserved(repo, plan);
                return pull(repo, git, plan);
            }
            case "push" -> {
                return push(repo, plan);
            }
            default -> throw new LomiException(ErrorCode.INVALID_ARGUMENT, "unknown plan kind " + plan.kind());
        }
        return done(repo, "succeeded", "complete", "", plan.kind() + " done", List.of());
    }

    private static void unstage(Repository repo, Git git, List<String> paths) throws IOException, GitAPIException {
        if (repo.resolve("HEAD^{commit}") == null) {
            for (String p : paths) {
                git.rm().setCached(true).addFilepattern(p).call();
            }
            return;
        }
        var reset = git.reset();
        paths.forEach(reset::addPath);
        reset.call();
    }

    /** Restores tracked paths from the index; never removes a file (an untracked path in a plan is refused before anything). */
    private static void discard(Repository repo, Git git, List<String> paths) throws IOException, GitAPIException {
        var checkout = git.checkout();
        for (String p : paths) {
            if (repo.readDirCache().getEntry(p) == null) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT, p + " is untracked: git discard never removes untracked files");
            }
            checkout.addPath(p);
        }
        checkout.call();
    }

    /** The remote-tracking branch of a plan's {@code refs/heads/} reference. */
    private static String tracking(GitPlan plan) {
        return "refs/remotes/" + plan.remote() + "/"
                + plan.reference().substring(org.eclipse.jgit.lib.Constants.R_HEADS.length());
    }

    private static GitOutcome pull(Repository repo, Git git, GitPlan plan) throws IOException, GitAPIException {
        RefSpec spec = new RefSpec("+" + plan.reference() + ":" + tracking(plan));
        FetchResult fetched =
                git.fetch().setRemote(plan.remote()).setRefSpecs(spec).call();
        var advertised = fetched.getAdvertisedRef(plan.reference());
        String now = advertised == null ? "" : advertised.getObjectId().name();
        if (!now.equals(plan.expectedRemoteHead())) {
            return done(
                    repo,
                    "failed",
                    "none",
                    "remote_moved",
                    "the remote moved: " + plan.reference() + " is now " + now,
                    List.of());
        }
        ObjectId upstream = ObjectId.fromString(plan.expectedRemoteHead());
        // checked again now that the commit is here: the plan may have been made before it was fetched
        GitPaths.requireNoClientConfigurationChange(repo, upstream);
        if (plan.kind().equals("pull_ff_only")) {
            try {
                MergeResult merged = git.merge()
                        .include(upstream)
                        .setFastForward(MergeCommand.FastForwardMode.FF_ONLY)
                        .call();
                boolean ok = merged.getMergeStatus().isSuccessful();
                List<String> blocked = merged.getFailingPaths() == null
                        ? List.of()
                        : visible(new ArrayList<>(merged.getFailingPaths().keySet()));
                return done(
                        repo,
                        ok ? "succeeded" : "failed",
                        ok ? "complete" : "none",
                        ok ? "" : blocked.isEmpty() ? "not_fast_forward" : "would_overwrite",
                        "fast-forward: " + merged.getMergeStatus(),
                        blocked);
            } catch (CheckoutConflictException e) {
                return done(
                        repo,
                        "failed",
                        "none",
                        "would_overwrite",
                        "local changes would be overwritten",
                        visible(e.getConflictingPaths()));
            }
        }
        RebaseResult rebased = git.rebase().setUpstream(upstream).call();
        if (rebased.getStatus().isSuccessful()) {
            return done(repo, "succeeded", "complete", "", "rebase: " + rebased.getStatus(), List.of());
        }
        if (rebased.getStatus() == RebaseResult.Status.STOPPED) {
            List<String> conflicts = visible(new ArrayList<>(git.status().call().getConflicting()));
            return done(
                    repo,
                    "failed",
                    "partial",
                    "conflict",
                    "rebase stopped on conflicts; the repository is mid-rebase",
                    conflicts);
        }
        List<String> conflicts = rebased.getConflicts() == null ? List.of() : visible(rebased.getConflicts());
        return done(repo, "failed", "none", "conflict", "rebase not started: " + rebased.getStatus(), conflicts);
    }

    private static GitOutcome push(Repository repo, GitPlan plan) throws IOException, GitAPIException {
        ObjectId local = repo.resolve("HEAD^{commit}");
        if (local == null || !local.name().equals(plan.expectedHead())) {
            throw new LomiException(ErrorCode.REVISION_CONFLICT, "HEAD moved since the plan was made");
        }
        ObjectId expectedOld = plan.expectedRemoteHead().isEmpty()
                ? ObjectId.zeroId()
                : ObjectId.fromString(plan.expectedRemoteHead());
        RemoteRefUpdate update =
                new RemoteRefUpdate(repo, plan.expectedHead(), plan.reference(), false, null, expectedOld);
        try (Transport transport = Transport.open(repo, plan.remote())) {
            PushResult result = transport.push(NullProgressMonitor.INSTANCE, List.of(update));
            RemoteRefUpdate.Status status =
                    result.getRemoteUpdate(plan.reference()).getStatus();
            return switch (status) {
                case OK, UP_TO_DATE -> done(repo, "succeeded", "complete", "", "push: " + status, List.of());
                case REJECTED_REMOTE_CHANGED ->
                    done(repo, "failed", "none", "remote_moved", "the remote moved; fetch and plan again", List.of());
                case REJECTED_NONFASTFORWARD ->
                    done(repo, "failed", "none", "not_fast_forward", "push rejected: " + status, List.of());
                default -> done(repo, "failed", "none", "rejected", "push rejected: " + status, List.of());
            };
        } catch (java.net.URISyntaxException e) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "the remote URL is invalid");
        }
    }

    private static void requireObserved(Repository repo, GitPlan plan) throws IOException, GitAPIException {
        if (!StatusReader.read(repo).observationRevision().equals(plan.observationRevision())) {
            throw new LomiException(ErrorCode.REVISION_CONFLICT, "the repository changed since the plan was made");
        }
    }

    private static void requireHead(Repository repo, GitPlan plan) throws IOException {
        ObjectId head = repo.resolve("HEAD^{commit}");
        if (!(head == null ? "" : head.name()).equals(plan.expectedHead())) {
            throw new LomiException(ErrorCode.REVISION_CONFLICT, "HEAD moved since the plan was made");
        }
    }

    private static List<String> visible(List<String> paths) {
        return paths.stream().filter(p -> !GitPaths.hidden(p)).sorted().toList();
    }

    private static GitOutcome done(
            Repository repo, String state, String effect, String reason, String detail, List<String> conflicts)
            throws IOException {
        ObjectId head = repo.resolve("HEAD^{commit}");
        return new GitOutcome(state, effect, reason, detail, head == null ? "" : head.name(), conflicts);
    }
}
