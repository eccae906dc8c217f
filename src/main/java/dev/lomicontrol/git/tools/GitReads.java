package dev.lomicontrol.git.tools;

import static dev.lomicontrol.git.tools.GitWire.present;
import static dev.lomicontrol.git.tools.GitWire.wire;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.files.TextPage;
import dev.lomicontrol.git.GitChange;
import dev.lomicontrol.git.GitCommitDetail;
import dev.lomicontrol.git.GitCommitInfo;
import dev.lomicontrol.git.GitDiff;
import dev.lomicontrol.git.GitFileChange;
import dev.lomicontrol.git.GitRemoteEndpoint;
import dev.lomicontrol.git.GitStatus;
import dev.lomicontrol.git.api.GitResults;
import dev.lomicontrol.git.api.GitSpecs;
import dev.lomicontrol.git.tools.GitRepositories.Repo;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.tools.CommitId;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The five bounded, paged git reads: {@code lomi_git_status}, {@code lomi_git_diff},
 * {@code lomi_git_history}, {@code lomi_git_commit} and {@code lomi_git_remotes}. Secret paths, remote
 * URLs and credentials never appear in their answers.
 */
final class GitReads {

    static final int MAX_REMOTES = 64;

    private final GitRepositories repositories;

    GitReads(GitRepositories repositories) {
        this.repositories = repositories;
    }

    GitResults.Status status(Session session, GitSpecs.StatusInput in) {
        Repo target = repositories.open(session, in.workspaceId(), in.repositoryRelative());
        GitStatus status = target.git().status();
        int offset = 0;
        if (in.cursor().isPresent()) {
            StatusCursor cursor = StatusCursor.parse(in.cursor().get());
            if (!status.observationRevision().startsWith(cursor.observation())) {
                throw new LomiException(
                        ErrorCode.CURSOR_EXPIRED,
                        "the repository changed since this cursor; read the status again without a cursor");
            }
            offset = Math.min(cursor.offset(), status.changes().size());
        }
        int end = Math.min(status.changes().size(), offset + in.limit());
        boolean hasMore = end < status.changes().size();
        return new GitResults.Status(
                target.workspaceId(),
                target.relative(),
                status.observationRevision(),
                present(status.branch()),
                present(status.head()),
                status.changes().subList(offset, end).stream()
                        .map(GitReads::change)
                        .toList(),
                status.changes().size(),
                status.filtered(),
                hasMore,
                hasMore
                        ? Optional.of(
                                new StatusCursor(status.observationRevision().substring(0, 16), end).wire())
                        : Optional.empty());
    }

    /** The first page may name no observation (the reference's form); later worktree and staged pages must. */
    GitResults.Diff diff(Session session, GitSpecs.DiffInput in) {
        Repo target = repositories.open(session, in.workspaceId(), in.repositoryRelative());
        String comparison = wire(in.comparison());
        Optional<String> commit = in.commit().map(CommitId::value);
        GitDiff diff = in.expectedObservationRevision().isPresent()
                ? target.git()
                        .diff(
                                in.relativePath(),
                                comparison,
                                commit,
                                in.expectedObservationRevision().get().value())
                : target.git().diff(in.relativePath(), comparison, commit);
        TextPage page = diff.page(in.startUtf16(), in.maxChars());
        return new GitResults.Diff(
                target.workspaceId(),
                target.relative(),
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

    GitResults.History history(Session session, GitSpecs.HistoryInput in) {
        Repo target = repositories.open(session, in.workspaceId(), in.repositoryRelative());
        int skip = in.skip();
        int limit = in.limit();
        String from = in.start().map(CommitId::value).orElseGet(target.git()::head);
        List<GitCommitInfo> commits = from.isEmpty()
                ? List.of()
                : target.git().history(Optional.of(from), in.relativePath(), skip, Math.min(limit + 1, 100));
        boolean hasMore = commits.size() > limit
                || (commits.size() == limit
                        && limit == 100
                        && skip + limit <= 10_000
                        && !target.git()
                                .history(Optional.of(from), in.relativePath(), skip + limit, 1)
                                .isEmpty());
        List<GitCommitInfo> page = commits.subList(0, Math.min(limit, commits.size()));
        return new GitResults.History(
                target.workspaceId(),
                target.relative(),
                present(from),
                page.stream().map(GitReads::summary).toList(),
                hasMore,
                hasMore ? Optional.of(skip + page.size()) : Optional.empty());
    }

    GitResults.Commit commit(Session session, GitSpecs.CommitInput in) {
        Repo target = repositories.open(session, in.workspaceId(), in.repositoryRelative());
        GitCommitDetail detail = target.git().commit(in.commit().value());
        List<GitFileChange> all = detail.files();
        int from = Math.min(in.filesSkip(), all.size());
        int end = Math.min(all.size(), from + in.filesLimit());
        boolean hasMore = end < all.size();
        return new GitResults.Commit(
                target.workspaceId(),
                target.relative(),
                summary(detail.info()),
                detail.message(),
                all.subList(from, end).stream()
                        .map(f -> new GitResults.CommitFile(
                                f.path(),
                                Optional.ofNullable(f.oldPath()),
                                GitResults.FileChange.valueOf(f.change().toUpperCase(Locale.ROOT))))
                        .toList(),
                all.size(),
                hasMore,
                hasMore ? Optional.of(end) : Optional.empty());
    }

    /** What the reference discloses per remote and role: transport, host and port; never a URL. */
    GitResults.Remotes remotes(Session session, GitSpecs.RemotesInput in) {
        Repo target = repositories.open(session, in.workspaceId(), in.repositoryRelative());
        List<GitRemoteEndpoint> endpoints = target.git().remoteEndpoints();
        List<GitResults.Remote> remotes = endpoints.subList(0, Math.min(MAX_REMOTES, endpoints.size())).stream()
                .map(e -> new GitResults.Remote(
                        e.name(),
                        e.push() ? GitResults.Role.PUSH : GitResults.Role.FETCH,
                        e.transport(),
                        e.host(),
                        e.port().isPresent() ? Optional.of(e.port().getAsInt()) : Optional.empty(),
                        e.locationRedacted()))
                .toList();
        return new GitResults.Remotes(target.workspaceId(), target.relative(), remotes, endpoints.size() > MAX_REMOTES);
    }

    /**
     * A status page's cursor, {@code "<observation>:<offset>"}: the first 16 characters of the
     * observationRevision it is bound to and the change the next page starts at.
     */
    private record StatusCursor(String observation, int offset) {
        /** The cursor as the input accepted it ({@code [0-9a-f]{16}:[0-9]{1,5}}). */
        static StatusCursor parse(String wire) {
            int colon = wire.indexOf(':');
            return new StatusCursor(wire.substring(0, colon), Integer.parseInt(wire.substring(colon + 1)));
        }

        String wire() {
            return observation + ":" + offset;
        }
    }

    private static GitResults.Change change(GitChange change) {
        return new GitResults.Change(
                change.path(),
                Optional.ofNullable(change.oldPath()),
                GitResults.Staged.valueOf(change.staged().toUpperCase(Locale.ROOT)),
                GitResults.Worktree.valueOf(change.worktree().toUpperCase(Locale.ROOT)),
                change.binary(),
                change.conflicted());
    }

    private static GitResults.CommitSummary summary(GitCommitInfo info) {
        return new GitResults.CommitSummary(
                info.id(),
                info.parents(),
                info.author(),
                info.email(),
                info.when().toString(),
                info.summary());
    }
}
