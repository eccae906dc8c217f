package dev.lomicontrol.files;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.util.HexFormat;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * Temporary files for atomic publication: {@code .lomi-<random>} in the target's own directory,
 * created {@code O_EXCL|O_NOFOLLOW} with mode 0600, written, given the final mode, and fsynced.
 * Also the never-overwrite publish ({@code renameat2(RENAME_NOREPLACE)}, with a {@code linkat}
 * fallback for files on file systems without it) and directory fsync.
 */
final class Staging {

    static final String PREFIX = ".lomi-";

    private final RandomGenerator random;

    Staging(RandomGenerator random) {
        this.random = random;
    }

    /** Stages {@code bytes} next to the target; returns the temporary name. Removes it on failure. */
    String stage(Fd dir, byte[] bytes, int mode, @Nullable Stat owner) {
        String name = PREFIX + randomHex();
        int flags = Libc.O_WRONLY | Libc.O_CREAT | Libc.O_EXCL | Libc.O_NOFOLLOW;
        try (Fd fd = Fd.openAt(dir.raw(), name, flags, 0600, "create temporary file")) {
            try {
                fd.writeAll(bytes);
                if (owner != null) {
                    keepOwner(fd, owner);
                }
                fd.chmod(mode);
                fd.fsync("fsync temporary file");
            } catch (RuntimeException e) {
                discard(dir, name);
                throw e;
            }
        }
        return name;
    }

    private static void keepOwner(Fd fd, Stat owner) {
        Stat mine = fd.stat();
        if (mine.uid() != owner.uid() || mine.gid() != owner.gid()) {
            if (Libc.c().fchown(fd.raw(), owner.uid(), owner.gid()) < 0) {
                throw new LomiException(ErrorCode.SCOPE_DENIED, "the file's owner could not be preserved");
            }
        }
    }

    /** Best-effort removal of a staged file. */
    static void discard(Fd dir, String name) {
        Libc.c().unlinkat(dir.raw(), Libc.cstr(name), 0);
    }

    /**
     * Moves {@code from} in {@code fromDir} to {@code to} in {@code toDir} only if {@code to} does not
     * exist: {@code REVISION_CONFLICT} when it does. A file system without {@code RENAME_NOREPLACE}
     * falls back to link-then-unlink for files and is {@code UNSUPPORTED_CAPABILITY} for directories.
     */
    static void publishNoReplace(Fd fromDir, String from, Fd toDir, String to, boolean isFile) {
        int r = Libc.c().renameat2(fromDir.raw(), Libc.cstr(from), toDir.raw(), Libc.cstr(to), Libc.RENAME_NOREPLACE);
        if (r == 0) {
            return;
        }
        int errno = Libc.errno();
        if (errno == Libc.EEXIST) {
            throw new LomiException(ErrorCode.REVISION_CONFLICT, "'" + to + "' already exists");
        }
        boolean unsupported = errno == Libc.EINVAL || errno == Libc.ENOSYS || errno == Libc.EOPNOTSUPP;
        if (!unsupported) {
            throw Libc.error(errno, "rename");
        }
        if (!isFile) {
            throw new LomiException(
                    ErrorCode.UNSUPPORTED_CAPABILITY, "the file system cannot rename without overwriting");
        }
        Libc.check(Libc.c().linkat(fromDir.raw(), Libc.cstr(from), toDir.raw(), Libc.cstr(to), 0), "link");
        Libc.check(Libc.c().unlinkat(fromDir.raw(), Libc.cstr(from), 0), "unlink");
    }

    /** fsyncs a directory (an {@code O_PATH} descriptor cannot be fsynced, so it is reopened). */
    static void syncDirectory(Fd dir) {
        try (Fd readable = Fd.openAt(dir.raw(), ".", Libc.DIRECTORY_READ, 0, "open directory")) {
            readable.fsync("fsync directory");
        }
    }

    private String randomHex() {
        byte[] bytes = new byte[12];
        random.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
