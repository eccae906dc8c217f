package dev.lomicontrol.git.tools;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.files.RelativePath;
import dev.lomicontrol.files.SecretPaths;
import dev.lomicontrol.files.TextPage;
import dev.lomicontrol.files.tools.FileCalls;
import dev.lomicontrol.git.GitAction;
import dev.lomicontrol.git.GitChange;
import dev.lomicontrol.git.GitCommitDetail;
import dev.lomicontrol.git.GitCommitInfo;
import dev.lomicontrol.git.GitDiff;
import dev.lomicontrol.git.GitFileChange;
import dev.lomicontrol.git.GitOutcome;
import dev.lomicontrol.git.GitPlan;
import dev.lomicontrol.git.GitRemoteEndpoint;
import dev.lomicontrol.git.GitRepository;
import dev.lomicontrol.git.GitStatus;
import dev.lomicontrol.git.api.GitSpecs;
import dev.lomicontrol.ledger.CanonicalJson;
import dev.lomicontrol.ledger.EffectState;
import dev.lomicontrol.ledger.Target;
import dev.lomicontrol.operations.LivePanels;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.Revisions;
import dev.lomicontrol.operations.ToolFeature;
import dev.lomicontrol.operations.ToolHandlers;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.PanelKind;
import dev.lomicontrol.projects.WorkspaceView;
import dev.lomicontrol.tools.CommitId;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Encoder;
import dev.lomicontrol.tools.Hex64;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Git tools (SPEC §10 "Git") on the project's repository or a repository nested inside the project
 * ({@code repositoryRelative}). Reads are bounded and paged; {@code lomi_git_open} adds a read-only
 * diff or commit panel; {@code lomi_git_mutate} freezes the request into an exact plan against the
 * repository as it is, parks it for the admin's decision and runs it once after approval,
 * re-checking what the plan expected. Secret paths, remote URLs and credentials never appear.
 */
@Component
public final class GitCalls implements ToolFeature {

    static final int MAX_REMOTES = 64;

    /** The scope each mutation needs besides git.write and git.execute (SPEC §9). */
    static final Map<GitSpecs.Operation, String> MUTATION_SCOPES = Map.of(
            GitSpecs.Operation.STAGE,
            "git.write",
            GitSpecs.Operation.UNSTAGE,
            "git.write",
            GitSpecs.Operation.COMMIT,
            "git.write",
            GitSpecs.Operation.DISCARD,
            "git.discard",
            GitSpecs.Operation.FETCH,
            "git.network",
            GitSpecs.Operation.PULL,
            "git.pull",
            GitSpecs.Operation.PUSH,
            "git.push");

    private final FileCalls files;
    private final OperationRunner runner;
    private final Layout layout;

    public GitCalls(FileCalls files, OperationRunner runner, Layout layout) {
        this.files = files;
        this.runner = runner;
        this.layout = layout;
    }

    /** The panels git answers for: a git panel shows the view {@link #open} stored with it. */
    @Override
    public Map<PanelKind, LivePanels> panels() {
        return Map.of(PanelKind.GIT, new GitPanels());
    }

    public GitSpecs.Status status(Session session, GitSpecs.StatusInput in) {
        Repo target = open(session, in.workspaceId(), in.repositoryRelative());
        GitStatus status = target.git.status();
        int offset = 0;
        if (in.cursor().isPresent()) {
            String[] cursor = in.cursor().get().split(":");
            if (!status.observationRevision().startsWith(cursor[0])) {
                throw new LomiException(
                        ErrorCode.CURSOR_EXPIRED,
                        "the repository changed since this cursor; read the status again without a cursor");
            }
            offset = Math.min(Integer.parseInt(cursor[1]), status.changes().size());
        }
        int end = Math.min(status.changes().size(), offset + in.limit());
        boolean hasMore = end < status.changes().size();
        return new GitSpecs.Status(
                target.workspaceId(),
                target.relative,
                status.observationRevision(),
                present(status.branch()),
                present(status.head()),
                status.changes().subList(offset, end).stream()
                        .map(GitCalls::change)
                        .toList(),
                status.changes().size(),
                status.filtered(),
                hasMore,
                hasMore ? Optional.of(status.observationRevision().substring(0, 16) + ":" + end) : Optional.empty());
    }

