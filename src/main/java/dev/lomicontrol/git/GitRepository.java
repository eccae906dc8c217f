package dev.lomicontrol.git;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.LogCommand;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.DiffFormatter;
import org.eclipse.jgit.dircache.DirCacheIterator;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.patch.FileHeader;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.AbstractTreeIterator;
import org.eclipse.jgit.treewalk.FileTreeIterator;
import org.eclipse.jgit.treewalk.filter.PathFilter;

/**
 * One project's git repository, the project root being the worktree root. Reads are bounded and
 * never show secret paths or remote credentials; mutations run only as an approved {@link GitPlan}.
 * Each call opens the repository afresh, so an instance holds no file handles.
 */
public final class GitRepository {

    static final int MAX_SKIP = 10_000;
    static final int MAX_LIMIT = 100;
    static final int MAX_MESSAGE_CHARS = 64 * 1024;
    /** The largest diff text held in memory for paging (PAYLOAD_TOO_LARGE beyond). */
    static final int MAX_DIFF_BYTES = 16 * 1024 * 1024;

    private final Path root;
    private final int transportTimeoutSeconds;

    private GitRepository(Path root, int transportTimeoutSeconds) {
        this.root = root;
        this.transportTimeoutSeconds = transportTimeoutSeconds;
    }

    /** The same repository whose fetches, pulls and pushes give up after {@code seconds} without data moving. */
    GitRepository withTransportTimeout(int seconds) {
        return new GitRepository(root, seconds);
    }

