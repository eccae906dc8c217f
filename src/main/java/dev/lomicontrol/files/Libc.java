package dev.lomicontrol.files;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * The few libc calls the no-follow walk needs, bound with JNA. Every call returns -1 (or null) on
 * failure; {@link #check} turns that into a {@link LomiException} carrying a mapped error code.
 * Names are passed as NUL-terminated UTF-8 bytes so the JVM's locale never re-encodes them.
 */
final class Libc {

    /** The raw bindings; errno is read with {@link Native#getLastError()} right after a failed call. */
    interface C extends Library {
        int openat(int dirfd, byte[] path, int flags, int mode);

        int statx(int dirfd, byte[] path, int flags, int mask, byte[] statxbuf);

        int close(int fd);

        long read(int fd, byte[] buf, long count);

        long pread(int fd, byte[] buf, long count, long offset);

        long write(int fd, byte[] buf, long count);

        int fsync(int fd);

        int fchmod(int fd, int mode);

        int fchown(int fd, int uid, int gid);

        int renameat(int olddirfd, byte[] oldpath, int newdirfd, byte[] newpath);

        int renameat2(int olddirfd, byte[] oldpath, int newdirfd, byte[] newpath, int flags);

        int linkat(int olddirfd, byte[] oldpath, int newdirfd, byte[] newpath, int flags);

        int unlinkat(int dirfd, byte[] path, int flags);

        int mkdirat(int dirfd, byte[] path, int mode);

        Pointer fdopendir(int fd);

        Pointer readdir64(Pointer dirp);

        int closedir(Pointer dirp);
    }

    static final int AT_FDCWD = -100;
    static final int O_RDONLY = 0;
    static final int O_WRONLY = 1;
    static final int O_CREAT = 0100;
    static final int O_EXCL = 0200;
    static final int O_NOCTTY = 0400;
    static final int O_NONBLOCK = 04000;
    static final int O_DIRECTORY;
    static final int O_NOFOLLOW;
    static final int O_CLOEXEC = 02000000;
    static final int O_PATH = 010000000;
    static final int AT_SYMLINK_NOFOLLOW = 0x100;
    static final int AT_REMOVEDIR = 0x200;
    static final int AT_EMPTY_PATH = 0x1000;
    static final int RENAME_NOREPLACE = 1;

    static final int EPERM = 1;
    static final int ENOENT = 2;
    static final int EINTR = 4;
    static final int EACCES = 13;
    static final int EEXIST = 17;
    static final int EXDEV = 18;
    static final int ENOTDIR = 20;
    static final int EISDIR = 21;
    static final int EINVAL = 22;
    static final int ENOSPC = 28;
    static final int EMLINK = 31;
    static final int ENAMETOOLONG = 36;
    static final int ENOSYS = 38;
    static final int ENOTEMPTY = 39;
    static final int ELOOP = 40;
    static final int EOPNOTSUPP = 95;
    static final int EDQUOT = 122;

    static {
        // The O_DIRECTORY/O_NOFOLLOW bits differ between the two 64-bit Linux ABIs we may run on.
        if (Platform.ARCH.equals("aarch64")) {
            O_DIRECTORY = 040000;
            O_NOFOLLOW = 0100000;
        } else {
            O_DIRECTORY = 0200000;
            O_NOFOLLOW = 0400000;
        }
    }

    /** An {@code O_PATH} handle on a directory that must not be a link. */
    static final int DIRECTORY_HANDLE = O_PATH | O_DIRECTORY | O_NOFOLLOW;
    /** A readable directory (for listing, fsync and fchmod) that must not be a link. */
    static final int DIRECTORY_READ = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;

    private static volatile @Nullable C instance;

    private Libc() {}

    /** The bound library; {@code UNSUPPORTED_CAPABILITY} off 64-bit Linux. */
    static C c() {
        C c = instance;
        if (c == null) {
            boolean supportedArch = Platform.ARCH.equals("x86-64") || Platform.ARCH.equals("aarch64");
            if (!Platform.isLinux() || !Platform.is64Bit() || !supportedArch) {
                throw new LomiException(ErrorCode.UNSUPPORTED_CAPABILITY, "project files need 64-bit Linux");
            }
            c = Native.load("c", C.class);
            instance = c;
        }
        return c;
    }

    /** {@code name} as NUL-terminated UTF-8. */
    static byte[] cstr(String name) {
        byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[utf8.length + 1];
        System.arraycopy(utf8, 0, out, 0, utf8.length);
        return out;
    }

    /** The errno of the last failed call on this thread. */
    static int errno() {
        return Native.getLastError();
    }

    /** Returns {@code result} or throws the mapped error when it is negative. */
    static int check(int result, String what) {
        if (result < 0) {
            throw error(errno(), what);
        }
        return result;
    }

    /** Returns {@code result} or throws the mapped error when it is negative. */
    static long check(long result, String what) {
        if (result < 0) {
            throw error(errno(), what);
        }
        return result;
    }

    /** Maps an errno to the stable error code an agent can act on. */
    static LomiException error(int errno, String what) {
        ErrorCode code = switch (errno) {
            case ENOENT -> ErrorCode.TARGET_NOT_FOUND;
            case ELOOP, EACCES, EPERM, EMLINK -> ErrorCode.SCOPE_DENIED;
            case EEXIST, ENOTEMPTY -> ErrorCode.REVISION_CONFLICT;
            case EXDEV, ENOSYS, EOPNOTSUPP -> ErrorCode.UNSUPPORTED_CAPABILITY;
            case ENOSPC, EDQUOT -> ErrorCode.RESOURCE_EXHAUSTED;
            case ENAMETOOLONG -> ErrorCode.INVALID_ARGUMENT;
            default -> ErrorCode.STORAGE_UNAVAILABLE;
        };
        return new LomiException(code, what + " failed (errno " + errno + "); " + code.nextStep());
    }
}