    /** The first page may name no observation (the reference's form); later worktree and staged pages must. */
    public GitSpecs.Diff diff(Session session, GitSpecs.DiffInput in) {
        Repo target = open(session, in.workspaceId(), in.repositoryRelative());
        String comparison = wire(in.comparison());
        Optional<String> commit = in.commit().map(CommitId::value);
        GitDiff diff = in.expectedObservationRevision().isPresent()
                ? target.git.diff(
                        in.relativePath(),
                        comparison,
                        commit,
                        in.expectedObservationRevision().get().value())
                : target.git.diff(in.relativePath(), comparison, commit);
        TextPage page = diff.page(in.startUtf16(), in.maxChars());
        return new GitSpecs.Diff(
                target.workspaceId(),
                target.relative,
                diff.path(),
                in.comparison(),
                commit,
                page.text(),
                page.startUtf16(),
                page.nextUtf16(),
                page.totalUtf16(),
                page.truncated(),
                diff.binary(),
                diff.observationRevision());
    }

    public GitSpecs.History history(Session session, GitSpecs.HistoryInput in) {
        Repo target = open(session, in.workspaceId(), in.repositoryRelative());
        int skip = in.skip();
        int limit = in.limit();
        String from = in.start().map(CommitId::value).orElseGet(target.git::head);
        List<GitCommitInfo> commits = from.isEmpty()
                ? List.of()
                : target.git.history(Optional.of(from), in.relativePath(), skip, Math.min(limit + 1, 100));
        boolean hasMore = commits.size() > limit
                || (commits.size() == limit
                        && limit == 100
                        && skip + limit <= 10_000
                        && !target.git
                                .history(Optional.of(from), in.relativePath(), skip + limit, 1)
                                .isEmpty());
        List<GitCommitInfo> page = commits.subList(0, Math.min(limit, commits.size()));
        return new GitSpecs.History(
                target.workspaceId(),
                target.relative,
                present(from),
                page.stream().map(GitCalls::summary).toList(),
                hasMore,
                hasMore ? Optional.of(skip + page.size()) : Optional.empty());
    }

    public GitSpecs.Commit commit(Session session, GitSpecs.CommitInput in) {
        Repo target = open(session, in.workspaceId(), in.repositoryRelative());
        GitCommitDetail detail = target.git.commit(in.commit().value());
        List<GitFileChange> all = detail.files();
        int from = Math.min(in.filesSkip(), all.size());
        int end = Math.min(all.size(), from + in.filesLimit());
        boolean hasMore = end < all.size();
        return new GitSpecs.Commit(
                target.workspaceId(),
                target.relative,
                summary(detail.info()),
                detail.message(),
                all.subList(from, end).stream()
                        .map(f -> new GitSpecs.CommitFile(
                                f.path(),
                                Optional.ofNullable(f.oldPath()),
                                GitSpecs.FileChange.valueOf(f.change().toUpperCase(Locale.ROOT))))
                        .toList(),
                all.size(),
                hasMore,
                hasMore ? Optional.of(end) : Optional.empty());
    }

    /** What the reference discloses per remote and role: transport, host and port; never a URL. */
    public GitSpecs.Remotes remotes(Session session, GitSpecs.RemotesInput in) {
        Repo target = open(session, in.workspaceId(), in.repositoryRelative());
        List<GitRemoteEndpoint> endpoints = target.git.remoteEndpoints();
        List<GitSpecs.Remote> remotes = endpoints.subList(0, Math.min(MAX_REMOTES, endpoints.size())).stream()
                .map(e -> new GitSpecs.Remote(
                        e.name(),
                        e.push() ? GitSpecs.Role.PUSH : GitSpecs.Role.FETCH,
                        e.transport(),
                        e.host(),
                        e.port().isPresent() ? Optional.of(e.port().getAsInt()) : Optional.empty(),
                        e.locationRedacted()))
                .toList();
        return new GitSpecs.Remotes(target.workspaceId(), target.relative, remotes, endpoints.size() > MAX_REMOTES);
    }

