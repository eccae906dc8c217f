package dev.lomicontrol.files;

import com.sun.jna.Pointer;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** An open file descriptor, closed exactly once. All lookups through it are relative and no-follow. */
final class Fd implements AutoCloseable {

    private static final int DIRENT_NAME_OFFSET = 19;

    private final int fd;
    private boolean closed;

    private Fd(int fd) {
        this.fd = fd;
    }

    /** Takes ownership of a raw descriptor. */
    static Fd adopt(int fd) {
        return new Fd(fd);
    }

    int raw() {
        return fd;
    }

    /** {@code openat(dir, name, flags, mode)}; errors are mapped. */
    static Fd openAt(int dirfd, String name, int flags, int mode, String what) {
        return new Fd(Libc.check(Libc.c().openat(dirfd, Libc.cstr(name), flags | Libc.O_CLOEXEC, mode), what));
    }

    /** Like {@link #openAt} but returns the errno instead of throwing. */
    static Result tryOpenAt(int dirfd, String name, int flags, int mode) {
        int r = Libc.c().openat(dirfd, Libc.cstr(name), flags | Libc.O_CLOEXEC, mode);
        return r < 0 ? new Result(null, Libc.errno()) : new Result(new Fd(r), 0);
    }

    /** An open attempt: a descriptor or the errno. */
    record Result(@Nullable Fd fd, int errno) {}

    /** The fd's own status ({@code fstat} via {@code statx(AT_EMPTY_PATH)}). */
    Stat stat() {
        byte[] buf = new byte[Stat.BUFFER_SIZE];
        int flags = Libc.AT_EMPTY_PATH | Libc.AT_SYMLINK_NOFOLLOW;
        Libc.check(Libc.c().statx(fd, new byte[] {0}, flags, Stat.MASK_BASIC, buf), "stat");
        return Stat.parse(buf);
    }

    /** The status of {@code name} in this directory without following a link; empty when missing. */
    Optional<Stat> statAt(String name) {
        byte[] buf = new byte[Stat.BUFFER_SIZE];
        int r = Libc.c().statx(fd, Libc.cstr(name), Libc.AT_SYMLINK_NOFOLLOW, Stat.MASK_BASIC, buf);
        if (r < 0) {
            int errno = Libc.errno();
            if (errno == Libc.ENOENT) {
                return Optional.empty();
            }
            throw Libc.error(errno, "stat");
        }
        return Optional.of(Stat.parse(buf));
    }

    /** The raw names in this directory (not {@code .}/{@code ..}); undecodable names are reported as empty. */
    List<Optional<String>> names() {
        Fd reading = openAt(fd, ".", Libc.DIRECTORY_READ, 0, "open directory");
        Pointer dir = Libc.c().fdopendir(reading.fd);
        if (dir == null) {
            int errno = Libc.errno();
            reading.close();
            throw Libc.error(errno, "open directory");
        }
        reading.closed = true; // owned by the DIR stream now
        List<Optional<String>> out = new ArrayList<>();
        try {
            for (Pointer entry = Libc.c().readdir64(dir);
                    entry != null;
                    entry = Libc.c().readdir64(dir)) {
                long length = entry.indexOf(DIRENT_NAME_OFFSET, (byte) 0);
                byte[] raw = entry.getByteArray(DIRENT_NAME_OFFSET, (int) length);
                if (isDotOrDotDot(raw)) {
                    continue;
                }
                out.add(decodeName(raw));
            }
        } finally {
            Libc.c().closedir(dir);
        }
        return out;
    }

    private static boolean isDotOrDotDot(byte[] raw) {
        return (raw.length == 1 && raw[0] == '.') || (raw.length == 2 && raw[0] == '.' && raw[1] == '.');
    }

    private static Optional<String> decodeName(byte[] raw) {
        try {
            return Optional.of(StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(raw))
                    .toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }

    /** Reads up to {@code buf.length} bytes at {@code offset}; returns the count (0 at end). */
    int pread(byte[] buf, long offset) {
        while (true) {
            long n = Libc.c().pread(fd, buf, buf.length, offset);
            if (n >= 0) {
                return (int) n;
            }
            int errno = Libc.errno();
            if (errno != Libc.EINTR) {
                throw Libc.error(errno, "read");
            }
        }
    }

    /** Writes all of {@code bytes}. */
    void writeAll(byte[] bytes) {
        byte[] chunk = new byte[Math.min(1 << 16, Math.max(1, bytes.length))];
        int done = 0;
        while (done < bytes.length) {
            int len = Math.min(chunk.length, bytes.length - done);
            System.arraycopy(bytes, done, chunk, 0, len);
            long n = Libc.c().write(fd, chunk, len);
            if (n < 0) {
                int errno = Libc.errno();
                if (errno != Libc.EINTR) {
                    throw Libc.error(errno, "write");
                }
                continue;
            }
            done += (int) n; // a short write is simply continued from where it stopped
        }
    }

    void fsync(String what) {
        Libc.check(Libc.c().fsync(fd), what);
    }

    void chmod(int mode) {
        Libc.check(Libc.c().fchmod(fd, mode), "chmod");
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            Libc.c().close(fd);
        }
    }
}
