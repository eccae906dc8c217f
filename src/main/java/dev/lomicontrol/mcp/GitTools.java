package dev.lomicontrol.mcp;

import static dev.lomicontrol.mcp.Schemas.arrayOf;
import static dev.lomicontrol.mcp.Schemas.atLeast;
import static dev.lomicontrol.mcp.Schemas.bool;
import static dev.lomicontrol.mcp.Schemas.constant;
import static dev.lomicontrol.mcp.Schemas.exactlyOne;
import static dev.lomicontrol.mcp.Schemas.form;
import static dev.lomicontrol.mcp.Schemas.hex64;
import static dev.lomicontrol.mcp.Schemas.integer;
import static dev.lomicontrol.mcp.Schemas.nullable;
import static dev.lomicontrol.mcp.Schemas.object;
import static dev.lomicontrol.mcp.Schemas.oneOfStrings;
import static dev.lomicontrol.mcp.Schemas.string;
import static dev.lomicontrol.mcp.Schemas.token;
import static dev.lomicontrol.mcp.Schemas.withDefault;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/**
 * Git tools (SPEC §9, §10 Git; reference fields of research/lomi.md §1h) on the project's own
 * repository through JGit: bounded reads of status, one path's diff, history, one commit and the
 * redacted remotes; a read-only git panel; and mutations that the admin approves as an exact plan.
 */
final class GitTools {

    static final String STATUS = "lomi_git_status";
    static final String DIFF = "lomi_git_diff";
    static final String HISTORY = "lomi_git_history";
    static final String COMMIT = "lomi_git_commit";
    static final String REMOTES = "lomi_git_remotes";
    static final String OPEN = "lomi_git_open";
    static final String MUTATE = "lomi_git_mutate";

    static final String[] OPERATIONS = {"stage", "unstage", "commit", "discard", "fetch", "pull", "push"};
    /** A full commit id: 40 (SHA-1) or 64 (SHA-256) lower-case hex characters. */
    static final String COMMIT_PATTERN = "^([0-9a-f]{40}|[0-9a-f]{64})$";
    /** A remote or branch name as the broker accepts it (git checks the rest). */
    static final String NAME_PATTERN = "^[^-/\\u0000-\\u0020\\u007f][^\\u0000-\\u0020\\u007f]{0,254}$";

    private static final String SCOPE = "git.read";

    private GitTools() {}

    static List<ToolDefinition> all() {
        return List.of(status(), diff(), history(), commit(), remotes(), open(), mutate());
    }

    private static ObjectNode commitId(String description) {
        return string(40, 64, COMMIT_PATTERN, description);
    }

    private static ObjectNode observation(String description) {
        return hex64(description);
    }

    private static ToolDefinition status() {
        ObjectNode input = object().property("workspaceId", token("the workspace whose project repository to read"))
                .property("limit", withDefault(integer(1, 200, "page size (1-200, default 100)"), 100))
                .property("cursor", string(1, 64, null, "nextCursor of the previous page")).require("workspaceId").closed().build();
        ObjectNode change = object().property("relativePath", string("the changed path"))
                .property("oldPath", nullable(string("a staged rename's source; null otherwise")))
                .property("staged", oneOfStrings("HEAD against the index", "added", "modified", "deleted", "renamed", "none"))
                .property("worktree", oneOfStrings("the index against the files", "modified", "deleted", "untracked", "none"))
                .property("binary", bool("whether the content is binary")).property("conflicted", bool("whether the path is in conflict"))
                .require("relativePath", "oldPath", "staged", "worktree", "binary", "conflicted").build();
        ObjectNode data = object().property("kind", constant("git_status")).property("workspaceId", token("the workspace"))
                .property("observationRevision", observation("the revision of this status (HEAD, index and changed files); send it as "
                        + "expectedObservationRevision to lomi_git_diff and lomi_git_mutate"))
                .property("branch", nullable(string("the checked-out branch; null when HEAD is detached")))
                .property("head", nullable(commitId("the HEAD commit; null in an empty repository")))
                .property("changes", arrayOf(change, "this page of changes, sorted by path"))
                .property("totalChanges", atLeast(0, "changes in all pages (at most 4096)"))
                .property("filtered", bool("whether secret paths were left out"))
                .property("hasMore", bool("whether another page follows"))
                .property("nextCursor", nullable(string("cursor of the next page (bound to this observationRevision); null on the last page")))
                .require("kind", "workspaceId", "observationRevision", "branch", "head", "changes", "totalChanges", "filtered", "hasMore",
                        "nextCursor")
                .build();
        return ToolDefinition.broker(STATUS, "Git status",
                "The project repository's status: branch, HEAD, and each changed path with its staged and worktree state (renames, binary, "
                        + "conflicts), paged, with the observationRevision that diffs and mutations name. Secret paths never appear (filtered); "
                        + "more than 4096 changes is RESOURCE_EXHAUSTED. A cursor of an older status is CURSOR_EXPIRED.",
                Effect.RO, SCOPE, input, data);
    }

