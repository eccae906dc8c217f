package dev.lomicontrol.broker;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.files.TextPage;
import dev.lomicontrol.git.GitAction;
import dev.lomicontrol.git.GitChange;
import dev.lomicontrol.git.GitCommitDetail;
import dev.lomicontrol.git.GitCommitInfo;
import dev.lomicontrol.git.GitDiff;
import dev.lomicontrol.git.GitFileChange;
import dev.lomicontrol.git.GitOutcome;
import dev.lomicontrol.git.GitPlan;
import dev.lomicontrol.git.GitRemote;
import dev.lomicontrol.git.GitRepository;
import dev.lomicontrol.git.GitStatus;
import dev.lomicontrol.ledger.CanonicalJson;
import dev.lomicontrol.ledger.EffectState;
import dev.lomicontrol.ledger.Target;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.WorkspaceView;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Git tools (SPEC §10 "Git") on the project's own repository (the project root is the worktree).
 * Reads are bounded and paged; {@code lomi_git_open} adds a read-only diff or commit panel;
 * {@code lomi_git_mutate} freezes the request into an exact plan against the repository as it is,
 * parks it for the admin's decision and runs it once after approval, re-checking what the plan
 * expected. Secret paths and remote credentials never appear.
 */
final class GitCalls {

    static final int DEFAULT_STATUS = 100;
    static final int MAX_STATUS = 200;
    static final int MAX_REMOTES = 64;
    static final int DEFAULT_HISTORY = 20;
    static final int MAX_FILES = 200;

    /** The scope each mutation needs besides git.write and git.execute (SPEC §9). */
    static final Map<String, String> MUTATION_SCOPES = Map.of(
            "stage", "git.write", "unstage", "git.write", "commit", "git.write", "discard", "git.discard",
            "fetch", "git.network", "pull", "git.pull", "push", "git.push");

    private static final Pattern CURSOR = Pattern.compile("([0-9a-f]{16}):([0-9]{1,5})");
    private static final Pattern REVISION = Pattern.compile("[0-9a-f]{64}");
    private static final Pattern COMMIT = Pattern.compile("[0-9a-f]{40}|[0-9a-f]{64}");
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private final FileCalls files;
    private final OperationRunner runner;
    private final Layout layout;

    GitCalls(FileCalls files, OperationRunner runner, Layout layout) {
        this.files = files;
        this.runner = runner;
        this.layout = layout;
    }

