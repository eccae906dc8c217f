package dev.lomicontrol.files;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.time.Instant;
import java.util.Arrays;

/**
 * The exact bytes of one regular file read through an open descriptor, with the stamp (dev, ino,
 * size, nlink, mtime, ctime) that was identical before and after the read.
 *
 * <p>Before Linux 6.13 (multigrain timestamps) file systems keep timestamps at timer-tick
 * granularity, so an in-place write in the same tick as an earlier one leaves the stamp unchanged.
 * A file whose ctime is that recent ("racy", as git calls it) is therefore read a second time and
 * must give the same bytes. On newer kernels the stamp alone is exact, since our own stat forces
 * the next write to take a fine-grained time.
 */
record FileContent(byte[] bytes, String revision, Stat stamp) {

    /** Largest file read, searched or hashed for a revision. */
    static final int MAX_BYTES = 4 * 1024 * 1024;

    /** A stamp this close to the present (file system clock) cannot prove the file is unchanged. */
    static final long RACY_NANOS = 2_000_000_000L;

    /** Reads {@code name} in {@code parent}, which {@code tree.visible} reported as {@code expected}. */
    static FileContent read(Tree tree, Fd parent, String name, Stat expected, String shown) {
        if (!expected.isRegular()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "'" + shown + "' is not a file");
        }
        try (Fd fd = tree.openFile(parent, name, expected, shown)) {
            return readOpen(fd, shown, tree.checkpoints());
        }
    }

    /** Reads an already opened regular file from offset 0. */
    static FileContent readOpen(Fd fd, String shown, Checkpoints checkpoints) {
        Stat before = fd.stat();
        if (before.size() > MAX_BYTES) {
            throw new LomiException(
                    ErrorCode.RESOURCE_EXHAUSTED, "'" + shown + "' is larger than " + MAX_BYTES + " bytes");
        }
        checkpoints.reached(Checkpoints.READ_STARTED);
        byte[] bytes = readAll(fd, before.size());
        Stat after = fd.stat();
        if (bytes.length != before.size() || !before.sameStamp(after)) {
            throw Tree.changed(shown);
        }
        if (isRacy(after)) {
            byte[] again = readAll(fd, after.size());
            if (!Arrays.equals(bytes, again) || !after.sameStamp(fd.stat())) {
                throw Tree.changed(shown);
            }
        }
        return new FileContent(bytes, Revisions.disk(bytes), after);
    }

    private static boolean isRacy(Stat st) {
        Instant now = Instant.now();
        long ageNanos = (now.getEpochSecond() - st.ctimeSec()) * 1_000_000_000L + (now.getNano() - st.ctimeNsec());
        return ageNanos < RACY_NANOS;
    }

    /**
     * Reads from offset 0 until EOF, at most {@code size + 1} bytes (one more reveals growth). The usual
     * case — one read gives exactly {@code size} bytes and EOF follows — fills the result directly
     * (a file read allocated its size three times before).
     */
    private static byte[] readAll(Fd fd, long size) {
        byte[] exact = new byte[(int) size];
        if (size > 0 && fd.pread(exact, 0) == size && fd.pread(new byte[1], size) == 0) {
            return exact;
        }
        return readInChunks(fd, size);
    }

    private static byte[] readInChunks(Fd fd, long size) {
        byte[] buf = new byte[(int) size + 1];
        byte[] chunk = new byte[Math.min(1 << 16, buf.length)];
        int total = 0;
        while (total < buf.length) {
            int n = Math.min(fd.pread(chunk, total), buf.length - total);
            if (n == 0) {
                break;
            }
            System.arraycopy(chunk, 0, buf, total, n);
            total += n;
        }
        return Arrays.copyOf(buf, total);
    }
}
