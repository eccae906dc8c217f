package dev.lomicontrol.files.tools;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.files.EntryKind;
import dev.lomicontrol.files.Mutation;
import dev.lomicontrol.files.ProjectFiles;
import dev.lomicontrol.files.RelativePath;
import dev.lomicontrol.files.api.FileSpecs;
import java.nio.file.Path;
import java.util.Locale;

/**
 * One bound {@code lomi_files_mutate} operation. {@code destination} is where the entry ends up
 * (rename: beside it; move: the reference's targetRelativePath); {@code expectedParent} is checked
 * against the directory it is created in, renamed in, moved into, or trashed from. What the reference
 * refuses before any receipt (the project root, a move onto itself or a directory into itself) is
 * refused when it is bound.
 */
record FileChange(
        Type type,
        RelativePath path,
        EntryKind kind,
        RelativePath destination,
        String expectedEntry,
        String expectedParent) {

    /** The operation's type: its wire name is the lower-case constant (the scope each needs is declared with the tool, FileSpecs). */
    enum Type {
        CREATE,
        RENAME,
        MOVE,
        RENAME_DIRECTORY,
        MOVE_DIRECTORY,
        TRASH;

        String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    static FileChange of(FileSpecs.Mutation operation) {
        RelativePath path = RelativePath.parse(operation.relativePath());
        if (path.isRoot()) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    "arguments.operation.relativePath: names an entry, not the project root");
        }
        String parent = operation.expectedParentRevision().value();
        if (operation instanceof FileSpecs.Create create) {
            return new FileChange(Type.CREATE, path, kind(create.kind()), path, "", parent);
        }
        if (operation instanceof FileSpecs.Rename rename) {
            return new FileChange(
                    Type.RENAME,
                    path,
                    EntryKind.FILE,
                    same(path, path.parent().child(name(rename.newName())), EntryKind.FILE),
                    rename.expectedDiskRevision().value(),
                    parent);
        }
        if (operation instanceof FileSpecs.RenameDirectory rename) {
            return new FileChange(
                    Type.RENAME_DIRECTORY,
                    path,
                    EntryKind.DIRECTORY,
                    same(path, path.parent().child(name(rename.newName())), EntryKind.DIRECTORY),
                    rename.expectedDirectoryRevision().value(),
                    parent);
        }
        if (operation instanceof FileSpecs.Move move) {
            return new FileChange(
                    Type.MOVE,
                    path,
                    EntryKind.FILE,
                    destination(path, move.targetRelativePath(), EntryKind.FILE),
                    move.expectedDiskRevision().value(),
                    parent);
        }
        if (operation instanceof FileSpecs.MoveDirectory move) {
            return new FileChange(
                    Type.MOVE_DIRECTORY,
                    path,
                    EntryKind.DIRECTORY,
                    destination(path, move.targetRelativePath(), EntryKind.DIRECTORY),
                    move.expectedDirectoryRevision().value(),
                    parent);
        }
        FileSpecs.Trash trash = (FileSpecs.Trash) operation;
        return new FileChange(
                Type.TRASH,
                path,
                kind(trash.kind()),
                path,
                trash.expectedEntryRevision().value(),
                parent);
    }

    /** The revisions the change is based on, checked before the receipt exists (stale → REVISION_CONFLICT). */
    void precheck(ProjectFiles files) {
        if (type != Type.CREATE) {
            requireSame(files.entryRevision(path), expectedEntry, path.toString());
        }
        requireSame(files.directoryRevision(destination.parent()), expectedParent, "the parent of " + destination);
    }

    Mutation apply(ProjectFiles files, Path recoveryRoot, String operationId) {
        switch (type) {
            case CREATE:
                return files.create(path, kind, expectedParent, new byte[0]);
            case RENAME:
            case RENAME_DIRECTORY:
                return files.rename(path, destination.name(), kind, expectedEntry, expectedParent);
            case MOVE:
            case MOVE_DIRECTORY:
                return files.move(path, destination, kind, expectedEntry, expectedParent);
            default:
                return files.trash(path, kind, expectedEntry, expectedParent, recoveryRoot, operationId);
        }
    }

    private static void requireSame(String actual, String expected, String what) {
        if (!actual.equals(expected)) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT, what + " changed since the revision you sent; list or read it again");
        }
    }

    /** The destination of a move, refused before any receipt where the reference refuses it: onto itself, a directory into itself. */
    private static RelativePath destination(RelativePath path, String target, EntryKind kind) {
        RelativePath destination = RelativePath.parse(target);
        if (destination.isRoot()) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    "arguments.operation.targetRelativePath: is the destination path, not the project root");
        }
        return same(path, destination, kind);
    }

    /** As the reference (a rename is a move beside it): onto itself is REVISION_CONFLICT for a file, SCOPE_DENIED for a directory. */
    private static RelativePath same(RelativePath path, RelativePath destination, EntryKind kind) {
        if (kind == EntryKind.DIRECTORY && destination.startsWith(path)) {
            throw new LomiException(ErrorCode.SCOPE_DENIED, "a directory cannot be moved onto or into itself");
        }
        if (destination.equals(path)) {
            throw new LomiException(ErrorCode.REVISION_CONFLICT, "'" + path + "' is already at " + destination);
        }
        return destination;
    }

    private static String name(String name) {
        RelativePath.parse(name);
        return name;
    }

    private static EntryKind kind(FileSpecs.EntryType type) {
        return type == FileSpecs.EntryType.FILE ? EntryKind.FILE : EntryKind.DIRECTORY;
    }
}
