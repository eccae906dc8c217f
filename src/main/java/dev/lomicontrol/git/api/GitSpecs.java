package dev.lomicontrol.git.api;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.tools.CommitId;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Default;
import dev.lomicontrol.tools.Doc;
import dev.lomicontrol.tools.Durable;
import dev.lomicontrol.tools.Hex64;
import dev.lomicontrol.tools.Inline;
import dev.lomicontrol.tools.Items;
import dev.lomicontrol.tools.LayoutBased;
import dev.lomicontrol.tools.Len;
import dev.lomicontrol.tools.Matches;
import dev.lomicontrol.tools.Range;
import dev.lomicontrol.tools.Tag;
import dev.lomicontrol.tools.Tagged;
import dev.lomicontrol.tools.ToolSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The git tools (SPEC §10 "Git"; reference {@code lomi-control-protocol/src/git.rs}): bounded reads of
 * status, one path's diff, history, one commit and the redacted remotes; a read-only git panel; and
 * mutations the admin approves as an exact plan. Every tool takes {@code repositoryRelative}: {@code ""}
 * (the default) is the project's own repository, otherwise the relative path of a repository root
 * nested inside the project (reached without following links).
 */
public final class GitSpecs {

    private GitSpecs() {}

    static final String REPOSITORY = "\"\" or a nested repository's path";
    /** A configured remote's name as the broker accepts it (git checks the rest). */
    static final String NAME = "[^-/\\u0000-\\u0020\\u007f][^/\\u0000-\\u0020\\u007f]{0,254}";

    // --- shared wire types

    /** What a diff compares. */
    public enum Comparison {
        WORKTREE,
        STAGED,
        COMMIT
    }

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

    public record StatusInput(
            WorkspaceId workspaceId,

            @Doc(REPOSITORY) @Len(max = 4096) @Default("\"\"")
            String repositoryRelative,

            @Range(min = 1, max = 200) @Default("100") int limit,

            @Len(min = 1, max = 64) @Matches("[0-9a-f]{16}:[0-9]{1,5}")
            Optional<String> cursor) {}

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

