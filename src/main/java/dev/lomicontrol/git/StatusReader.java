package dev.lomicontrol.git;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.Status;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.RawText;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheEntry;
import org.eclipse.jgit.dircache.DirCacheIterator;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.jspecify.annotations.Nullable;

/** Builds a {@link GitStatus}: staged changes with rename detection, worktree changes, and the observation revision. */
final class StatusReader {

    /** More changes than this is refused rather than truncated silently. */
    static final int MAX_CHANGES = 4096;

    /** Only the first bytes decide whether content is binary, as git itself does. */
    private static final int BINARY_PROBE = 8000;

    private StatusReader() {}

    static GitStatus read(Repository repo) throws IOException, GitAPIException {
        Status status = new Git(repo).status().call();
        ObjectId head = repo.resolve("HEAD^{commit}");
        Map<String, Builder> byPath = new TreeMap<>();
        for (DiffEntry entry :
                Trees.scan(repo, Trees.headTree(repo), new DirCacheIterator(repo.readDirCache()), true)) {
            Builder b = byPath.computeIfAbsent(path(entry), Builder::new);
            b.staged = entry.getChangeType() == DiffEntry.ChangeType.COPY
                    ? "added"
                    : Trees.changeName(entry.getChangeType());
            if (entry.getChangeType() == DiffEntry.ChangeType.RENAME) {
                b.oldPath = entry.getOldPath();
            }
        }
        mark(byPath, status.getModified(), "modified");
        mark(byPath, status.getMissing(), "deleted");
        mark(byPath, status.getUntracked(), "untracked");
        for (String conflicted : status.getConflicting()) {
            byPath.computeIfAbsent(conflicted, Builder::new).conflicted = true;
        }
        return assemble(repo, head, byPath);
    }

    private static GitStatus assemble(Repository repo, ObjectId head, Map<String, Builder> byPath) throws IOException {
        List<GitChange> changes = new ArrayList<>();
        boolean filtered = false;
        MessageDigest digest = sha256();
        update(digest, head == null ? "" : head.name());
        hashIndex(repo.readDirCache(), digest);
        Path root = repo.getWorkTree().toPath();
        for (Builder b : byPath.values()) {
            if (GitPaths.hidden(b.path) || (b.oldPath != null && GitPaths.hidden(b.oldPath))) {
                filtered = true;
                continue;
            }
            if (changes.size() == MAX_CHANGES) {
                throw new LomiException(ErrorCode.RESOURCE_EXHAUSTED, "more than " + MAX_CHANGES + " changes");
            }
            update(digest, "change:" + b.path + ":" + b.staged + ":" + b.worktree);
            update(digest, fileHash(root.resolve(b.path)));
            changes.add(new GitChange(b.path, b.oldPath, b.staged, b.worktree, binary(repo, root, b), b.conflicted));
        }
        String branch = repo.getBranch() == null || ObjectId.isId(repo.getBranch()) ? "" : repo.getBranch();
        String revision = HexFormat.of().formatHex(digest.digest());
        return new GitStatus(revision, branch, head == null ? "" : head.name(), changes, filtered);
    }

    private static void mark(Map<String, Builder> byPath, Set<String> paths, String state) {
        for (String p : paths) {
            byPath.computeIfAbsent(p, Builder::new).worktree = state;
        }
    }

    private static String path(DiffEntry entry) {
        return entry.getChangeType() == DiffEntry.ChangeType.DELETE ? entry.getOldPath() : entry.getNewPath();
    }

    private static void hashIndex(DirCache index, MessageDigest digest) {
        for (int i = 0; i < index.getEntryCount(); i++) {
            DirCacheEntry e = index.getEntry(i);
            if (!GitPaths.hidden(e.getPathString())) {
                update(
                        digest,
                        "index:" + e.getPathString() + ":" + e.getStage() + ":" + e.getRawMode() + ":"
                                + e.getObjectId().name());
            }
        }
    }

    /** Binary when the worktree file (or, if gone, the staged blob) looks binary. */
    private static boolean binary(Repository repo, Path root, Builder b) throws IOException {
        Path file = root.resolve(b.path);
        if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            try (InputStream in = Files.newInputStream(file)) {
                return RawText.isBinary(in.readNBytes(BINARY_PROBE));
            }
        }
        DirCacheEntry staged = repo.readDirCache().getEntry(b.path);
        if (staged == null) {
            return false;
        }
        try (var reader = repo.newObjectReader();
                InputStream in = reader.open(staged.getObjectId()).openStream()) {
            return RawText.isBinary(in.readNBytes(BINARY_PROBE));
        }
    }

    private static String fileHash(Path file) throws IOException {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return Files.exists(file, LinkOption.NOFOLLOW_LINKS) ? "other" : "missing";
        }
        MessageDigest digest = sha256();
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[65536];
            for (int n; (n = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    private static void update(MessageDigest digest, String text) {
        digest.update(text.getBytes(StandardCharsets.UTF_8));
        digest.update((byte) 0);
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Mutable accumulator for one path while the status is assembled. */
    private static final class Builder {
        final String path;

        @Nullable
        String oldPath;

        String staged = "none";
        String worktree = "none";
        boolean conflicted;

        Builder(String path) {
            this.path = path;
        }
    }
}
