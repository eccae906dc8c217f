package dev.lomicontrol.ledger.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Read-only startup preflight of the SQLite ledger files ({@code control.sqlite3} and its
 * {@code -wal} / {@code -shm} siblings), run BEFORE SQLite opens them.
 *
 * <p>Why: SQLite silently drops a WAL tail whose checksum fails (rolling back committed history) and
 * happily opens a damaged file; opening also resets the {@code -shm} wal-index, the only witness of
 * how many frames were committed. The broker must refuse to start on a damaged store instead.
 *
 * <p>Contract: only reads (every file is opened with {@code READ} only); never creates, writes,
 * truncates or deletes anything, so every file is left byte-for-byte unchanged.
 */
public final class StorePreflight {

    private static final byte[] MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
    private static final int DB_HEADER_SIZE = 100;

    private StorePreflight() {}

    /**
     * Result of the checks; {@code problems} empty means ok. {@code notes} are informational (e.g. a
     * torn uncommitted WAL tail that will be discarded). {@code walCommittedFrames} is the number of
     * WAL frames up to the last valid commit frame, i.e. what SQLite's recovery will keep.
     */
    public record Report(List<String> problems, List<String> notes, long walCommittedFrames) {

        public Report {
            problems = List.copyOf(problems);
            notes = List.copyOf(notes);
        }

        public boolean ok() {
            return problems.isEmpty();
        }
    }

    /**
     * Checks the store whose database file is {@code db} (the {@code -wal} and {@code -shm} siblings
     * are {@code db + "-wal"} / {@code db + "-shm"}). A missing or zero-length db is a fresh store and
     * ok, but a WAL with committed frames beside it is a problem. Each problem names the file by its
     * absolute path.
     *
     * @throws IOException when a file exists but cannot be read
     */
    public static Report check(Path db) throws IOException {
        Path abs = db.toAbsolutePath().normalize();
        Path wal = Path.of(abs + "-wal");
        Path shm = Path.of(abs + "-shm");
        List<String> problems = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        long dbSize = sizeOf(abs, "database", problems);
        int dbPageSize = dbSize > 0 ? checkDatabase(abs, dbSize, problems) : 0;
        long walSize = sizeOf(wal, "WAL", problems);
        long committed = 0;
        if (walSize > 0) {
            committed = WalRules.check(wal, walSize, shm, dbSize > 0, dbPageSize, problems, notes);
        }
        return new Report(problems, notes, committed);
    }

    /** True for a power of two in 512..65536 (the page sizes SQLite accepts). */
    static boolean validPageSize(int size) {
        return size >= 512 && size <= 65536 && Integer.bitCount(size) == 1;
    }

    /** Size of a regular file; 0 when missing; a problem (and 0) when it is something else. */
    private static long sizeOf(Path file, String kind, List<String> problems) throws IOException {
        if (!Files.exists(file)) {
            return 0;
        }
        if (!Files.isRegularFile(file)) {
            problems.add(kind + " " + file + ": not a regular file");
            return 0;
        }
        return Files.size(file);
    }

    /**
     * Validates the 100-byte database header and the file size; returns the page size, or 0 when the
     * header is too damaged to know it.
     */
    private static int checkDatabase(Path db, long size, List<String> problems) throws IOException {
        String where = "database " + db + ": ";
        if (size < DB_HEADER_SIZE) {
            problems.add(where + "only " + size + " bytes, shorter than the " + DB_HEADER_SIZE + "-byte header");
            return 0;
        }
        ByteBuffer hdr;
        try (FileChannel ch = FileChannel.open(db, StandardOpenOption.READ)) {
            hdr = WalScan.readAt(ch, 0, DB_HEADER_SIZE);
        }
        byte[] magic = new byte[MAGIC.length];
        hdr.get(0, magic);
        if (!Arrays.equals(magic, MAGIC)) {
            problems.add(
                    where + "header does not start with \"SQLite format 3\\0\" (not a SQLite database or damaged)");
            return 0;
        }
        List<String> found = headerFieldProblems(hdr);
        int raw = Short.toUnsignedInt(hdr.getShort(16));
        int pageSize = raw == 1 ? 65536 : raw;
        if (!validPageSize(pageSize)) {
            found.add("invalid page size " + raw + " in header bytes 16-17");
            pageSize = 0;
        } else if (size % pageSize != 0 || size < pageSize) {
            found.add("size " + size + " is not a positive multiple of the page size " + pageSize + " (truncated?)");
        }
        found.forEach(p -> problems.add(where + p));
        return pageSize;
    }

    /** Header fields other than magic and page size that SQLite requires to have fixed values. */
    private static List<String> headerFieldProblems(ByteBuffer hdr) {
        List<String> found = new ArrayList<>();
        int write = Byte.toUnsignedInt(hdr.get(18));
        int read = Byte.toUnsignedInt(hdr.get(19));
        if (write < 1 || write > 2 || read < 1 || read > 2) {
            found.add("invalid file format versions " + write + "/" + read + " in header bytes 18-19");
        }
        int maxFrac = Byte.toUnsignedInt(hdr.get(21));
        int minFrac = Byte.toUnsignedInt(hdr.get(22));
        int leafFrac = Byte.toUnsignedInt(hdr.get(23));
        if (maxFrac != 64 || minFrac != 32 || leafFrac != 32) {
            found.add("invalid payload fractions " + maxFrac + "/" + minFrac + "/" + leafFrac
                    + " in header bytes 21-23 (must be 64/32/32)");
        }
        return found;
    }
}
