package dev.lomicontrol.files;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * One approved project folder: the only way the broker reads or changes project files.
 *
 * <p>The root is pinned by (device, inode) at construction; every call reopens it by path and a
 * replaced root is {@code REVISION_CONFLICT}. Below the root, each component is opened relative to
 * its parent without following links. Secret names, symlinks, multiply linked files, special files
 * and other mounts are refused on direct access ({@code SCOPE_DENIED}) and omitted from listings
 * ({@code filtered}). MCP/IDE client configuration ({@link ClientConfigurationPaths}) is read like any
 * file but never written, renamed, moved into or out of, or trashed ({@code SCOPE_DENIED}). Missing
 * entries are {@code TARGET_NOT_FOUND}. Every mutation is a
 * compare-and-set on revisions and never overwrites anything except the file that {@link #replace}
 * replaces atomically. This is an application boundary for agents, not an OS sandbox.
 *
 * <p>Thread-safe: instances hold no open descriptors and no mutable state.
 */
public final class ProjectFiles {

    /** Largest content accepted by {@link #replace} and {@link #create}. */
    public static final int MAX_WRITE_BYTES = 4 * 1024 * 1024;

    private final Tree tree;
    private final Mutator mutator;
    private final Trash trash;
    private final LongSupplier nanoTime;

    /** Pins {@code root}, which must be an absolute, canonical (link-free) directory. */
    public ProjectFiles(Path root) {
        this(root, Checkpoints.NONE, new SecureRandom(), System::nanoTime);
    }

    ProjectFiles(Path root, Checkpoints checkpoints, RandomGenerator random, LongSupplier nanoTime) {
        this.tree = new Tree(canonical(root), checkpoints);
        this.mutator = new Mutator(tree, new Staging(random), checkpoints);
        this.trash = new Trash(tree, mutator, checkpoints);
        this.nanoTime = nanoTime;
    }

    private static Path canonical(Path root) {
        if (!root.isAbsolute()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "project root must be absolute");
        }
        try {
            if (!root.toRealPath().equals(root)) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "project root must be canonical");
            }
        } catch (IOException e) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "project root is not accessible");
        }
        return root;
    }

    /** The pinned root folder. */
    public Path root() {
        return tree.root();
    }

    /**
     * One directory's visible entries, sorted by name (at most 10,000, else
     * {@code RESOURCE_EXHAUSTED}). Secrets, links, multiply linked files, special files, other mounts
     * and names that are not valid UTF-8 paths are omitted and set {@code filtered}.
     */
    public Listing list(RelativePath directory) {
        try (Fd dir = tree.openDirectory(directory)) {
            DirectorySnapshot snapshot = DirectorySnapshot.of(tree, dir);
            List<Entry> entries = new ArrayList<>(snapshot.items().size());
            for (DirectorySnapshot.Item item : snapshot.items()) {
                long length = item.kind() == EntryKind.FILE ? item.stat().size() : 0;
                entries.add(new Entry(item.name(), directory.child(item.name()).toString(), item.kind(), length));
            }
            return new Listing(snapshot.revision(), entries, snapshot.filtered(), entries.size());
        }
    }

    /**
     * SHA-256 over the directory's identity (dev, ino, mtime, ctime) and its visible names, kinds
     * and inodes. It changes when an entry is added, removed or renamed, not when a file's content
     * changes.
     */
    public String directoryRevision(RelativePath directory) {
        try (Fd dir = tree.openDirectory(directory)) {
            return DirectorySnapshot.of(tree, dir).revision();
        }
    }

    /** A file's disk revision or a directory's directory revision; the root is a directory. */
    public String entryRevision(RelativePath entry) {
        if (entry.isRoot()) {
            return directoryRevision(entry);
        }
        try (Tree.Located located = tree.locate(entry)) {
            return mutator.state(located).revision();
        }
    }

    /**
     * The exact bytes of a regular single-link file of at most 4 MiB ({@code RESOURCE_EXHAUSTED}
     * above), its disk revision and mode. A file that changes during the read is
     * {@code REVISION_CONFLICT}.
     */
    public FileSnapshot read(RelativePath file) {
        try (Tree.Located located = tree.locate(file)) {
            FileContent content =
                    FileContent.read(tree, located.parent(), located.name(), located.stat(), file.toString());
            return new FileSnapshot(
                    content.bytes(), content.revision(), content.stamp().permissions());
        }
    }

    /**
     * Searches the visible files below {@code directory} (sorted, depth first) for {@code query}.
     * Bounded: at most {@code maxMatches} (capped at 256) matches and 128 KiB of previews, files up
     * to 4 MiB, 32 MiB and 10,000 entries in total, 15 seconds; a bound reached sets
     * {@code truncated}. Binary or over-large files and lines over 32 KiB are skipped and counted.
     * Globs match the project-relative path; a glob without {@code /} matches the file name.
     */
    public SearchResult search(RelativePath directory, SearchQuery query, int maxMatches) {
        return new Search(tree, query, maxMatches, nanoTime).run(directory);
    }

    /**
     * Atomically replaces a file's content if it still has {@code expectedDiskRevision}: the bytes are
     * staged in a {@code .lomi-<random>} file beside it (mode and owner of the original), fsynced,
     * the revision and stamp rechecked, then renamed over it and the directory fsynced. Stale is
     * {@code REVISION_CONFLICT} with the file untouched; setuid/setgid/sticky and read-only files are
     * {@code SCOPE_DENIED}; more than 4 MiB is {@code PAYLOAD_TOO_LARGE}. A failure after the rename
     * is {@code OUTCOME_UNKNOWN}.
     */
    public Mutation replace(RelativePath file, byte[] bytes, String expectedDiskRevision) {
        return mutator.replace(file, bytes, expectedDiskRevision);
    }

    /**
     * Creates a file (mode 0600, with {@code initialBytes}, published atomically) or an empty
     * directory (mode 0700) if the parent still has {@code expectedParentRevision}. Never overwrites:
     * an existing name is {@code REVISION_CONFLICT}.
     */
    public Mutation create(RelativePath path, EntryKind kind, String expectedParentRevision, byte[] initialBytes) {
        return mutator.create(path, kind, expectedParentRevision, initialBytes);
    }

    /** Renames an entry within its directory, checking both revisions; never overwrites. */
    public Mutation rename(
            RelativePath path,
            String newName,
            EntryKind kind,
            String expectedEntryRevision,
            String expectedParentRevision) {
        return mutator.rename(path, newName, kind, expectedEntryRevision, expectedParentRevision);
    }

    /**
     * Moves an entry to {@code destination}, its full new path (the reference's
     * {@code targetRelativePath}), if the entry still has {@code expectedEntryRevision} and the
     * destination's parent directory still has {@code expectedDestinationParentRevision} (the
     * reference's {@code expectedParentRevision}); never overwrites, and a directory cannot move
     * onto or into itself ({@code SCOPE_DENIED}). The returned {@code parentRevision} is the
     * destination parent's.
     */
    public Mutation move(
            RelativePath path,
            RelativePath destination,
            EntryKind kind,
            String expectedEntryRevision,
            String expectedDestinationParentRevision) {
        return mutator.move(path, destination, kind, expectedEntryRevision, expectedDestinationParentRevision);
    }

    /**
     * Moves an entry out of the project into {@code recoveryRoot/<operationId>/entry} after durably
     * writing {@code plan.json} there, then writes {@code completed.json}. Nothing is ever restored
     * automatically. A recovery folder on another device is {@code UNSUPPORTED_CAPABILITY}; an
     * operation id already used is {@code IDEMPOTENCY_CONFLICT}.
     */
    public Mutation trash(
            RelativePath path,
            EntryKind kind,
            String expectedEntryRevision,
            String expectedParentRevision,
            Path recoveryRoot,
            String operationId) {
        return trash.run(path, kind, expectedEntryRevision, expectedParentRevision, recoveryRoot, operationId);
    }
}
