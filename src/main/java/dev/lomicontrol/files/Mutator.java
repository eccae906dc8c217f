package dev.lomicontrol.files;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.util.Optional;
import java.util.function.Supplier;

/** The revision-checked mutations behind {@link ProjectFiles}: replace, create, rename and move. */
final class Mutator {

    private static final int SPECIAL_BITS = 07000;
    private static final int OWNER_WRITE = 0200;

    private final Tree tree;
    private final Staging staging;
    private final Checkpoints checkpoints;

    Mutator(Tree tree, Staging staging, Checkpoints checkpoints) {
        this.tree = tree;
        this.staging = staging;
        this.checkpoints = checkpoints;
    }

    Staging staging() {
        return staging;
    }

    /** An entry's revision and the status it was computed from. */
    record State(String revision, Stat stamp) {}

    /** The current revision of a located entry: disk revision for files, directory revision for directories. */
    State state(Tree.Located located) {
        String shown = located.path().toString();
        if (located.stat().isDirectory()) {
            try (Fd dir = tree.openChildDirectory(located.parent(), located.name(), located.stat(), shown)) {
                DirectorySnapshot snapshot = DirectorySnapshot.of(tree, dir);
                return new State(snapshot.revision(), snapshot.self());
            }
        }
        FileContent content = FileContent.read(tree, located.parent(), located.name(), located.stat(), shown);
        return new State(content.revision(), content.stamp());
    }

    Mutation replace(RelativePath file, byte[] bytes, String expectedDiskRevision) {
        requireRevision(expectedDiskRevision, "expectedDiskRevision");
        checkSize(bytes);
        ClientConfigurationPaths.requireWritable(file);
        String shown = file.toString();
        try (Tree.Located located = tree.locate(file)) {
            requireKind(located, EntryKind.FILE);
            try (Fd fd = tree.openFile(located.parent(), located.name(), located.stat(), shown)) {
                FileContent current = FileContent.readOpen(fd, shown, checkpoints);
                expect(current.revision(), expectedDiskRevision, shown);
                int perms = current.stamp().permissions();
                if ((perms & SPECIAL_BITS) != 0) {
                    throw new LomiException(
                            ErrorCode.SCOPE_DENIED, "'" + shown + "' has setuid, setgid or sticky bits");
                }
                if ((perms & OWNER_WRITE) == 0) {
                    throw new LomiException(ErrorCode.SCOPE_DENIED, "'" + shown + "' is read-only");
                }
                String temp = staging.stage(located.parent(), bytes, perms, current.stamp());
                boolean published = false;
                try {
                    checkpoints.reached(Checkpoints.REPLACE_STAGED);
                    recheckParent(located, file);
                    recheckStamp(located, current.stamp());
                    expect(FileContent.readOpen(fd, shown, checkpoints).revision(), expectedDiskRevision, shown);
                    int dir = located.parent().raw();
                    Libc.check(Libc.c().renameat(dir, Libc.cstr(temp), dir, Libc.cstr(located.name())), "rename");
                    published = true;
                } finally {
                    if (!published) {
                        Staging.discard(located.parent(), temp);
                    }
                }
            }
            return afterPublish(() -> {
                Staging.syncDirectory(located.parent());
                String parentRevision =
                        DirectorySnapshot.of(tree, located.parent()).revision();
                return new Mutation(
                        shown, EntryKind.FILE, Optional.of(Revisions.disk(bytes)), parentRevision, Optional.empty());
            });
        }
    }