    ObjectNode status(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, "workspaceId", "limit", "cursor");
        Repo target = open(session, args);
        int limit = args.integer("limit", 1, MAX_STATUS, OptionalInt.of(DEFAULT_STATUS));
        GitStatus status = target.git.status();
        int offset = 0;
        if (args.has("cursor")) {
            Matcher matcher = CURSOR.matcher(args.requiredString("cursor"));
            if (!matcher.matches()) {
                throw Arguments.invalid("cursor is not a git_status cursor");
            }
            if (!status.observationRevision().startsWith(matcher.group(1))) {
                throw new LomiException(ErrorCode.CURSOR_EXPIRED, "the repository changed since this cursor; read the status again without a cursor");
            }
            offset = Math.min(Integer.parseInt(matcher.group(2)), status.changes().size());
        }
        int end = Math.min(status.changes().size(), offset + limit);
        ObjectNode data = JSON.objectNode();
        data.put("kind", "git_status");
        data.put("workspaceId", target.workspaceId());
        data.put("observationRevision", status.observationRevision());
        WireJson.putUnlessEmpty(data, "branch", status.branch());
        WireJson.putUnlessEmpty(data, "head", status.head());
        ArrayNode changes = data.putArray("changes");
        for (GitChange change : status.changes().subList(offset, end)) {
            ObjectNode item = changes.addObject();
            item.put("relativePath", change.path());
            WireJson.putUnlessEmpty(item, "oldPath", change.oldPath() == null ? "" : change.oldPath());
            item.put("staged", change.staged());
            item.put("worktree", change.worktree());
            item.put("binary", change.binary());
            item.put("conflicted", change.conflicted());
        }
        data.put("totalChanges", status.changes().size());
        data.put("filtered", status.filtered());
        boolean hasMore = end < status.changes().size();
        data.put("hasMore", hasMore);
        WireJson.putUnlessEmpty(data, "nextCursor", hasMore ? status.observationRevision().substring(0, 16) + ":" + end : "");
        return data;
    }

    ObjectNode diff(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, "workspaceId", "relativePath", "comparison", "commit", "startUtf16", "maxChars",
                "expectedObservationRevision");
        Repo target = open(session, args);
        String comparison = args.choice("comparison", Optional.of("worktree"), "worktree", "staged", "commit");
        Optional<String> commit = args.optionalString("commit").map(GitCalls::commitId);
        if (comparison.equals("commit") != commit.isPresent()) {
            throw Arguments.invalid("commit is required with comparison \"commit\" and not allowed otherwise");
        }
        int start = args.integer("startUtf16", 0, Integer.MAX_VALUE, OptionalInt.of(0));
        int maxChars = args.integer("maxChars", 2, 8192, OptionalInt.of(4096));
        Optional<String> expected = args.optionalString("expectedObservationRevision").map(GitCalls::observation);
        if (expected.isEmpty() && !comparison.equals("commit")) {
            throw Arguments.invalid("a " + comparison + " diff needs expectedObservationRevision (from lomi_git_status)");
        }
        GitDiff diff = target.git.diff(args.requiredString("relativePath"), comparison, commit, expected.orElse(""));
        TextPage page = diff.page(start, maxChars);
        ObjectNode data = JSON.objectNode();
        data.put("kind", "git_diff");
        data.put("workspaceId", target.workspaceId());
        data.put("relativePath", diff.path());
        data.put("comparison", comparison);
        WireJson.putUnlessEmpty(data, "commit", commit.orElse(""));
        data.put("text", page.text());
        data.put("startUtf16", page.startUtf16());
        data.put("nextUtf16", page.nextUtf16());
        data.put("totalUtf16", page.totalUtf16());
        data.put("truncated", page.truncated());
        data.put("binary", diff.binary());
        data.put("observationRevision", diff.observationRevision());
        return data;
    }

    ObjectNode history(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, "workspaceId", "relativePath", "startCommit", "skip", "limit");
        Repo target = open(session, args);
        int skip = args.integer("skip", 0, 10_000, OptionalInt.of(0));
        int limit = args.integer("limit", 1, 100, OptionalInt.of(DEFAULT_HISTORY));
        Optional<String> start = args.optionalString("startCommit").map(GitCalls::commitId);
        if (skip > 0 && start.isEmpty()) {
            throw Arguments.invalid("paging with skip > 0 needs startCommit (the startCommit of the first page)");
        }
        String from = start.orElseGet(target.git::head);
        List<GitCommitInfo> commits = from.isEmpty() ? List.of()
                : target.git.history(Optional.of(from), args.optionalString("relativePath"), skip, Math.min(limit + 1, 100));
        boolean hasMore = commits.size() > limit || (commits.size() == limit && limit == 100 && hasNext(target, from, args, skip + limit));
        List<GitCommitInfo> page = commits.subList(0, Math.min(limit, commits.size()));
        ObjectNode data = JSON.objectNode();
        data.put("kind", "git_history");
        data.put("workspaceId", target.workspaceId());
        WireJson.putUnlessEmpty(data, "startCommit", from);
        ArrayNode items = data.putArray("commits");
        page.forEach(info -> commitInfo(items.addObject(), info));
        data.put("hasMore", hasMore);
        WireJson.put(data, "nextSkip", hasMore ? OptionalInt.of(skip + page.size()) : OptionalInt.empty());
        return data;
    }

    ObjectNode commit(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, "workspaceId", "commit", "filesSkip", "filesLimit");
        Repo target = open(session, args);
        GitCommitDetail detail = target.git.commit(commitId(args.requiredString("commit")));
        int skip = args.integer("filesSkip", 0, Integer.MAX_VALUE, OptionalInt.of(0));
        int limit = args.integer("filesLimit", 1, MAX_FILES, OptionalInt.of(100));
        List<GitFileChange> all = detail.files();
        int from = Math.min(skip, all.size());
        int end = Math.min(all.size(), from + limit);
        ObjectNode data = JSON.objectNode();
        data.put("kind", "git_commit");
        data.put("workspaceId", target.workspaceId());
        commitInfo(data, detail.info());
        data.put("message", detail.message());
        ArrayNode items = data.putArray("files");
        for (GitFileChange file : all.subList(from, end)) {
            ObjectNode item = items.addObject();
            item.put("relativePath", file.path());
            WireJson.putUnlessEmpty(item, "oldPath", file.oldPath() == null ? "" : file.oldPath());
            item.put("change", file.change());
        }
        data.put("totalFiles", all.size());
        boolean hasMore = end < all.size();
        data.put("hasMoreFiles", hasMore);
        WireJson.put(data, "nextFilesSkip", hasMore ? OptionalInt.of(end) : OptionalInt.empty());
        return data;
    }

    ObjectNode remotes(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, "workspaceId");
        Repo target = open(session, args);
        List<GitRemote> remotes = target.git.remotes();
        ObjectNode data = JSON.objectNode();
        data.put("kind", "git_remotes");
        data.put("workspaceId", target.workspaceId());
        ArrayNode items = data.putArray("remotes");
        for (GitRemote remote : remotes.subList(0, Math.min(MAX_REMOTES, remotes.size()))) {
            ObjectNode item = items.addObject();
            item.put("name", remote.name());
            remote.fetchUrls().forEach(item.putArray("fetchUrls")::add);
            remote.pushUrls().forEach(item.putArray("pushUrls")::add);
        }
        data.put("truncated", remotes.size() > MAX_REMOTES);
        return data;
    }

    /** A read-only panel showing one path's diff or one commit; an identical view already open is focused instead. */
    ObjectNode open(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, LayoutCalls.with("workspaceId", "view", "expectedRevision"));
        Repo target = open(session, args);
        Arguments view = args.object("view", "type", "relativePath", "staged", "commit");
        String type = view.choice("type", Optional.empty(), "diff", "commit");
        ObjectNode described = JSON.objectNode();
        described.put("type", type);
        String title;
        if (type.equals("diff")) {
            if (view.has("commit")) {
                throw Arguments.invalid("view.commit belongs to a commit view");
            }
            boolean staged = view.bool("staged", false);
            String path = dev.lomicontrol.files.RelativePath.parse(view.requiredString("relativePath")).toString();
            described.put("relativePath", path);
            described.put("staged", staged);
            title = (staged ? "Staged: " : "Diff: ") + path.substring(path.lastIndexOf('/') + 1);
        } else {
            if (view.has("relativePath") || view.has("staged")) {
                throw Arguments.invalid("a commit view takes only view.commit");
            }
            String commit = commitId(view.requiredString("commit"));
            described.put("commit", commit);
            title = "Commit " + commit.substring(0, 12);
        }
        String canonical = CanonicalJson.string(described);
        long expected = Revisions.expected(args);
        return runner.immediate(LayoutCalls.request(session, "lomi_git_open", arguments, args, target.listed, canonical, expected), () -> {
            Revisions.require(expected, layout.revision());
            if (type.equals("diff")) {
                GitStatus status = target.git.status();
                target.git.diff(described.get("relativePath").stringValue(), described.get("staged").booleanValue() ? "staged" : "worktree",
                        Optional.empty(), status.observationRevision());
            } else {
                target.git.commit(described.get("commit").stringValue());
            }
        }, operation -> layout.change(OptionalLong.of(expected), edit -> {
            WorkspaceView current = edit.view(target.listed.workspace().id());
            Optional<Panel> existing = current.panels().stream().filter(p -> p.gitView().filter(canonical::equals).isPresent()).findFirst();
            Panel panel;
            if (existing.isPresent()) {
                panel = existing.get();
                edit.focus(current.workspace().id(), panel.id());
            } else {
                panel = edit.addGitPanel(current.workspace().id(), title, session.id().value(), canonical);
            }
            ObjectNode result = LayoutCalls.result("git_opened", edit.newRevision());
            result.put("workspaceId", current.workspace().id().value());
            result.put("panelId", panel.id());
            result.set("view", described);
            return result;
        }));
    }

    /**
     * stage, unstage, commit, discard, fetch, pull or push as an exact plan the admin approves. The
     * request names the status it was based on ({@code expectedObservationRevision}); a stale one is
     * refused before any receipt exists.
     */
    ObjectNode mutate(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, LayoutCalls.with("workspaceId", "operation", "paths", "message", "remote", "branch", "pullMode",
                "expectedObservationRevision", "expectedHead", "expectedRemoteHead"));
        Repo target = open(session, args);
        String operation = args.choice("operation", Optional.empty(), "stage", "unstage", "commit", "discard", "fetch", "pull", "push");
        for (String scope : List.of("git.write", "git.execute", MUTATION_SCOPES.get(operation))) {
            if (!session.grant().allows(scope)) {
                throw new LomiException(ErrorCode.SCOPE_DENIED, "git " + operation + " needs the " + scope + " scope");
            }
        }
        GitAction action = action(operation, args);
        String expected = observation(args.requiredString("expectedObservationRevision"));
        Optional<String> expectedHead = args.optionalString("expectedHead").map(GitCalls::commitOrEmpty);
        Optional<String> expectedRemoteHead = args.optionalString("expectedRemoteHead").map(GitCalls::commitOrEmpty);
        OperationRunner.Request request = OperationRunner.Request.of(session, "lomi_git_mutate", arguments, args, target.listed.project().id(),
                new Target(target.workspaceId(), operation, target.listed.project().rootIdentity(), expected));
        // the admission freezes the plan; a repeat of a used key is answered without it
        AtomicReference<GitPlan> planned = new AtomicReference<>();
        OperationRunner.Admission admission = () -> {
            GitPlan plan = target.git.plan(action);
            if (!plan.observationRevision().equals(expected)) {
                throw new LomiException(ErrorCode.REVISION_CONFLICT, "the repository changed since observationRevision " + expected
                        + "; read lomi_git_status again and retry with a new requestKey");
            }
            expectedHead.ifPresent(head -> requireSame(head, plan.expectedHead(), "HEAD (or the pushed branch)"));
            expectedRemoteHead.ifPresent(head -> requireSame(head, plan.expectedRemoteHead(), "the remote branch"));
            planned.set(plan);
        };
        return runner.afterApproval(request, admission, () -> summary(planned.get(), target, session), () -> planJson(planned.get()), row -> {
            GitPlan plan = planned.get();
            GitOutcome outcome = target.git.execute(plan);
            ObjectNode result = JSON.objectNode();
            result.put("kind", "git_mutated");
            result.put("operation", operation);
            result.set("plan", planJson(plan));
            result.put("outcome", outcome.state());
            result.put("effect", outcome.effect());
            WireJson.putUnlessEmpty(result, "reason", outcome.reason());
            result.put("detail", outcome.detail());
            WireJson.putUnlessEmpty(result, "newHead", outcome.newHead());
            outcome.conflicts().forEach(result.putArray("conflicts")::add);
            if (outcome.state().equals("succeeded")) {
                return result;
            }
            throw new OperationRunner.Failed(code(outcome.reason()), outcome.detail(),
                    outcome.effect().equals("partial") ? EffectState.PARTIAL : EffectState.NONE, result);
        });
    }

    /** A git panel's stored view as JSON. */
    static JsonNode view(String canonical) {
        return MAPPER.readTree(canonical);
    }

    /** The JSON the admin approves: every field of the plan, in a fixed order. */
    static ObjectNode planJson(GitPlan plan) {
        return (ObjectNode) MAPPER.readTree(plan.toJson());
    }

    private static String summary(GitPlan plan, Repo target, Session session) {
        String where = " in " + target.listed.project().root() + " for " + session.clientLabel();
        switch (plan.kind()) {
            case "commit":
                String first = plan.message().lines().findFirst().orElse("");
                return "git commit of " + plan.paths().size() + " staged file(s) on " + plan.reference() + ": \"" + first + "\"" + where;
            case "stage":
            case "unstage":
                return "git " + plan.kind() + " " + String.join(", ", plan.paths()) + where;
            case "discard":
                return "git DISCARD the worktree changes of " + String.join(", ", plan.paths()) + " (untracked files are deleted)" + where;
            case "fetch":
                return "git fetch " + plan.remote() + where;
            case "push":
                return "git push " + plan.reference() + " @ " + plan.expectedHead() + " to " + plan.remote() + where;
            default:
                return "git pull (" + (plan.kind().equals("pull_rebase") ? "rebase" : "fast-forward only") + ") " + plan.reference() + " from "
                        + plan.remote() + " @ " + plan.expectedRemoteHead() + where;
        }
    }

    private static GitAction action(String operation, Arguments args) {
        switch (operation) {
            case "stage":
            case "unstage":
            case "discard":
                only(args, operation, "paths");
                List<String> paths = args.strings("paths", 64);
                if (paths.isEmpty()) {
                    throw Arguments.invalid("git " + operation + " needs paths (1-64)");
                }
                return operation.equals("stage") ? new GitAction.Stage(paths)
                        : operation.equals("unstage") ? new GitAction.Unstage(paths) : new GitAction.Discard(paths);
            case "commit":
                only(args, operation, "message", "expectedHead");
                return new GitAction.Commit(args.requiredString("message"));
            case "fetch":
                only(args, operation, "remote", "expectedHead");
                return new GitAction.Fetch(remote(args));
            case "pull":
                only(args, operation, "remote", "pullMode", "expectedHead", "expectedRemoteHead");
                return new GitAction.Pull(remote(args), args.choice("pullMode", Optional.empty(), "ff_only", "rebase"));
            default:
                only(args, operation, "remote", "branch", "expectedHead", "expectedRemoteHead");
                String branch = args.requiredString("branch");
                if (branch.isEmpty() || branch.length() > 255 || branch.startsWith("refs/") || branch.startsWith("-")) {
                    throw Arguments.invalid("branch is a local branch name such as main (not a refs/ path)");
                }
                return new GitAction.Push(remote(args), branch);
        }
    }

    private static String remote(Arguments args) {
        String remote = args.requiredString("remote");
        if (remote.isEmpty() || remote.length() > 255 || remote.contains("/") || remote.startsWith("-")) {
            throw Arguments.invalid("remote is the name of a configured remote such as origin");
        }
        return remote;
    }

    private static void only(Arguments args, String operation, String... fields) {
        List<String> allowed = List.of(fields);
        for (String name : List.of("paths", "message", "remote", "branch", "pullMode", "expectedHead", "expectedRemoteHead")) {
            if (args.has(name) && !allowed.contains(name)) {
                throw Arguments.invalid("git " + operation + " takes " + String.join(", ", fields) + ", not " + name);
            }
        }
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

    private boolean hasNext(Repo target, String from, Arguments args, int skip) {
        return skip <= 10_000 && !target.git.history(Optional.of(from), args.optionalString("relativePath"), skip, 1).isEmpty();
    }

    private static void commitInfo(ObjectNode node, GitCommitInfo info) {
        node.put("commit", info.id());
        info.parents().forEach(node.putArray("parents")::add);
        node.put("author", info.author());
        node.put("email", info.email());
        node.put("authoredAt", info.when().toString());
        node.put("summary", info.summary());
    }

    private static void requireSame(String expected, String actual, String what) {
        if (!expected.equals(actual)) {
            throw new LomiException(ErrorCode.REVISION_CONFLICT, what + " is " + (actual.isEmpty() ? "absent" : actual) + ", not " + expected
                    + "; read again and retry with a new requestKey");
        }
    }


    private static String observation(String value) {
        if (!REVISION.matcher(value).matches()) {
            throw Arguments.invalid("an observationRevision is 64 lower-case hex characters (from lomi_git_status)");
        }
        return value;
    }

    private static String commitId(String value) {
        if (!COMMIT.matcher(value).matches()) {
            throw Arguments.invalid("a commit is named by its full lower-case hex id (40 or 64 characters)");
        }
        return value;
    }

    private static String commitOrEmpty(String value) {
        return value.isEmpty() ? value : commitId(value);
    }

    private Repo open(Session session, Arguments args) {
        FileCalls.Resolved resolved = files.resolve(session, args);
        return new Repo(resolved.listed(), GitRepository.open(resolved.listed().project().root()));
    }

    /** A granted workspace and its project's repository. */
    private record Repo(WorkspaceCalls.Listed listed, GitRepository git) {
        String workspaceId() {
            return listed.workspace().id().value();
        }
    }

    /** Registers the handlers of the tools this class serves. */
    void register(ToolHandlers handlers) {
    }

    /** The tools of this class not yet bound through their declarations. */
    void registerLegacy(java.util.Map<String, BrokerCalls.LegacyCall> legacy) {
        legacy.put("lomi_git_status", this::status);
        legacy.put("lomi_git_diff", this::diff);
        legacy.put("lomi_git_history", this::history);
        legacy.put("lomi_git_commit", this::commit);
        legacy.put("lomi_git_remotes", this::remotes);
        legacy.put("lomi_git_open", this::open);
        legacy.put("lomi_git_mutate", this::mutate);
    }
}
