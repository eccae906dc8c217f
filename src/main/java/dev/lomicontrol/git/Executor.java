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
import org.eclipse.jgit.transport.RemoteConfig;
import org.eclipse.jgit.transport.RemoteRefUpdate;
import org.eclipse.jgit.transport.TagOpt;
import org.eclipse.jgit.transport.Transport;

/**
 * Runs an approved {@link GitPlan} exactly once. Local plans need the observed status unchanged
 * (REVISION_CONFLICT); remote plans check the expected source and remote commits and report a moved
 * remote as a failed outcome rather than retrying. Every transport it opens goes to the URL the admin
 * approved ({@link GitPlan#remoteUrl}, resolved again now) and has an I/O timeout, so a remote that
 * accepts the connection and then stays silent ends the plan instead of holding its thread.
 */
final class Executor {

    /**
     * JGit's transport timeout: the seconds one read or write (and the connect) may take without data
     * moving before the operation fails. Without it a silent remote blocks forever.
     */
    static final int TRANSPORT_TIMEOUT_SECONDS = 30;

    private Executor() {}

    /**
     * Runs the plan. Refusals found before any effect are thrown as {@link LomiException}; a remote that
     * cannot be reached is a failed outcome with no effect; any other fault after work began is
     * OUTCOME_UNKNOWN, because the repository may have been changed part-way.
     */
    static GitOutcome execute(Repository repo, GitPlan plan, int timeoutSeconds) throws IOException {
        try {
            return run(repo, plan, timeoutSeconds);
        } catch (Unreachable e) {
            return done(
                    repo,
                    "failed",
                    "none",
                    "unreachable",
                    "the remote could not be reached"
                            + (timedOut(e.getCause()) ? " (no answer within " + timeoutSeconds + " s)" : "") + ": "
                            + Remotes.redactText(e.getCause().getMessage()),
                    List.of());
        } catch (GitAPIException | org.eclipse.jgit.api.errors.JGitInternalException | IOException e) {
            throw new LomiException(
                    ErrorCode.OUTCOME_UNKNOWN, plan.kind() + " failed part-way: " + Remotes.redactText(e.getMessage()));
        }
    }