    /** A read-only panel showing one path's diff or one commit; an identical view already open is focused instead. */
    public ObjectNode open(Session session, GitSpecs.OpenInput in) {
        Repo target = open(session, in.workspaceId(), in.repositoryRelative());
        GitSpecs.View view;
        String title;
        ObjectNode described = JsonNodeFactory.instance.objectNode();
        if (in.view() instanceof GitSpecs.DiffView diff) {
            String path = RelativePath.parse(diff.relativePath()).toString();
            view = new GitSpecs.DiffView(path, diff.staged());
            title = (diff.staged() ? "Staged: " : "Diff: ") + path.substring(path.lastIndexOf('/') + 1);
        } else {
            GitSpecs.CommitView commit = (GitSpecs.CommitView) in.view();
            view = commit;
            title = "Commit " + commit.commit().value().substring(0, 12);
        }
        described.setAll((ObjectNode) Encoder.encode(GitSpecs.View.class, view));
        if (!target.relative.isEmpty()) {
            // the project's own repository keeps the view as it always was; a nested one names itself
            described.put("repositoryRelative", target.relative);
        }
        String canonical = CanonicalJson.string(described);
        long expected = in.expectedRevision().asLong();
        return runner.immediate(
                OperationRunner.Request.of(session, GitSpecs.OPEN, in, target.listed, canonical, expected),
                () -> {
                    Revisions.require(expected, layout.revision());
                    if (view instanceof GitSpecs.DiffView diff) {
                        target.git.diff(diff.relativePath(), diff.staged() ? "staged" : "worktree", Optional.empty());
                    } else {
                        target.git.commit(((GitSpecs.CommitView) view).commit().value());
                    }
                },
                operation -> layout.change(OptionalLong.of(expected), edit -> {
                    WorkspaceView current = edit.view(target.listed.workspace().id());
                    Optional<Panel> existing = current.panels().stream()
                            .filter(p -> p.gitView().filter(canonical::equals).isPresent())
                            .findFirst();
                    Panel panel;
                    if (existing.isPresent()) {
                        panel = existing.get();
                        edit.focus(current.workspace().id(), panel.id());
                    } else {
                        panel = edit.addGitPanel(
                                current.workspace().id(), title, session.id().value(), canonical);
                    }
                    return Encoder.encode(new GitSpecs.Opened(
                            Decimal.of(edit.newRevision()),
                            current.workspace().id().value(),
                            panel.id(),
                            target.relative,
                            view));
                }));
    }