    private static ToolDefinition diff() {
        ObjectNode input = object().property("workspaceId", token("its workspace"))
                .property("relativePath", FileTools.relativePath("the one path to diff, relative to the project root"))
                .property("comparison", withDefault(oneOfStrings("worktree (index against the files, default), staged (HEAD against the "
                        + "index) or commit (the commit against its first parent)", "worktree", "staged", "commit"), "worktree"))
                .property("commit", commitId("comparison commit only: the full commit id"))
                .property("startUtf16", withDefault(FileTools.utf16("where the page starts, in UTF-16 code units (default 0)"), 0))
                .property("maxChars", FileTools.maxChars())
                .property("expectedObservationRevision", observation("the observationRevision from lomi_git_status; required for worktree "
                        + "and staged (a changed repository is REVISION_CONFLICT), optional for commit"))
                .require("workspaceId", "relativePath").closed().build();
        ObjectNode data = object().property("kind", constant("git_diff")).property("workspaceId", token("the workspace"))
                .property("relativePath", string("the path")).property("comparison", oneOfStrings("what was compared", "worktree", "staged",
                        "commit"))
                .property("commit", nullable(commitId("the commit of a commit diff; null otherwise")))
                .property("text", string("this page of the unified diff (git's own format)"))
                .property("startUtf16", integer("where this page starts")).property("nextUtf16", integer("where the next page starts"))
                .property("totalUtf16", integer("the whole diff's length in UTF-16 code units"))
                .property("truncated", bool("whether text follows this page"))
                .property("binary", bool("whether the path is binary (the diff then only says so)"))
                .property("observationRevision", observation("the status the diff was taken at"))
                .require("kind", "workspaceId", "relativePath", "comparison", "commit", "text", "startUtf16", "nextUtf16", "totalUtf16",
                        "truncated", "binary", "observationRevision")
                .build();
        return ToolDefinition.broker(DIFF, "Git diff of one path",
                "The unified diff of one path, paged by UTF-16 offsets: worktree, staged, or one commit against its first parent. Worktree "
                        + "and staged diffs name the expectedObservationRevision they continue. Secret paths are SCOPE_DENIED; a path the "
                        + "repository does not know is TARGET_NOT_FOUND.",
                Effect.RO, SCOPE, input, data);
    }

    /** Adds the fields every commit description has. */
    private static Schemas.ObjectSchema withCommitInfo(Schemas.ObjectSchema schema) {
        return schema.property("commit", commitId("the commit id")).property("parents", arrayOf(commitId("a parent"), "its parents"))
                .property("author", string("the author's name")).property("email", string("the author's e-mail"))
                .property("authoredAt", string("when it was authored (ISO-8601 UTC)")).property("summary", string("the first line of the message"));
    }

    private static ToolDefinition history() {
        ObjectNode input = object().property("workspaceId", token("its workspace"))
                .property("relativePath", FileTools.relativePath("only commits that touch this path"))
                .property("startCommit", commitId("the startCommit of the first page; required when skip > 0, so that pages stay stable while "
                        + "HEAD moves"))
                .property("skip", withDefault(integer(0, 10000, "commits to skip (0-10000, default 0; use nextSkip)"), 0))
                .property("limit", withDefault(integer(1, 100, "page size (1-100, default 20)"), 20)).require("workspaceId").closed().build();
        ObjectNode commit = withCommitInfo(object()).require("commit", "parents", "author", "email", "authoredAt", "summary").build();
        ObjectNode data = object().property("kind", constant("git_history")).property("workspaceId", token("the workspace"))
                .property("startCommit", nullable(commitId("the commit the walk started from (HEAD when none was given); null in an empty "
                        + "repository")))
                .property("commits", arrayOf(commit, "newest first"))
                .property("hasMore", bool("whether older commits follow"))
                .property("nextSkip", nullable(atLeast(0, "skip for the next page (with the same startCommit); null on the last page")))
                .require("kind", "workspaceId", "startCommit", "commits", "hasMore", "nextSkip").build();
        return ToolDefinition.broker(HISTORY, "Git history",
                "Commits reachable from HEAD (or startCommit), newest first, optionally only those touching one path: id, parents, author, "
                        + "e-mail, authoredAt and summary. Continue with the returned startCommit and nextSkip.",
                Effect.RO, SCOPE, input, data);
    }

