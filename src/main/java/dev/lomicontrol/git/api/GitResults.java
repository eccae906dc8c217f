package dev.lomicontrol.git.api;

import dev.lomicontrol.git.api.GitSpecs.Comparison;
import dev.lomicontrol.git.api.GitSpecs.Operation;
import dev.lomicontrol.git.api.GitSpecs.View;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Doc;
import dev.lomicontrol.tools.Inline;
import dev.lomicontrol.tools.Matches;
import dev.lomicontrol.tools.Tag;
import java.util.List;
import java.util.Optional;

/**
 * What the git tools answer (the output and result records of {@link GitSpecs}'s declarations): a
 * status page, one path's diff page, a history page, one commit, the redacted remotes, an opened git
 * panel, and a mutation's exact plan and outcome. The inputs and the declarations stay in
 * {@link GitSpecs}.
 */
public final class GitResults {

    private GitResults() {}

    // --- shared wire types

    /** A path's state between HEAD and the index. */
    public enum Staged {
        ADDED,
        MODIFIED,
        DELETED,
        RENAMED,
        NONE
    }

    /** A path's state between the index and the files. */
    public enum Worktree {
        MODIFIED,
        DELETED,
        UNTRACKED,
        NONE
    }

    /** What a commit did to one file against its first parent. */
    public enum FileChange {
        ADDED,
        MODIFIED,
        DELETED,
        RENAMED,
        COPIED
    }

    public record CommitSummary(
            @Doc("the commit id") String commit,
            @Doc("its parents") List<String> parents,
            @Doc("the author's name") String author,

            @Doc("the author's e-mail (reference: authorEmail)")
            String email,

            @Doc("when it was authored (ISO-8601 UTC)") String authoredAt,

            @Doc("the first line of the message (reference: subject)")
            String summary) {}

    // --- lomi_git_status

    public record Change(
            @Doc("the changed path") String relativePath,

            @Doc("a staged rename's source (reference: originalPath)")
            Optional<String> oldPath,

            @Doc("HEAD against the index (reference: index)")
            Staged staged,

            @Doc("the index against the files") Worktree worktree,
            @Doc("whether the content is binary") boolean binary,
            @Doc("whether the path is in conflict") boolean conflicted) {}

    @Tag("git_status")
    public record Status(
            @Doc("the workspace") String workspaceId,
            @Doc("the repository read") String repositoryRelative,

            @Doc(
                    "the revision of this status (HEAD, index and changed files); name it as expectedObservationRevision in lomi_git_diff "
                            + "(later pages) and, optionally, lomi_git_mutate")
            String observationRevision,

            @Doc("the checked-out branch; null when HEAD is detached")
            Optional<String> branch,

            @Doc("the HEAD commit; null in an empty repository")
            Optional<String> head,

            @Doc("this page of changes, sorted by path") List<Change> changes,
            @Doc("changes in all pages (at most 4096)") int totalChanges,
            @Doc("whether secret paths were left out") boolean filtered,
            @Doc("whether another page follows") boolean hasMore,

            @Doc("cursor of the next page (bound to this observationRevision); null on the last page")
            Optional<String> nextCursor) {}

    // --- lomi_git_diff

    @Tag("git_diff")
    public record Diff(
            String workspaceId,
            String repositoryRelative,
            String relativePath,
            Comparison comparison,

            @Doc("the commit of a commit diff; null otherwise")
            Optional<String> commit,

            @Doc("this page of the unified diff, git's own format (reference: patch)")
            String text,

            @Doc("where this page starts") int startUtf16,
            @Doc("where the next page starts") int nextUtf16,

            @Doc("the whole diff's length in UTF-16 code units")
            int totalUtf16,

            @Doc("whether text follows this page") boolean truncated,

            @Doc("whether the path is binary, the diff then only says so (reference: notice binary)")
            boolean binary,

            @Doc("the status the diff was taken at; send it with later pages")
            String observationRevision) {}

    // --- lomi_git_history

    @Tag("git_history")
    public record History(
            String workspaceId,
            String repositoryRelative,

            @Doc(
                    "the commit the walk started from (HEAD when none was given); pass it back as commit; null in an empty repository")
            Optional<String> startCommit,

            @Doc("newest first") List<CommitSummary> commits,
            @Doc("whether older commits follow") boolean hasMore,

            @Doc("skip for the next page (with commit = startCommit); null on the last page")
            Optional<Integer> nextSkip) {}

    // --- lomi_git_commit

