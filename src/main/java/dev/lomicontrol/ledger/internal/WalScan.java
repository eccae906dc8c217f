package dev.lomicontrol.ledger.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * Read-only, sequential scan of a SQLite WAL file, mirroring what SQLite's recovery
 * ({@code walIndexRecover}) accepts: it walks frames from frame 1 and stops at the first frame that
 * is not valid (partial, foreign salts, page number 0, or checksum mismatch).
 *
 * <p>Contract: opens the file with {@link StandardOpenOption#READ} only and never writes.
 *
 * @param headerProblem   why the 32-byte header is unusable, or {@code null} when it is valid
 * @param pageSize        page size from the header (0 when the header is invalid)
 * @param salt            the 8 raw salt bytes (header bytes 16..23), compared bytewise like SQLite
 * @param validFrames     number of consecutive valid frames counted from frame 1
 * @param lastCommitFrame index of the last valid commit frame (0 = none) — what SQLite recovers
 * @param end             why the scan stopped at frame {@code validFrames + 1}
 * @param chain           cumulative checksum pair after each valid frame: frame i at [2(i-1), 2(i-1)+1]
 * @param commitFrames    bitmap of valid frames that are commit frames (index i-1)
 */
record WalScan(
        @Nullable String headerProblem,
        int pageSize,
        byte[] salt,
        int validFrames,
        int lastCommitFrame,
        End end,
        int[] chain,
        boolean[] commitFrames) {

    static final int HEADER_SIZE = 32;
    static final int FRAME_HEADER_SIZE = 24;
    static final int MAGIC = 0x377f0682;
    static final int FORMAT_VERSION = 3007000;

    /** Why the frame after the valid log is not part of it. */
    enum End {
        /** The file ends exactly after the last valid frame. */
        CLEAN,
        /** The next frame carries other salts: leftovers from before a WAL restart (fine). */
        OLD_SALT,
        /** The file ends in the middle of the next frame. */
        PARTIAL,
        /** The next frame has matching salts but its checksum (or page number 0) is wrong. */
        CORRUPT
    }

    /** Whether valid frame {@code frame} (1-based) is a commit frame. */
    boolean isCommit(int frame) {
        return frame >= 1 && frame <= validFrames && commitFrames[frame - 1];
    }

    /** Cumulative checksum pair recorded in valid frame {@code frame} (1-based). */
    int[] checksumAt(int frame) {
        return new int[] {chain[2 * (frame - 1)], chain[2 * (frame - 1) + 1]};
    }

    /** Scans {@code wal} (of the given size, at least {@link #HEADER_SIZE} bytes). */
    static WalScan scan(Path wal, long size) throws IOException {
        try (FileChannel ch = FileChannel.open(wal, StandardOpenOption.READ)) {
            ByteBuffer hdr = readAt(ch, 0, HEADER_SIZE);
            String problem = headerProblem(hdr);
            if (problem != null) {
                return new WalScan(problem, 0, new byte[8], 0, 0, End.CLEAN, new int[0], new boolean[0]);
            }
            return scanFrames(ch, hdr, size);
        }
    }

    /** Validates the WAL header as SQLite's recovery does; {@code null} when it is valid. */
    private static @Nullable String headerProblem(ByteBuffer hdr) {
        int magic = hdr.getInt(0);
        if ((magic & 0xFFFFFFFE) != MAGIC) {
            return String.format("bad WAL magic 0x%08x", magic);
        }
        if (hdr.getInt(4) != FORMAT_VERSION) {
            return "unsupported WAL format version " + Integer.toUnsignedString(hdr.getInt(4));
        }
        if (!StorePreflight.validPageSize(hdr.getInt(8))) {
            return "invalid WAL page size " + Integer.toUnsignedString(hdr.getInt(8));
        }
        Checksum sum = new Checksum(bigEndianWords(hdr), 0, 0);
        sum.add(hdr, 0, 24);
        if (sum.s0 != hdr.getInt(24) || sum.s1 != hdr.getInt(28)) {
            return "WAL header checksum mismatch";
        }
        return null;
    }

    private static WalScan scanFrames(FileChannel ch, ByteBuffer hdr, long size) throws IOException {
        int pageSize = hdr.getInt(8);
        byte[] salt = slice(hdr, 16, 8);
        int frameSize = FRAME_HEADER_SIZE + pageSize;
        int maxFrames = (int) ((size - HEADER_SIZE) / frameSize);
        int[] chain = new int[2 * maxFrames];
        boolean[] commits = new boolean[maxFrames];
        Checksum sum = new Checksum(bigEndianWords(hdr), hdr.getInt(24), hdr.getInt(28));
        int valid = 0;
        int lastCommit = 0;
        End end = End.CLEAN;
        while (true) {
            long offset = HEADER_SIZE + (long) valid * frameSize;
            if (offset == size) {
                break;
            }
            if (valid == maxFrames) {
                end = End.PARTIAL;
                break;
            }
            ByteBuffer frame = readAt(ch, offset, frameSize);
            end = frameEnd(frame, salt, sum, pageSize);
            if (end != null) {
                break;
            }
            chain[2 * valid] = sum.s0;
            chain[2 * valid + 1] = sum.s1;
            commits[valid] = frame.getInt(4) != 0;
            valid++;
            if (commits[valid - 1]) {
                lastCommit = valid;
            }
            end = End.CLEAN;
        }
        return new WalScan(null, pageSize, salt, valid, lastCommit, end, chain, commits);
    }

    /** Validates one whole frame, advancing {@code sum}; {@code null} when the frame is valid. */
    private static @Nullable End frameEnd(ByteBuffer frame, byte[] salt, Checksum sum, int pageSize) {
        if (!Arrays.equals(slice(frame, 8, 8), salt)) {
            return End.OLD_SALT;
        }
        if (frame.getInt(0) == 0) {
            return End.CORRUPT;
        }
        sum.add(frame, 0, 8);
        sum.add(frame, FRAME_HEADER_SIZE, pageSize);
        boolean ok = sum.s0 == frame.getInt(16) && sum.s1 == frame.getInt(20);
        return ok ? null : End.CORRUPT;
    }

    /** Magic low bit 1 = checksum words are big-endian, 0 = little-endian. */
    private static boolean bigEndianWords(ByteBuffer hdr) {
        return (hdr.getInt(0) & 1) == 1;
    }

    private static byte[] slice(ByteBuffer buf, int from, int len) {
        byte[] out = new byte[len];
        buf.get(from, out);
        return out;
    }

    /** Reads exactly {@code len} bytes at {@code pos} (caller guarantees they exist); big-endian view. */
    static ByteBuffer readAt(FileChannel ch, long pos, int len) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(len);
        while (buf.hasRemaining()) {
            if (ch.read(buf, pos + buf.position()) < 0) {
                throw new IOException("unexpected end of file at " + (pos + buf.position()));
            }
        }
        return buf.flip().order(ByteOrder.BIG_ENDIAN);
    }

    /**
     * SQLite's WAL checksum: over 32-bit words two at a time, {@code s0 += x[i] + s1; s1 += x[i+1] +
     * s0} with unsigned 32-bit wrap-around (Java int arithmetic wraps identically).
     */
    static final class Checksum {
        private final ByteOrder order;
        int s0;
        int s1;

        Checksum(boolean bigEndian, int s0, int s1) {
            this.order = bigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
            this.s0 = s0;
            this.s1 = s1;
        }

        /** Adds {@code len} bytes (a multiple of 8) of {@code buf} starting at {@code from}. */
        void add(ByteBuffer buf, int from, int len) {
            ByteBuffer words = buf.duplicate().order(order);
            for (int i = from; i < from + len; i += 8) {
                s0 += words.getInt(i) + s1;
                s1 += words.getInt(i + 4) + s0;
            }
        }
    }
}