    /**
     * stage, unstage, commit, discard, fetch, pull or push in the reference's shape, as an exact plan
     * the admin approves. The layout revision is checked, the plan is frozen against the repository as
     * it is when the broker reserves the request (or against the caller's expectedObservationRevision,
     * when given), and the reference's expectations — the complete staged set of a commit, sourceCommit
     * = HEAD, expectedRemoteCommit (absent = the remote branch must not exist) — are checked before any
     * receipt exists.
     */
    public ObjectNode mutate(Session session, GitSpecs.MutateInput in) {
        Repo target = open(session, in.workspaceId(), in.repositoryRelative());
        GitSpecs.Operation operation = in.operation();
        String name = wire(operation);
        for (String scope : List.of("git.write", "git.execute", MUTATION_SCOPES.get(operation))) {
            if (!session.grant().allows(scope)) {
                throw new LomiException(
                        ErrorCode.SCOPE_DENIED, dev.lomicontrol.core.ErrorMessages.missingScope("git " + name, scope));
            }
        }
        GitAction action = action(in);
        long expectedRevision = in.expectedRevision().asLong();
        Optional<String> expectedObservation = in.expectedObservationRevision().map(Hex64::value);
        GitSpecs.ObservedBy observedBy =
                expectedObservation.isPresent() ? GitSpecs.ObservedBy.CALLER : GitSpecs.ObservedBy.BROKER;
        String resource = name + (target.relative.isEmpty() ? "" : ":" + target.relative);
        OperationRunner.Request request = OperationRunner.Request.of(
                session,
                GitSpecs.MUTATE,
                in,
                target.listed.project().id(),
                new Target(
                        target.workspaceId(),
                        resource,
                        target.listed.project().rootIdentity(),
                        expectedRevision + expectedObservation.map(o -> "/" + o).orElse("")));
        // the admission freezes the plan; a repeat of a used key is answered without it
        AtomicReference<GitPlan> planned = new AtomicReference<>();
        OperationRunner.Admission admission = () -> {
            Revisions.require(expectedRevision, layout.revision());
            GitPlan plan = target.git.plan(action);
            expectedObservation.ifPresent(expected -> {
                if (!plan.observationRevision().equals(expected)) {
                    throw new LomiException(
                            ErrorCode.REVISION_CONFLICT,
                            "the repository changed since observationRevision " + expected
                                    + "; read lomi_git_status again and retry with a new requestKey");
                }
            });
            expect(in, plan);
            planned.set(plan);
        };
        return runner.afterApproval(
                request,
                admission,
                () -> describe(Objects.requireNonNull(planned.get()), target, session),
                () -> decisionPlan(Objects.requireNonNull(planned.get()), observedBy),
                row -> {
                    GitPlan plan = Objects.requireNonNull(planned.get(), "the plan is set before approval");
                    GitOutcome outcome = target.git.execute(plan);
                    boolean succeeded = outcome.state().equals("succeeded");
                    GitSpecs.Effect effect =
                            GitSpecs.Effect.valueOf(outcome.effect().toUpperCase(Locale.ROOT));
                    JsonNode result = Encoder.encode(new GitSpecs.Mutated(
                            target.workspaceId(),
                            target.relative,
                            operation,
                            plan(plan, observedBy),
                            succeeded ? GitSpecs.Outcome.SUCCEEDED : GitSpecs.Outcome.FAILED,
                            effect,
                            outcome.reason().isEmpty()
                                    ? Optional.empty()
                                    : Optional.of(wire(GitSpecs.Reason.valueOf(
                                            outcome.reason().toUpperCase(Locale.ROOT)))),
                            outcome.detail(),
                            present(outcome.newHead()),
                            outcome.conflicts()));
                    if (succeeded) {
                        return result;
                    }
                    throw new OperationRunner.Failed(
                            code(outcome.reason()),
                            outcome.detail(),
                            effect == GitSpecs.Effect.PARTIAL ? EffectState.PARTIAL : EffectState.NONE,
                            result);
                });
    }

    /** The plan as the admin approves it and the result repeats it. */
    private static GitSpecs.Plan plan(GitPlan plan, GitSpecs.ObservedBy observedBy) {
        return new GitSpecs.Plan(
                GitSpecs.PlanKind.valueOf(plan.kind().toUpperCase(Locale.ROOT)),
                plan.paths(),
                plan.message(),
                plan.remote(),
                plan.reference(),
                plan.expectedHead(),
                plan.expectedRemoteHead(),
                plan.observationRevision(),
                observedBy,
                GitPlan.REPOSITORY_CODE);
    }

    /**
     * The plan as the admin approves it: the agent's plan plus, for fetch, pull and push, the URL the
     * remote really resolves to (N7). The URL is the admin's to see; the agent's answers keep only the
     * remote's name, as lomi_git_remotes does.
     */
    private static JsonNode decisionPlan(GitPlan plan, GitSpecs.ObservedBy observedBy) {
        JsonNode encoded = Encoder.encode(plan(plan, observedBy));
        if (!plan.remoteUrl().isEmpty() && encoded instanceof ObjectNode object) {
            object.put("remoteUrl", plan.remoteUrl());
        }
        return encoded;
    }