    /**
     * Opens the repository whose worktree is {@code projectRoot}; TARGET_NOT_FOUND without a {@code .git}
     * directory (a {@code .git} file, as in linked worktrees and submodules, is not supported).
     */
    public static GitRepository open(Path projectRoot) {
        Path root = projectRoot.toAbsolutePath().normalize();
        if (!Files.isDirectory(root.resolve(".git"), LinkOption.NOFOLLOW_LINKS)) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "the project is not a git repository");
        }
        return new GitRepository(root, Executor.TRANSPORT_TIMEOUT_SECONDS);
    }

    /** The HEAD commit id, or "" in an empty repository (no status walk). */
    public String head() {
        return read(repo -> {
            ObjectId head = repo.resolve("HEAD^{commit}");
            return head == null ? "" : head.name();
        });
    }

    /** The current status, secret paths omitted, sorted by path. */
    public GitStatus status() {
        return read(StatusReader::read);
    }

    /**
     * The unified diff of one path: {@code worktree} is index against files, {@code staged} is HEAD
     * against the index, {@code commit} is the commit against its first parent. Worktree and staged
     * diffs need the caller's {@code expectedObservationRevision} to still match (REVISION_CONFLICT);
     * commit diffs are immutable and accept {@code ""} to skip that check.
     */
    public GitDiff diff(String path, String source, Optional<String> commit, String expectedObservationRevision) {
        if (expectedObservationRevision.isEmpty() && !source.equals("commit")) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "expectedObservationRevision is required");
        }
        return diffAt(path, source, commit, expectedObservationRevision);
    }

    /**
     * The first page of a diff as the repository is now (the reference's first page names no
     * observation): the answer's observationRevision is the one later pages must name.
     */
    public GitDiff diff(String path, String source, Optional<String> commit) {
        return diffAt(path, source, commit, "");
    }

    private GitDiff diffAt(String path, String source, Optional<String> commit, String expectedObservationRevision) {
        String checked = GitPaths.checked(path);
        return read(repo -> {
            GitStatus status = StatusReader.read(repo);
            if (!expectedObservationRevision.isEmpty()
                    && !status.observationRevision().equals(expectedObservationRevision)) {
                throw new LomiException(ErrorCode.REVISION_CONFLICT, "the repository changed since it was observed");
            }
            AbstractTreeIterator[] sides = sides(repo, checked, source, commit);
            return format(repo, checked, sides[0], sides[1], status.observationRevision());
        });
    }

    /** Commits reachable from HEAD, newest first, optionally only those touching {@code path}. */
    public List<GitCommitInfo> history(Optional<String> path, int skip, int limit) {
        return history(Optional.empty(), path, skip, limit);
    }

    /**
     * Commits reachable from {@code start} (a full commit id; HEAD when empty), newest first, optionally
     * only those touching {@code path}. Paging from a fixed start stays stable while HEAD moves.
     */
    public List<GitCommitInfo> history(Optional<String> start, Optional<String> path, int skip, int limit) {
        if (skip < 0 || skip > MAX_SKIP || limit < 1 || limit > MAX_LIMIT) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "skip must be 0.." + MAX_SKIP + " and limit 1.." + MAX_LIMIT);
        }
        Optional<String> checked = path.map(GitPaths::checked);
        return read(repo -> {
            LogCommand log = new Git(repo).log().setSkip(skip).setMaxCount(limit);
            if (start.isPresent()) {
                log.add(resolveCommit(repo, start.get()));
            } else if (repo.resolve("HEAD^{commit}") == null) {
                return List.of();
            }
            checked.ifPresent(log::addPath);
            List<GitCommitInfo> commits = new ArrayList<>();
            for (RevCommit c : log.call()) {
                commits.add(info(c));
            }
            return commits;
        });
    }

    /** One commit by full id: metadata, message (truncated to 64 KiB) and the non-secret files it changed. */
    public GitCommitDetail commit(String id) {
        return read(repo -> {
            RevCommit c = resolveCommit(repo, id);
            List<GitFileChange> files = new ArrayList<>();
            for (DiffEntry e : Trees.scan(repo, Trees.parentTree(repo, c), Trees.tree(repo, c.getTree()), true)) {
                String newPath = e.getChangeType() == DiffEntry.ChangeType.DELETE ? e.getOldPath() : e.getNewPath();
                boolean paired = e.getChangeType() == DiffEntry.ChangeType.RENAME
                        || e.getChangeType() == DiffEntry.ChangeType.COPY;
                if (GitPaths.hidden(newPath) || (paired && GitPaths.hidden(e.getOldPath()))) {
                    continue;
                }
                files.add(new GitFileChange(
                        newPath, paired ? e.getOldPath() : null, Trees.changeName(e.getChangeType())));
            }
            String message = c.getFullMessage();
            if (message.length() > MAX_MESSAGE_CHARS) {
                message = message.substring(0, MAX_MESSAGE_CHARS);
            }
            return new GitCommitDetail(info(c), message, files);
        });
    }

    /** Configured remotes, sorted by name, with credentials redacted from every URL. */
    public List<GitRemote> remotes() {
        return read(repo -> Remotes.read(repo.getConfig()));
    }

    /** Configured remotes as the reference reports them: per URL and role only transport, host and port, never the URL. */
    public List<GitRemoteEndpoint> remoteEndpoints() {
        return read(repo -> Remotes.endpoints(repo.getConfig()));
    }

    /** Validates {@code action} against the repository now and freezes it into an exact plan for approval. */
    public GitPlan plan(GitAction action) {
        return read(repo -> Planner.plan(repo, action));
    }

    /** Runs an approved plan once, re-checking what the plan expected; never retried or replayed. */
    public GitOutcome execute(GitPlan plan) {
        return read(repo -> Executor.execute(repo, plan, transportTimeoutSeconds));
    }

    private static AbstractTreeIterator[] sides(Repository repo, String path, String source, Optional<String> commit)
            throws IOException {
        switch (source) {
            case "worktree" -> {
                requireKnown(repo, path);
                return new AbstractTreeIterator[] {new DirCacheIterator(repo.readDirCache()), new FileTreeIterator(repo)
                };
            }
            case "staged" -> {
                requireKnown(repo, path);
                return new AbstractTreeIterator[] {Trees.headTree(repo), new DirCacheIterator(repo.readDirCache())};
            }
            case "commit" -> {
                RevCommit c = resolveCommit(
                        repo,
                        commit.orElseThrow(() ->
                                new LomiException(ErrorCode.INVALID_ARGUMENT, "a commit diff needs a commit id")));
                return new AbstractTreeIterator[] {Trees.parentTree(repo, c), Trees.tree(repo, c.getTree())};
            }
            default -> throw new LomiException(ErrorCode.INVALID_ARGUMENT, "source must be worktree, staged or commit");
        }
    }

    /** TARGET_NOT_FOUND unless the path is in HEAD, the index or the worktree. */
    private static void requireKnown(Repository repo, String path) throws IOException {
        GitPaths.requireNoLinkedParent(repo.getWorkTree().toPath(), path);
        GitPaths.requireNotDirectory(repo.getWorkTree().toPath(), path);
        GitPaths.requireNotHardLinked(repo.getWorkTree().toPath(), path);
        boolean inIndex = repo.readDirCache().getEntry(path) != null;
        boolean inHead = Trees.inHead(repo, path);
        boolean onDisk = Files.exists(repo.getWorkTree().toPath().resolve(path), LinkOption.NOFOLLOW_LINKS);
        if (!inIndex && !inHead && !onDisk) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "no such path in the repository: " + path);
        }
    }

    private static GitDiff format(
            Repository repo, String path, AbstractTreeIterator a, AbstractTreeIterator b, String revision)
            throws IOException {
        ByteArrayOutputStream out = new BoundedOutput(MAX_DIFF_BYTES);
        boolean binary = false;
        try (DiffFormatter formatter = new DiffFormatter(out)) {
            formatter.setRepository(repo);
            formatter.setPathFilter(PathFilter.create(path));
            for (DiffEntry entry : formatter.scan(a, b)) {
                // the filter also matches everything below a directory of that name: only the path itself
                if (!path.equals(entry.getNewPath()) && !path.equals(entry.getOldPath())) {
                    continue;
                }
                FileHeader header = formatter.toFileHeader(entry);
                binary |= header.getPatchType() != FileHeader.PatchType.UNIFIED;
                formatter.format(entry);
            }
        }
        return new GitDiff(path, out.toString(StandardCharsets.UTF_8), binary, revision);
    }

    static RevCommit resolveCommit(Repository repo, String id) throws IOException {
        if (id == null || !(id.matches("[0-9a-f]{40}") || id.matches("[0-9a-f]{64}"))) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "a commit is named by its full lowercase hex id");
        }
        try (RevWalk walk = new RevWalk(repo)) {
            return walk.parseCommit(ObjectId.fromString(id));
        } catch (MissingObjectException | org.eclipse.jgit.errors.IncorrectObjectTypeException e) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "no such commit: " + id);
        }
    }

    private static GitCommitInfo info(RevCommit c) {
        List<String> parents = Arrays.stream(c.getParents()).map(ObjectId::name).toList();
        var author = c.getAuthorIdent();
        Instant when = author.getWhenAsInstant();
        return new GitCommitInfo(
                c.name(), parents, author.getName(), author.getEmailAddress(), when, c.getShortMessage());
    }

    private <T> T read(RepoFunction<T> body) {
        try (Repository repo = new FileRepositoryBuilder()
                .setFS(new NoRepositoryCode())
                .setGitDir(root.resolve(".git").toFile())
                .setWorkTree(root.toFile())
                .setMustExist(true)
                .build()) {
            return body.apply(repo);
        } catch (IOException e) {
            throw new LomiException(
                    ErrorCode.STORAGE_UNAVAILABLE, "git repository unreadable: " + Remotes.redactText(e.getMessage()));
        } catch (GitAPIException e) {
            throw new LomiException(ErrorCode.STORAGE_UNAVAILABLE, "git failed: " + Remotes.redactText(e.getMessage()));
        }
    }

    /** Collects a diff and refuses to grow past a bound instead of exhausting memory on a huge file. */
    private static final class BoundedOutput extends ByteArrayOutputStream {

        private final int limit;

        BoundedOutput(int limit) {
            this.limit = limit;
        }

        @Override
        public synchronized void write(int b) {
            require(1);
            super.write(b);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            require(len);
            super.write(b, off, len);
        }

        private void require(int more) {
            if (size() + (long) more > limit) {
                throw new LomiException(
                        ErrorCode.PAYLOAD_TOO_LARGE,
                        "the diff is larger than " + (limit >> 20) + " MiB; read the file instead");
            }
        }
    }

    /** A repository operation that may fail with I/O or JGit errors. */
    @FunctionalInterface
    interface RepoFunction<T> {
        T apply(Repository repo) throws IOException, GitAPIException;
    }
}