    public record DiffInput(
            WorkspaceId workspaceId,

            @Doc(REPOSITORY) @Len(max = 4096) @Default("\"\"")
            String repositoryRelative,

            @Doc("relative to the repository root") @Len(min = 1, max = 4096)
            String relativePath,

            @Doc("worktree: index vs files; staged: HEAD vs index; commit: vs its first parent")
            @Default("\"worktree\"")
            Comparison comparison,

            @Doc("comparison commit only") Optional<CommitId> commit,

            @Range(min = 0, max = Integer.MAX_VALUE) @Default("0")
            int startUtf16,

            @Range(min = 2, max = 8192) @Default("4096") int maxChars,

            @Doc("from page one or lomi_git_status; required after page one")
            Optional<Hex64> expectedObservationRevision) {

        public DiffInput {
            if ((comparison == Comparison.COMMIT) != commit.isPresent()) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT,
                        "commit is required with comparison \"commit\" and not allowed otherwise");
            }
            if (comparison != Comparison.COMMIT && startUtf16 > 0 && expectedObservationRevision.isEmpty()) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT,
                        "a later page of a " + comparison.name().toLowerCase(java.util.Locale.ROOT)
                                + " diff needs expectedObservationRevision (the observationRevision of its first page)");
            }
        }
    }

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

    public record HistoryInput(
            WorkspaceId workspaceId,

            @Doc(REPOSITORY) @Len(max = 4096) @Default("\"\"")
            String repositoryRelative,

            @Doc("default HEAD; for later pages the returned startCommit")
            Optional<CommitId> commit,

            @Doc("same as commit") Optional<CommitId> startCommit,

            @Len(min = 1, max = 4096) Optional<String> relativePath,

            @Range(min = 0, max = 10_000) @Default("0") int skip,

            @Range(min = 1, max = 100) @Default("20") int limit) {

        public HistoryInput {
            if (commit.isPresent() && startCommit.isPresent() && !commit.equals(startCommit)) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT, "commit and startCommit name the same thing; give one");
            }
        }

        /** The start commit, whichever name it came by. */
        public Optional<CommitId> start() {
            return commit.or(() -> startCommit);
        }
    }

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

    public record CommitInput(
            WorkspaceId workspaceId,

            @Doc(REPOSITORY) @Len(max = 4096) @Default("\"\"")
            String repositoryRelative,

            CommitId commit,

            @Range(min = 0, max = Integer.MAX_VALUE) @Default("0")
            int filesSkip,

            @Range(min = 1, max = 200) @Default("100") int filesLimit) {}

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

    public record RemotesInput(
            WorkspaceId workspaceId,

            @Doc(REPOSITORY) @Len(max = 4096) @Default("\"\"")
            String repositoryRelative) {}

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

    /** What a git panel shows. */
    @Tagged("type")
    public sealed interface View {}

    @Tag("diff")
    public record DiffView(
            @Doc("relative to the repository root") @Len(min = 1, max = 4096)
            String relativePath,

            @Default("false") boolean staged)
            implements View {}

    @Tag("commit")
    public record CommitView(CommitId commit) implements View {}

    public record OpenInput(
            WorkspaceId workspaceId,

            @Doc(REPOSITORY) @Len(max = 4096) @Default("\"\"")
            String repositoryRelative,

            View view,

            @Doc("the domainRevision") Decimal expectedRevision,

            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable, LayoutBased {}

    @Tag("git_opened")
    public record Opened(
            @Doc("the layout revision after the change") Decimal domainRevision,
            String workspaceId,
            String panelId,
            String repositoryRelative,
            View view) {}

    // --- lomi_git_mutate

    /** The seven mutations. */
    public enum Operation {
        STAGE,
        UNSTAGE,
        COMMIT,
        DISCARD,
        FETCH,
        PULL,
        PUSH
    }

    public enum PullMode {
        FF_ONLY,
        REBASE
    }

    public record MutateInput(
            WorkspaceId workspaceId,

            @Doc(REPOSITORY) @Len(max = 4096) @Default("\"\"")
            String repositoryRelative,

            Operation operation,

            @Doc(
                    "stage, unstage, discard (tracked only): the files; commit: the whole staged set; fetch, pull, push: []")
            @Items(max = 64)
            @Len(min = 1, max = 4096)
            List<String> paths,

            @Doc("commit only") @Len(min = 1, max = 65_536) Optional<String> message,

            @Doc("fetch, pull, push") @Len(min = 1, max = 255) @Matches(NAME)
            Optional<String> remote,

            @Doc("fetch, pull, push") @Len(min = 12, max = 255) @Matches("refs/heads/[^\\u0000-\\u0020\\u007f]+")
            Optional<String> reference,

            @Doc("pull, push: the current HEAD") Optional<CommitId> sourceCommit,

            @Doc("push: the remote's commit (null = branch must not exist); pull: the fetched commit")
            Optional<CommitId> expectedRemoteCommit,

            @Doc("pull only") Optional<PullMode> pullMode,

            @Doc("the domainRevision") Decimal expectedRevision,

            @Doc("from lomi_git_status") Optional<Hex64> expectedObservationRevision,

            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable, LayoutBased {

        public MutateInput {
            String op = operation.name().toLowerCase(java.util.Locale.ROOT);
            List<String> allowed = switch (operation) {
                case STAGE, UNSTAGE, DISCARD -> List.of();
                case COMMIT -> List.of("message");
                case FETCH -> List.of("remote", "reference");
                case PUSH -> List.of("remote", "reference", "sourceCommit", "expectedRemoteCommit");
                case PULL -> List.of("remote", "reference", "sourceCommit", "expectedRemoteCommit", "pullMode");
            };
            List<String> given = new ArrayList<>();
            message.ifPresent(m -> given.add("message"));
            remote.ifPresent(r -> given.add("remote"));
            reference.ifPresent(r -> given.add("reference"));
            sourceCommit.ifPresent(c -> given.add("sourceCommit"));
            expectedRemoteCommit.ifPresent(c -> given.add("expectedRemoteCommit"));
            pullMode.ifPresent(m -> given.add("pullMode"));
            for (String field : given) {
                if (!allowed.contains(field)) {
                    throw new LomiException(
                            ErrorCode.INVALID_ARGUMENT,
                            "git " + op + " takes "
                                    + (allowed.isEmpty()
                                            ? "only paths"
                                            : String.join(", ", allowed)
                                                    + (operation == Operation.COMMIT ? " and paths" : ""))
                                    + ", not " + field);
                }
            }
            List<String> required = switch (operation) {
                case PUSH -> List.of("remote", "reference", "sourceCommit");
                case PULL -> List.of("remote", "reference", "sourceCommit", "expectedRemoteCommit", "pullMode");
                default -> allowed;
            };
            for (String field : required) {
                if (!given.contains(field)) {
                    throw new LomiException(ErrorCode.INVALID_ARGUMENT, "git " + op + " needs " + field);
                }
            }
            boolean network =
                    operation == Operation.FETCH || operation == Operation.PULL || operation == Operation.PUSH;
            if (network && !paths.isEmpty()) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT, "git " + op + " takes paths: [] (it names no files)");
            }
            if (!network && paths.isEmpty()) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT,
                        "git " + op + " needs paths (1-64 files"
                                + (operation == Operation.COMMIT ? ": the complete staged set)" : ")"));
            }
        }
    }

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

    // --- the declarations, in catalog order

    public static final ToolSpec<StatusInput> STATUS = ToolSpec.read(
            "lomi_git_status",
            "Git status",
            "git.read",
            "R-I-",
            StatusInput.class,
            Status.class,
            "The repository's branch, HEAD and changed paths, with its observationRevision.");

    public static final ToolSpec<DiffInput> DIFF = ToolSpec.read(
            "lomi_git_diff",
            "Git diff of one path",
            "git.read",
            "R-I-",
            DiffInput.class,
            Diff.class,
            "The unified diff of one path (worktree, staged or a commit), paged.");

    public static final ToolSpec<HistoryInput> HISTORY = ToolSpec.read(
            "lomi_git_history",
            "Git history",
            "git.read",
            "R-I-",
            HistoryInput.class,
            History.class,
            "Commits reachable from HEAD (or commit), newest first, optionally only those touching one path.");

    public static final ToolSpec<CommitInput> COMMIT = ToolSpec.read(
            "lomi_git_commit",
            "Git commit details",
            "git.read",
            "R-I-",
            CommitInput.class,
            Commit.class,
            "One commit: metadata, message and changed files.");

    public static final ToolSpec<RemotesInput> REMOTES = ToolSpec.read(
            "lomi_git_remotes",
            "Git remotes",
            "git.read",
            "R-I-",
            RemotesInput.class,
            Remotes.class,
            "The configured remotes with transport, host and port; URLs and credentials are never shown.");

    public static final ToolSpec<OpenInput> OPEN = ToolSpec.operation(
            "lomi_git_open",
            "Open a git view",
            "git.read",
            "--I-",
            OpenInput.class,
            Opened.class,
            "Opens a read-only panel showing one path's diff or one commit.");

    public static final ToolSpec<MutateInput> MUTATE = ToolSpec.operation(
            "lomi_git_mutate",
            "Change the repository (admin approves)",
            "git.write",
            "-DIO",
            MutateInput.class,
            Mutated.class,
            "Stages, unstages, discards, commits, fetches, pulls or pushes, once the admin approves the exact plan.");

    public static final List<ToolSpec<?>> ALL = List.of(STATUS, DIFF, HISTORY, COMMIT, REMOTES, OPEN, MUTATE);
}