    private static GitAction action(GitSpecs.MutateInput in) {
        return switch (in.operation()) {
            case STAGE -> new GitAction.Stage(in.paths());
            case UNSTAGE -> new GitAction.Unstage(in.paths());
            case DISCARD -> new GitAction.Discard(in.paths());
            case COMMIT -> new GitAction.Commit(in.message().orElseThrow());
            case FETCH -> new GitAction.Fetch(in.remote().orElseThrow(), in.reference());
            case PULL ->
                new GitAction.Pull(
                        in.remote().orElseThrow(),
                        wire(in.pullMode().orElseThrow()),
                        in.reference(),
                        in.expectedRemoteCommit().map(CommitId::value));
            case PUSH ->
                new GitAction.Push(
                        in.remote().orElseThrow(),
                        in.reference().orElseThrow(),
                        in.expectedRemoteCommit().map(CommitId::value));
        };
    }

    /** The reference's expectations against the frozen plan (REVISION_CONFLICT when the repository is not as the caller said). */
    private static void expect(GitSpecs.MutateInput in, GitPlan plan) {
        switch (in.operation()) {
            case COMMIT -> {
                TreeSet<String> named = new TreeSet<>();
                in.paths().forEach(p -> named.add(RelativePath.parse(p).toString()));
                if (!named.equals(new TreeSet<>(plan.paths()))) {
                    throw new LomiException(
                            ErrorCode.REVISION_CONFLICT,
                            "paths must name the complete staged set: staged are " + plan.paths() + ", not " + named
                                    + "; stage or unstage first (a commit never stages)");
                }
            }
            case PUSH, PULL -> {
                requireSame(in.sourceCommit().orElseThrow().value(), plan.expectedHead(), "HEAD (sourceCommit)");
                requireSame(
                        in.expectedRemoteCommit().map(CommitId::value).orElse(""),
                        plan.expectedRemoteHead(),
                        "the remote " + plan.reference());
            }
            default -> {}
        }
    }

    private static String describe(GitPlan plan, Repo target, Session session) {
        String where = " in " + target.listed.project().root()
                + (target.relative.isEmpty() ? "" : "/" + target.relative) + " for " + session.clientLabel()
                + " (observation " + plan.observationRevision().substring(0, 12) + ")";
        switch (plan.kind()) {
            case "commit":
                String first = plan.message().lines().findFirst().orElse("");
                return "git commit of " + plan.paths().size() + " staged file(s) on " + plan.reference() + ": \""
                        + first + "\"" + where;
            case "stage":
            case "unstage":
                return "git " + plan.kind() + " " + String.join(", ", plan.paths()) + where;
            case "discard":
                return "git DISCARD the worktree changes of " + String.join(", ", plan.paths())
                        + " (restored from the index; untracked files are never touched)" + where;
            case "fetch":
                return "git fetch " + plan.reference() + " from " + remote(plan) + where;
            case "push":
                return "git push " + plan.reference() + " @ " + plan.expectedHead() + " to " + remote(plan)
                        + (plan.expectedRemoteHead().isEmpty()
                                ? " (only if absent there)"
                                : " (over " + plan.expectedRemoteHead() + ")")
                        + where;
            default:
                return "git pull (" + (plan.kind().equals("pull_rebase") ? "rebase" : "fast-forward only") + ") "
                        + plan.reference() + " from " + remote(plan) + " @ " + plan.expectedRemoteHead() + where;
        }
    }

    /**
     * The remote by name and by the URL it really goes to ({@code pushurl}, {@code insteadOf} and
     * {@code pushInsteadOf} applied, credentials redacted); the remote is first contacted after approval.
     */
    private static String remote(GitPlan plan) {
        return plan.remote() + " (" + plan.remoteUrl() + ")";
    }