    private static ToolDefinition commit() {
        ObjectNode input = object().property("workspaceId", token("its workspace")).property("commit", commitId("the full commit id"))
                .property("filesSkip", withDefault(atLeast(0, "changed files to skip (default 0; use nextFilesSkip)"), 0))
                .property("filesLimit", withDefault(integer(1, 200, "changed files per page (1-200, default 100)"), 100))
                .require("workspaceId", "commit").closed().build();
        ObjectNode file = object().property("relativePath", string("the path after the change"))
                .property("oldPath", nullable(string("the source of a rename or copy; null otherwise")))
                .property("change", oneOfStrings("what happened to it", "added", "modified", "deleted", "renamed", "copied"))
                .require("relativePath", "oldPath", "change").build();
        ObjectNode data = withCommitInfo(object().property("kind", constant("git_commit")).property("workspaceId", token("the workspace")))
                .property("message", string("the full message (at most 64 KiB)"))
                .property("files", arrayOf(file, "this page of changed files (secret paths left out)"))
                .property("totalFiles", atLeast(0, "changed files in all pages"))
                .property("hasMoreFiles", bool("whether another page of files follows"))
                .property("nextFilesSkip", nullable(atLeast(0, "filesSkip of the next page; null on the last page")))
                .require("kind", "workspaceId", "commit", "parents", "author", "email", "authoredAt", "summary", "message", "files",
                        "totalFiles", "hasMoreFiles", "nextFilesSkip")
                .build();
        return ToolDefinition.broker(COMMIT, "Git commit details",
                "One commit: id, parents, author, e-mail, authoredAt, summary, the full message (at most 64 KiB) and the files it changed "
                        + "against its first parent, paged. An unknown commit is TARGET_NOT_FOUND.",
                Effect.RO, SCOPE, input, data);
    }

    private static ToolDefinition remotes() {
        ObjectNode input = object().property("workspaceId", token("its workspace")).require("workspaceId").closed().build();
        ObjectNode remote = object().property("name", string("the remote's name"))
                .property("fetchUrls", arrayOf(string("a URL with any user, password or token replaced by ***"), "fetch URLs"))
                .property("pushUrls", arrayOf(string("a URL with any user, password or token replaced by ***"), "push URLs"))
                .require("name", "fetchUrls", "pushUrls").build();
        ObjectNode data = object().property("kind", constant("git_remotes")).property("workspaceId", token("the workspace"))
                .property("remotes", arrayOf(remote, "the configured remotes, sorted by name (at most 64)"))
                .property("truncated", bool("whether more than 64 remotes exist"))
                .require("kind", "workspaceId", "remotes", "truncated").build();
        return ToolDefinition.broker(REMOTES, "Git remotes",
                "The configured remotes with their fetch and push URLs; credentials in a URL (user:token@) are always redacted to ***.",
                Effect.RO, SCOPE, input, data);
    }

    private static ToolDefinition open() {
        ObjectNode view = object().property("type", oneOfStrings("diff (one path) or commit", "diff", "commit"))
                .property("relativePath", FileTools.relativePath("diff: the path"))
                .property("staged", withDefault(bool("diff: the staged diff instead of the worktree one (default false)"), false))
                .property("commit", commitId("commit: the full commit id"))
                .require("type").closed().description("diff {relativePath, staged?} or commit {commit}").build();
        ObjectNode input = object().property("workspaceId", token("the workspace to show it in")).property("view", view)
                .require("workspaceId", "view").expectedRevision().durable().closed().build();
        ObjectNode variants = exactlyOne(
                form("diff {relativePath, staged?}", List.of("type", "relativePath", "staged")).property("type", constant("diff"))
                        .require("type", "relativePath").build(),
                form("commit {commit}", List.of("type", "commit")).property("type", constant("commit")).require("type", "commit").build());
        return ToolDefinition.broker(OPEN, "Open a git view",
                "Opens a read-only panel showing one path's diff or one commit, or focuses the panel that already shows it. Read the content "
                        + "with lomi_git_diff or lomi_git_commit. Returns an operation; its result is {kind:\"git_opened\", workspaceId, panelId, "
                        + "view, domainRevision}.",
                Effect.OP, SCOPE, input, OperationTools.operation()).withConstraint(object().property("view", variants).build());
    }