    public record CommitFile(
            @Doc("the path after the change") String relativePath,

            @Doc("the source of a rename or copy; null otherwise")
            Optional<String> oldPath,

            @Doc("what happened to it (reference: status)") FileChange change) {}

    @Tag("git_commit")
    public record Commit(
            String workspaceId,
            String repositoryRelative,
            @Inline CommitSummary info,
            @Doc("the full message (at most 64 KiB)") String message,

            @Doc("this page of changed files (secret paths left out)")
            List<CommitFile> files,

            @Doc("changed files in all pages") int totalFiles,
            @Doc("whether another page of files follows") boolean hasMoreFiles,

            @Doc("filesSkip of the next page; null on the last page")
            Optional<Integer> nextFilesSkip) {}

    // --- lomi_git_remotes

    /** Whether an entry is where the remote is fetched from or pushed to. */
    public enum Role {
        FETCH,
        PUSH
    }

    public record Remote(
            @Doc("the remote's name") String name,
            @Doc("fetch or push") Role role,

            @Doc("https, http, ssh, git, file, or unknown (anything else: then host and port are null)")
            String transport,

            @Doc("the host name; null for local and unknown transports")
            Optional<String> host,

            @Doc("the port when the URL names one") Optional<Integer> port,

            @Doc(
                    "whether anything of the location was withheld (user, path, query, fragment): the URL itself is never shown")
            boolean locationRedacted) {}

    @Tag("git_remotes")
    public record Remotes(
            String workspaceId,
            String repositoryRelative,

            @Doc("one entry per configured URL and role, sorted by remote name (at most 64)")
            List<Remote> remotes,

            @Doc("whether entries were left out beyond 64") boolean truncated) {}

    // --- lomi_git_open

    @Tag("git_opened")
    public record Opened(
            @Doc("the layout revision after the change") Decimal domainRevision,
            String workspaceId,
            String panelId,
            String repositoryRelative,
            View view) {}

    // --- lomi_git_mutate

    /** What a plan is: the operation, with pull split by its mode. */
    public enum PlanKind {
        STAGE,
        UNSTAGE,
        COMMIT,
        DISCARD,
        FETCH,
        PULL_FF_ONLY,
        PULL_REBASE,
        PUSH
    }

    /** Who took the observation the plan is based on. */
    public enum ObservedBy {
        CALLER,
        BROKER
    }

    /** The exact plan the admin approves. */
    public record Plan(
            PlanKind kind,
            @Doc("the files it touches, sorted") List<String> paths,
            @Doc("commit: the message") String message,
            @Doc("the remote, or \"\"") String remote,

            @Doc("the full ref it works on (fetch: the remote branch), or \"\"")
            String reference,

            @Doc("the commit HEAD (push: the source commit) must still be, or \"\"")
            String expectedHead,

            @Doc("the commit the remote branch must still be; \"\" = absent (push: create only)")
            String expectedRemoteHead,

            @Doc("the repository status the plan was made against")
            String observationRevision,

            @Doc("caller: named by the request; broker: taken by the broker at reserve time")
            ObservedBy observedBy,

            @Doc("what the broker never runs for it: repository hooks, filters and configured transport commands")
            String repositoryCode) {}

    public enum Outcome {
        SUCCEEDED,
        FAILED
    }

    public enum Effect {
        COMPLETE,
        PARTIAL,
        NONE
    }

    /** Why a plan that ran did not succeed. */
    public enum Reason {
        REMOTE_MOVED,
        UNREACHABLE,
        WOULD_OVERWRITE,
        CONFLICT,
        NOT_FAST_FORWARD,
        REJECTED
    }

    @Tag("git_mutated")
    public record Mutated(
            String workspaceId,
            String repositoryRelative,
            Operation operation,
            @Doc("the plan that ran") Plan plan,
            @Doc("succeeded or failed") Outcome outcome,

            @Doc("complete, partial (left mid-way, e.g. a rebase stopped on conflicts) or none")
            Effect effect,

            @Doc(
                    "why it failed (a Reason: remote_moved, unreachable, would_overwrite, conflict, not_fast_forward, rejected); null when it "
                            + "succeeded")
            @Matches("remote_moved|unreachable|would_overwrite|conflict|not_fast_forward|rejected")
            Optional<String> reason,

            @Doc("what git reported") String detail,

            @Doc("HEAD afterwards; null in an empty repository")
            Optional<String> newHead,

            @Doc("the conflicting or blocking paths") List<String> conflicts) {}
}