    /** The error code a failed plan settles with. */
    private static ErrorCode code(String reason) {
        switch (reason) {
            case "unreachable":
            case "rejected":
                return ErrorCode.APP_UNAVAILABLE;
            case "would_overwrite":
                return ErrorCode.TARGET_BUSY;
            default:
                return ErrorCode.REVISION_CONFLICT;
        }
    }

    private static GitSpecs.Change change(GitChange change) {
        return new GitSpecs.Change(
                change.path(),
                Optional.ofNullable(change.oldPath()),
                GitSpecs.Staged.valueOf(change.staged().toUpperCase(Locale.ROOT)),
                GitSpecs.Worktree.valueOf(change.worktree().toUpperCase(Locale.ROOT)),
                change.binary(),
                change.conflicted());
    }

    private static GitSpecs.CommitSummary summary(GitCommitInfo info) {
        return new GitSpecs.CommitSummary(
                info.id(),
                info.parents(),
                info.author(),
                info.email(),
                info.when().toString(),
                info.summary());
    }

    private static void requireSame(String expected, String actual, String what) {
        if (!expected.equals(actual)) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    what + " is " + (actual.isEmpty() ? "absent" : actual) + ", not "
                            + (expected.isEmpty() ? "absent" : expected)
                            + "; read again and retry with a new requestKey");
        }
    }

    private static Optional<String> present(String value) {
        return value == null || value.isEmpty() ? Optional.empty() : Optional.of(value);
    }

    private static String wire(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    /**
     * The granted workspace and its repository: {@code ""} is the project root's; otherwise a nested
     * repository's root by its project-relative path, reached without following any link and never
     * through a secret path (SCOPE_DENIED); anything else is TARGET_NOT_FOUND.
     */
    private Repo open(Session session, WorkspaceId workspaceId, String repositoryRelative) {
        WorkspaceAccess.Listed listed = files.listed(session, workspaceId);
        Path root = listed.project().root();
        RelativePath relative = RelativePath.parse(repositoryRelative);
        if (relative.isRoot()) {
            return new Repo(listed, "", GitRepository.open(root));
        }
        if (SecretPaths.isSecret(relative)) {
            throw new LomiException(ErrorCode.SCOPE_DENIED, "secret paths are not available");
        }
        Path current = root;
        for (String part : relative.components()) {
            try {
                current = current.resolve(part);
            } catch (java.nio.file.InvalidPathException e) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT, "repository path " + relative + " is not a file name here");
            }
            if (Files.isSymbolicLink(current) || !Files.isDirectory(current, LinkOption.NOFOLLOW_LINKS)) {
                throw new LomiException(
                        ErrorCode.TARGET_NOT_FOUND,
                        "no repository at " + relative + " (" + part + " is not a directory of the project)");
            }
        }
        try {
            return new Repo(listed, relative.toString(), GitRepository.open(current));
        } catch (LomiException e) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, relative + " is not the root of a git repository");
        }
    }

    /** A granted workspace, the repository's project-relative path ("" = the project's) and the repository. */
    private record Repo(WorkspaceAccess.Listed listed, String relative, GitRepository git) {
        String workspaceId() {
            return listed.workspace().id().value();
        }
    }

    /** Registers the handlers of the tools this class serves. */
    @Override
    public void register(Wiring wiring) {
        ToolHandlers handlers = wiring.handlers();
        handlers.on(GitSpecs.STATUS, this::status);
        handlers.on(GitSpecs.DIFF, this::diff);
        handlers.on(GitSpecs.HISTORY, this::history);
        handlers.on(GitSpecs.COMMIT, this::commit);
        handlers.on(GitSpecs.REMOTES, this::remotes);
        handlers.on(GitSpecs.OPEN, this::open);
        handlers.on(GitSpecs.MUTATE, this::mutate);
    }
}