    Mutation create(RelativePath path, EntryKind kind, String expectedParentRevision, byte[] initialBytes) {
        requireRevision(expectedParentRevision, "expectedParentRevision");
        if (kind == null) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "kind is missing");
        }
        if (path.isRoot()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "the project root already exists");
        }
        checkNewName(path.name(), path);
        ClientConfigurationPaths.requireWritable(path);
        byte[] bytes = initialBytes == null ? new byte[0] : initialBytes;
        if (kind == EntryKind.DIRECTORY && bytes.length > 0) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "a directory has no initial content");
        }
        checkSize(bytes);
        String name = path.name();
        try (Fd parent = tree.openDirectory(path.parent())) {
            expectDirectory(parent, expectedParentRevision, path.parent());
            if (parent.statAt(name).isPresent()) {
                throw new LomiException(ErrorCode.REVISION_CONFLICT, "'" + path + "' already exists");
            }
            if (kind == EntryKind.FILE) {
                String temp = staging.stage(parent, bytes, 0600, null);
                try {
                    checkpoints.reached(Checkpoints.CREATE_STAGED);
                    Staging.publishNoReplace(parent, temp, parent, name, true);
                } catch (RuntimeException e) {
                    Staging.discard(parent, temp);
                    throw e;
                }
            } else {
                Libc.check(Libc.c().mkdirat(parent.raw(), Libc.cstr(name), 0700), "create directory");
            }
            return afterPublish(() -> {
                if (kind == EntryKind.DIRECTORY) {
                    try (Fd made = Fd.openAt(parent.raw(), name, Libc.DIRECTORY_READ, 0, "open new directory")) {
                        made.chmod(0700);
                        made.fsync("fsync new directory");
                    }
                }
                Staging.syncDirectory(parent);
                return result(parent, name, path, kind, Revisions.disk(bytes));
            });
        }
    }

    Mutation rename(
            RelativePath path,
            String newName,
            EntryKind kind,
            String expectedEntryRevision,
            String expectedParentRevision) {
        requireRevision(expectedEntryRevision, "expectedEntryRevision");
        requireRevision(expectedParentRevision, "expectedParentRevision");
        RelativePath target = path.parent().child(newName);
        checkNewName(newName, target);
        ClientConfigurationPaths.requireWritable(path);
        ClientConfigurationPaths.requireWritable(target);
        if (newName.equals(path.name())) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "the new name is the current name");
        }
        try (Tree.Located located = tree.locate(path)) {
            requireKind(located, kind);
            expectDirectory(located.parent(), expectedParentRevision, path.parent());
            State state = state(located);
            expect(state.revision(), expectedEntryRevision, path.toString());
            recheckStamp(located, state.stamp());
            boolean isFile = kind == EntryKind.FILE;
            Staging.publishNoReplace(located.parent(), located.name(), located.parent(), newName, isFile);
            return afterPublish(() -> {
                Staging.syncDirectory(located.parent());
                return result(located.parent(), newName, target, kind, state.revision());
            });
        }
    }

    /**
     * Moves an entry to {@code destination} (the full new path, the reference's
     * {@code targetRelativePath}), checking the entry's own revision and the revision of the
     * destination's parent directory (the reference's {@code expectedParentRevision}); never
     * overwrites. The same path is {@code REVISION_CONFLICT} for a file; a directory moved onto or
     * into itself is {@code SCOPE_DENIED} (as the reference).
     */
    Mutation move(
            RelativePath path,
            RelativePath destination,
            EntryKind kind,
            String expectedEntryRevision,
            String expectedDestinationParentRevision) {
        requireRevision(expectedEntryRevision, "expectedEntryRevision");
        requireRevision(expectedDestinationParentRevision, "expectedParentRevision");
        if (path.isRoot() || destination.isRoot()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "the project root cannot be moved or replaced");
        }
        if (kind == EntryKind.DIRECTORY && destination.startsWith(path)) {
            throw new LomiException(ErrorCode.SCOPE_DENIED, "a directory cannot be moved onto or into itself");
        }
        if (destination.equals(path)) {
            throw new LomiException(ErrorCode.REVISION_CONFLICT, "'" + path + "' is already at that path");
        }
        checkNewName(destination.name(), destination);
        ClientConfigurationPaths.requireWritable(path);
        ClientConfigurationPaths.requireWritable(destination);
        try (Tree.Located located = tree.locate(path);
                Fd targetDir = tree.openDirectory(destination.parent())) {
            requireKind(located, kind);
            expectDirectory(targetDir, expectedDestinationParentRevision, destination.parent());
            State state = state(located);
            expect(state.revision(), expectedEntryRevision, path.toString());
            if (targetDir.stat().dev() != located.stat().dev()) {
                throw new LomiException(ErrorCode.UNSUPPORTED_CAPABILITY, "moving across devices is not supported");
            }
            recheckStamp(located, state.stamp());
            boolean isFile = kind == EntryKind.FILE;
            Staging.publishNoReplace(located.parent(), located.name(), targetDir, destination.name(), isFile);
            return afterPublish(() -> {
                Staging.syncDirectory(targetDir);
                Staging.syncDirectory(located.parent());
                return result(targetDir, destination.name(), destination, kind, state.revision());
            });
        }
    }

    Mutation result(Fd parent, String name, RelativePath path, EntryKind kind, String fileRevision) {
        String parentRevision = DirectorySnapshot.of(tree, parent).revision();
        if (kind == EntryKind.FILE) {
            return new Mutation(path.toString(), kind, Optional.of(fileRevision), parentRevision, Optional.empty());
        }
        Stat st = parent.statAt(name).orElseThrow(() -> Tree.changed(path.toString()));
        try (Fd dir = tree.openChildDirectory(parent, name, st, path.toString())) {
            String dirRevision = DirectorySnapshot.of(tree, dir).revision();
            return new Mutation(path.toString(), kind, Optional.empty(), parentRevision, Optional.of(dirRevision));
        }
    }

    /** Runs the bookkeeping after an effect happened; any failure there is {@code OUTCOME_UNKNOWN}. */
    static Mutation afterPublish(Supplier<Mutation> rest) {
        try {
            return rest.get();
        } catch (LomiException e) {
            String message = "the change was made but could not be confirmed: " + e.getMessage();
            throw new LomiException(ErrorCode.OUTCOME_UNKNOWN, message, e);
        }
    }

    /** The walk to the parent still arrives at the same directory we hold open. */
    void recheckParent(Tree.Located located, RelativePath path) {
        try (Fd again = tree.openDirectory(path.parent())) {
            if (!again.stat().sameIdentity(located.parent().stat())) {
                throw Tree.changed(path.parent().toString());
            }
        }
    }

    /** The name still refers to the same, unchanged inode. */
    static void recheckStamp(Tree.Located located, Stat stamp) {
        Optional<Stat> now = located.parent().statAt(located.name());
        if (now.isEmpty() || !now.get().sameStamp(stamp)) {
            throw Tree.changed(located.path().toString());
        }
    }

    static void requireKind(Tree.Located located, EntryKind kind) {
        if (kind == null) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "kind is missing");
        }
        if (located.kind() != kind) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "'" + located.path() + "' is not a " + kind.wire());
        }
    }

    /** The directory held open still has {@code expected} as its revision. */
    void expectDirectory(Fd dir, String expected, RelativePath shown) {
        expect(DirectorySnapshot.of(tree, dir).revision(), expected, shown.toString());
    }

    static void expect(String actual, String expected, String shown) {
        if (!actual.equals(expected)) {
            throw new LomiException(ErrorCode.REVISION_CONFLICT, "'" + shown + "' changed since its revision was read");
        }
    }

    private static void requireRevision(String revision, String field) {
        if (revision == null || revision.isEmpty()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, field + " is missing");
        }
    }

    private static void checkNewName(String name, RelativePath path) {
        RelativePath.checkName(name);
        if (SecretPaths.isSecretName(name)) {
            throw new LomiException(ErrorCode.SCOPE_DENIED, "'" + path + "' is a protected path");
        }
    }

    private static void checkSize(byte[] bytes) {
        if (bytes == null) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "content is missing");
        }
        if (bytes.length > ProjectFiles.MAX_WRITE_BYTES) {
            throw new LomiException(
                    ErrorCode.PAYLOAD_TOO_LARGE, "content is larger than " + ProjectFiles.MAX_WRITE_BYTES + " bytes");
        }
    }
}
