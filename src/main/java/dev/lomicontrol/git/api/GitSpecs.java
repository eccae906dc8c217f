package dev.lomicontrol.git.api;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.ErrorMessages;
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
import dev.lomicontrol.tools.Items;
import dev.lomicontrol.tools.LayoutBased;
import dev.lomicontrol.tools.Len;
import dev.lomicontrol.tools.Matches;
import dev.lomicontrol.tools.Range;
import dev.lomicontrol.tools.ScopeNeed;
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

    // --- lomi_git_status

    public record StatusInput(
            WorkspaceId workspaceId,

            @Doc(REPOSITORY) @Len(max = 4096) @Default("\"\"")
            String repositoryRelative,

            @Range(min = 1, max = 200) @Default("100") int limit,

            @Len(min = 1, max = 64) @Matches("[0-9a-f]{16}:[0-9]{1,5}")
            Optional<String> cursor) {}

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

    // --- lomi_git_commit

    public record CommitInput(
            WorkspaceId workspaceId,

            @Doc(REPOSITORY) @Len(max = 4096) @Default("\"\"")
            String repositoryRelative,

            CommitId commit,

            @Range(min = 0, max = Integer.MAX_VALUE) @Default("0")
            int filesSkip,

            @Range(min = 1, max = 200) @Default("100") int filesLimit) {}

    // --- lomi_git_remotes

    public record RemotesInput(
            WorkspaceId workspaceId,

            @Doc(REPOSITORY) @Len(max = 4096) @Default("\"\"")
            String repositoryRelative) {}

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

    // --- the declarations, in catalog order

    public static final ToolSpec<StatusInput> STATUS = ToolSpec.read(
            "lomi_git_status",
            "Git status",
            "git.read",
            "R-I-",
            StatusInput.class,
            GitResults.Status.class,
            "The repository's branch, HEAD and changed paths, with its observationRevision.");

    public static final ToolSpec<DiffInput> DIFF = ToolSpec.read(
            "lomi_git_diff",
            "Git diff of one path",
            "git.read",
            "R-I-",
            DiffInput.class,
            GitResults.Diff.class,
            "The unified diff of one path (worktree, staged or a commit), paged.");

    public static final ToolSpec<HistoryInput> HISTORY = ToolSpec.read(
            "lomi_git_history",
            "Git history",
            "git.read",
            "R-I-",
            HistoryInput.class,
            GitResults.History.class,
            "Commits reachable from HEAD (or commit), newest first, optionally only those touching one path.");

    public static final ToolSpec<CommitInput> COMMIT = ToolSpec.read(
            "lomi_git_commit",
            "Git commit details",
            "git.read",
            "R-I-",
            CommitInput.class,
            GitResults.Commit.class,
            "One commit: metadata, message and changed files.");

    public static final ToolSpec<RemotesInput> REMOTES = ToolSpec.read(
            "lomi_git_remotes",
            "Git remotes",
            "git.read",
            "R-I-",
            RemotesInput.class,
            GitResults.Remotes.class,
            "The configured remotes with transport, host and port; URLs and credentials are never shown.");

    public static final ToolSpec<OpenInput> OPEN = ToolSpec.operation(
            "lomi_git_open",
            "Open a git view",
            "git.read",
            "--I-",
            OpenInput.class,
            GitResults.Opened.class,
            "Opens a read-only panel showing one path's diff or one commit.");

    /** What each operation needs besides {@code git.write} and {@code git.execute} (the reference's scope table). */
    static String operationScope(Operation operation) {
        return switch (operation) {
            case STAGE, UNSTAGE, COMMIT -> "git.write";
            case DISCARD -> "git.discard";
            case FETCH -> "git.network";
            case PULL -> "git.pull";
            case PUSH -> "git.push";
        };
    }

    /** Every operation needs {@code git.write}, {@code git.execute} and its own scope, checked in that order. */
    static List<ScopeNeed> mutationScopes(MutateInput in) {
        String name = "git " + in.operation().name().toLowerCase(java.util.Locale.ROOT);
        return java.util.stream.Stream.of("git.write", "git.execute", operationScope(in.operation()))
                .map(scope -> ScopeNeed.of(scope, ErrorMessages.missingScope(name, scope)))
                .toList();
    }

    public static final ToolSpec<MutateInput> MUTATE = ToolSpec.operation(
                    "lomi_git_mutate",
                    "Change the repository (admin approves)",
                    "git.write",
                    "-DIO",
                    MutateInput.class,
                    GitResults.Mutated.class,
                    "Stages, unstages, discards, commits, fetches, pulls or pushes, once the admin approves the exact plan.")
            .withVariantScopes(GitSpecs::mutationScopes);

    public static final List<ToolSpec<?>> ALL = List.of(STATUS, DIFF, HISTORY, COMMIT, REMOTES, OPEN, MUTATE);
}
