package dev.lomicontrol.files;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.nio.file.Path;

/**
 * The no-follow walk: every access opens the pinned root by path, proves it is still the same
 * (device, inode), then descends one component at a time with {@code O_PATH|O_NOFOLLOW|O_DIRECTORY},
 * checking each component's kind before opening it and its identity after.
 */
final class Tree {

    private final Path root;
    private final byte[] rootBytes;
    private final long rootDev;
    private final long rootIno;
    private final Checkpoints checkpoints;

    Tree(Path root, Checkpoints checkpoints) {
        if (!root.isAbsolute()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "project root must be absolute");
        }
        this.root = root;
        this.rootBytes = Libc.cstr(root.toString());
        this.checkpoints = checkpoints;
        try (Fd fd = openRootFd()) {
            Stat st = fd.stat();
            this.rootDev = st.dev();
            this.rootIno = st.ino();
        }
    }

    Checkpoints checkpoints() {
        return checkpoints;
    }

    Path root() {
        return root;
    }

    long rootDev() {
        return rootDev;
    }

    long rootIno() {
        return rootIno;
    }

    /** Opens the root and proves it is the pinned directory; otherwise {@code REVISION_CONFLICT}. */
    Fd openRoot() {
        Fd fd;
        try {
            fd = openRootFd();
        } catch (LomiException e) {
            throw new LomiException(ErrorCode.REVISION_CONFLICT, "the project folder was moved or replaced");
        }
        Stat st = fd.stat();
        if (st.dev() != rootDev || st.ino() != rootIno) {
            fd.close();
            throw new LomiException(ErrorCode.REVISION_CONFLICT, "the project folder was moved or replaced");
        }
        return fd;
    }

    private Fd openRootFd() {
        int r = Libc.c().openat(Libc.AT_FDCWD, rootBytes, Libc.DIRECTORY_HANDLE | Libc.O_CLOEXEC, 0);
        if (r < 0) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "project root is not an accessible directory");
        }
        return Fd.adopt(r);
    }

    /** Opens {@code directory} (an {@code O_PATH} descriptor) walking from the root. */
    Fd openDirectory(RelativePath directory) {
        Fd current = openRoot();
        StringBuilder seen = new StringBuilder();
        for (String name : directory.components()) {
            seen.append(seen.length() == 0 ? "" : "/").append(name);
            try (Fd parent = current) {
                current = step(parent, name, seen.toString());
            }
        }
        return current;
    }

    private Fd step(Fd parent, String name, String shown) {
        return openChildDirectory(parent, name, visible(parent, name, shown), shown);
    }

    /** An addressable entry: its open parent directory, its name and its status when checked. */
    record Located(Fd parent, String name, Stat stat, RelativePath path) implements AutoCloseable {
        EntryKind kind() {
            return stat.isDirectory() ? EntryKind.DIRECTORY : EntryKind.FILE;
        }

        @Override
        public void close() {
            parent.close();
        }
    }

    /** Walks to {@code path}'s parent and checks {@code path} itself; the root cannot be located. */
    Located locate(RelativePath path) {
        if (path.isRoot()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "the project root cannot be used here");
        }
        Fd parent = openDirectory(path.parent());
        try {
            return new Located(parent, path.name(), visible(parent, path.name(), path.toString()), path);
        } catch (RuntimeException e) {
            parent.close();
            throw e;
        }
    }

    /** Opens the directory {@code name} in {@code parent}, proving it is still the {@code expected} inode. */
    Fd openChildDirectory(Fd parent, String name, Stat st, String shown) {
        if (!st.isDirectory()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "'" + shown + "' is not a directory");
        }
        checkpoints.reached(Checkpoints.WALK_CHECKED);
        Fd.Result opened = Fd.tryOpenAt(parent.raw(), name, Libc.DIRECTORY_HANDLE, 0);
        if (opened.fd() == null) {
            throw changedOrMissing(opened.errno(), shown);
        }
        Fd next = opened.fd();
        if (!next.stat().sameIdentity(st)) {
            next.close();
            throw changed(shown);
        }
        return next;
    }

    /**
     * The status of {@code name} in {@code parent} when an agent may address it: not secret, present,
     * and a same-device regular file with one link or a directory; otherwise the refusal.
     */
    Stat visible(Fd parent, String name, String shown) {
        if (SecretPaths.isSecretName(name)) {
            throw new LomiException(
                    ErrorCode.SCOPE_DENIED,
                    "'" + shown + "' is a protected path (credentials, keys and version-control internals are never"
                            + " shown to agents); work with other files, and with the lomi_git_* tools for the"
                            + " repository");
        }
        Stat st = parent.statAt(name)
                .orElseThrow(() -> new LomiException(
                        ErrorCode.TARGET_NOT_FOUND,
                        "'" + shown + "' does not exist; list its folder (lomi_files_list) for the names there"));
        if (BrokerDirectories.isProtected(st)) {
            throw new LomiException(
                    ErrorCode.SCOPE_DENIED,
                    "'" + shown + "' is the broker's own protected folder, which agents cannot read or change;"
                            + " work with other files");
        }
        if (!isVisible(st)) {
            throw new LomiException(
                    ErrorCode.SCOPE_DENIED,
                    "'" + shown + "' is a link, a special or multiply linked file, or a mount, which agents cannot"
                            + " use; address the file it stands for by its own path inside the project");
        }
        return st;
    }

    /** Opens a visible regular file for reading without following links or blocking on a FIFO. */
    Fd openFile(Fd parent, String name, Stat expected, String shown) {
        Fd.Result opened =
                Fd.tryOpenAt(parent.raw(), name, Libc.O_RDONLY | Libc.O_NOFOLLOW | Libc.O_NONBLOCK | Libc.O_NOCTTY, 0);
        if (opened.fd() == null) {
            throw changedOrMissing(opened.errno(), shown);
        }
        Fd fd = opened.fd();
        Stat st = fd.stat();
        if (!st.isRegular() || st.nlink() != 1 || !st.sameIdentity(expected)) {
            fd.close();
            throw changed(shown);
        }
        return fd;
    }

    /**
     * True for what agents may see: a directory, or a regular file with one link, on the root's
     * device; never one of the {@linkplain BrokerDirectories broker's own directories}.
     */
    boolean isVisible(Stat st) {
        if (st.dev() != rootDev || st.isMountRoot() || BrokerDirectories.isProtected(st)) {
            return false;
        }
        return st.isDirectory() || (st.isRegular() && st.nlink() == 1);
    }

    static LomiException changed(String shown) {
        return new LomiException(ErrorCode.REVISION_CONFLICT, "'" + shown + "' changed while it was being accessed");
    }

    private static LomiException changedOrMissing(int errno, String shown) {
        if (errno == Libc.ENOENT) {
            return new LomiException(ErrorCode.TARGET_NOT_FOUND, "'" + shown + "' does not exist");
        }
        if (errno == Libc.ELOOP || errno == Libc.ENOTDIR || errno == Libc.EISDIR) {
            return changed(shown);
        }
        return Libc.error(errno, "open '" + shown + "'");
    }
}