    private static ToolDefinition mutate() {
        ObjectNode input = object().property("workspaceId", token("its workspace"))
                .property("operation", oneOfStrings("what to do", OPERATIONS))
                .property("paths", arrayOf(FileTools.relativePath("a file (not a directory)"), 1, 64, "stage, unstage, discard: 1-64 files"))
                .property("message", string(1, 65536, null, "commit: the message"))
                .property("remote", string(1, 255, NAME_PATTERN, "fetch, pull, push: a configured remote such as origin"))
                .property("branch", string(1, 255, NAME_PATTERN, "push: the local branch to push to the same-named remote branch"))
                .property("pullMode", oneOfStrings("pull: ff_only or rebase", "ff_only", "rebase"))
                .property("expectedObservationRevision", observation("the observationRevision from lomi_git_status this request is based on; "
                        + "a stale one is REVISION_CONFLICT and leaves no receipt"))
                .property("expectedHead", string(0, 64, "^([0-9a-f]{40}|[0-9a-f]{64})?$", "optional: the commit you expect HEAD (push: the "
                        + "pushed branch) to be; \"\" for none"))
                .property("expectedRemoteHead", string(0, 64, "^([0-9a-f]{40}|[0-9a-f]{64})?$", "pull, push, optional: the commit you expect "
                        + "the remote branch to be; \"\" for absent"))
                .require("workspaceId", "operation", "expectedObservationRevision").durable().closed().build();
        ObjectNode variants = exactlyOne(
                mutation("stage", List.of("paths"), List.of()),
                mutation("unstage", List.of("paths"), List.of()),
                mutation("discard", List.of("paths"), List.of()),
                mutation("commit", List.of("message"), List.of("expectedHead")),
                mutation("fetch", List.of("remote"), List.of("expectedHead")),
                mutation("pull", List.of("remote", "pullMode"), List.of("expectedHead", "expectedRemoteHead")),
                mutation("push", List.of("remote", "branch"), List.of("expectedHead", "expectedRemoteHead")));
        return ToolDefinition.broker(MUTATE, "Change the repository (admin approves)",
                "stage {paths}, unstage {paths}, discard {paths} (restores tracked files from the index, deletes untracked ones), commit "
                        + "{message} (the staged files), fetch {remote}, pull {remote, pullMode: ff_only|rebase} (the current branch from the "
                        + "same-named remote branch) or push {remote, branch} (never forced). The broker freezes the request into an exact plan "
                        + "(paths, message, remote, reference, expected HEAD and remote commits, observationRevision) that the admin approves "
                        + "(YOLO approves at once); the operation waits in awaiting_user, runs once and is never replayed. Scopes: git.write and "
                        + "git.execute, plus git.discard, git.network (fetch), git.pull or git.push. Returns an operation; its result is "
                        + "{kind:\"git_mutated\", operation, plan, outcome, effect, reason, detail, newHead, conflicts}; a failed run says "
                        + "why (remote_moved, conflict, would_overwrite, not_fast_forward, unreachable, rejected) and whether it left the "
                        + "repository part-way (effectState partial, e.g. a rebase stopped on conflicts).",
                Effect.OP, "git.write", input, OperationTools.operation()).withConstraint(variants);
    }

    /** One form of lomi_git_mutate: the common fields, the operation pinned, its own required and optional fields. */
    private static ObjectNode mutation(String operation, List<String> required, List<String> optional) {
        List<String> all = new ArrayList<>(List.of("workspaceId", "operation", "expectedObservationRevision", "retryEpoch", "requestKey"));
        all.addAll(required);
        all.addAll(optional);
        List<String> needed = new ArrayList<>(List.of("operation"));
        needed.addAll(required);
        String own = new ArrayList<>(required) + (optional.isEmpty() ? "" : " (optional " + optional + ")");
        return form(operation + " " + own, all).property("operation", constant(operation)).require(needed.toArray(String[]::new)).build();
    }
}