    private static GitOutcome run(Repository repo, GitPlan plan, int timeout) throws IOException, GitAPIException {
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
                    fetch(repo, plan, timeout, List.of(new RefSpec("+" + plan.reference() + ":" + tracking(plan))));
                } else {
                    fetch(repo, plan, timeout, List.of());
                }
            }
            case "pull_ff_only", "pull_rebase" -> {
                requireObserved(repo, plan);
                return pull(repo, git, plan, timeout);
            }
            case "push" -> {
                return push(repo, plan, timeout);
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

    private static GitOutcome pull(Repository repo, Git git, GitPlan plan, int timeout)
            throws IOException, GitAPIException {
        RefSpec spec = new RefSpec("+" + plan.reference() + ":" + tracking(plan));
        FetchResult fetched = fetch(repo, plan, timeout, List.of(spec));
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

    /**
     * Fetches {@code specs} (none: the remote's configured ones) over a transport opened on the approved
     * URL with the timeout; one branch is fetched without tags. A transport fault is {@link Unreachable}:
     * a fetch updates local refs only once everything has arrived.
     */
    private static FetchResult fetch(Repository repo, GitPlan plan, int timeout, List<RefSpec> specs)
            throws IOException {
        RemoteConfig config = approved(repo, plan, false);
        try (Transport transport = Transport.open(repo, config, Transport.Operation.FETCH)) {
            transport.setTimeout(timeout);
            if (!specs.isEmpty()) {
                transport.setTagOpt(TagOpt.NO_TAGS);
            }
            return transport.fetch(NullProgressMonitor.INSTANCE, specs);
        } catch (org.eclipse.jgit.errors.TransportException e) {
            throw new Unreachable(e);
        }
    }

    /**
     * The remote's configuration, provided it still resolves to the URL the admin approved
     * (REVISION_CONFLICT otherwise: the repository's config changed while the admin decided).
     */
    private static RemoteConfig approved(Repository repo, GitPlan plan, boolean push) {
        RemoteConfig config = RemoteTarget.config(repo, plan.remote());
        String now = RemoteTarget.shown(RemoteTarget.uri(config, push));
        if (!now.equals(plan.remoteUrl())) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    "remote " + plan.remote() + " now goes to " + now + ", not to the approved "
                            + (plan.remoteUrl().isEmpty() ? "(none)" : plan.remoteUrl()) + "; nothing was done");
        }
        return config;
    }

    private static GitOutcome push(Repository repo, GitPlan plan, int timeout) throws IOException {
        ObjectId local = repo.resolve("HEAD^{commit}");
        if (local == null || !local.name().equals(plan.expectedHead())) {
            throw new LomiException(ErrorCode.REVISION_CONFLICT, "HEAD moved since the plan was made");
        }
        ObjectId expectedOld = plan.expectedRemoteHead().isEmpty()
                ? ObjectId.zeroId()
                : ObjectId.fromString(plan.expectedRemoteHead());
        RemoteRefUpdate update =
                new RemoteRefUpdate(repo, plan.expectedHead(), plan.reference(), false, null, expectedOld);
        RemoteConfig config = approved(repo, plan, true);
        try (Transport transport = Transport.open(repo, config, Transport.Operation.PUSH)) {
            transport.setTimeout(timeout);
            PushResult result;
            try {
                result = transport.push(NullProgressMonitor.INSTANCE, List.of(update));
            } catch (org.eclipse.jgit.errors.TransportException e) {
                if (beforeAnyCommand(e)) {
                    throw new Unreachable(e);
                }
                throw new LomiException(
                        ErrorCode.OUTCOME_UNKNOWN,
                        "the push broke off after the remote answered"
                                + (timedOut(e) ? " (no answer within " + timeout + " s)" : "")
                                + "; whether " + plan.reference()
                                + " moved is unknown: fetch it before planning again ("
                                + Remotes.redactText(e.getMessage()) + ")");
            }
            RemoteRefUpdate.Status status =
                    result.getRemoteUpdate(plan.reference()).getStatus();
            if (status == RemoteRefUpdate.Status.UP_TO_DATE
                    && !plan.expectedHead().equals(plan.expectedRemoteHead())) {
                // JGit reports "already there" before it checks the expected old commit: the plan expected
                // the remote branch elsewhere (or absent), so the remote was not as approved
                status = RemoteRefUpdate.Status.REJECTED_REMOTE_CHANGED;
            }
            return switch (status) {
                case OK, UP_TO_DATE -> done(repo, "succeeded", "complete", "", "push: " + status, List.of());
                case REJECTED_REMOTE_CHANGED ->
                    done(repo, "failed", "none", "remote_moved", "the remote moved; fetch and plan again", List.of());
                case REJECTED_NONFASTFORWARD ->
                    done(repo, "failed", "none", "not_fast_forward", "push rejected: " + status, List.of());
                default -> done(repo, "failed", "none", "rejected", "push rejected: " + status, List.of());
            };
        } catch (org.eclipse.jgit.errors.TransportException e) {
            throw new Unreachable(e);
        }
    }

    /**
     * Whether a push's transport fault came while the connection was being opened, that is before the
     * remote was sent any ref update (JGit's {@code PushProcess} opens the connection, reading the
     * remote's advertisement, before it sends anything).
     */
    private static boolean beforeAnyCommand(Throwable e) {
        for (StackTraceElement frame : e.getStackTrace()) {
            if (frame.getMethodName().equals("openPush")) {
                return true;
            }
        }
        return false;
    }

    private static boolean timedOut(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.io.InterruptedIOException
                    || (t.getMessage() != null && t.getMessage().contains("timed out"))) {
                return true;
            }
        }
        return false;
    }

    /** A transport fault before the remote was changed: a failed outcome with no effect. */
    private static final class Unreachable extends IOException {
        private static final long serialVersionUID = 1L;

        Unreachable(org.eclipse.jgit.errors.TransportException cause) {
            super(cause.getMessage(), cause);
        }

        @Override
        public synchronized Throwable getCause() {
            return java.util.Objects.requireNonNull(super.getCause());
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
