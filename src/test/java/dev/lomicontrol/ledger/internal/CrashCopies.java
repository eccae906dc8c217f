package dev.lomicontrol.ledger.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Test fixtures: real SQLite WAL stores under a root directory, "crash copies" of them (the
 * db/-wal/-shm files copied while a connection is still open, i.e. what a killed broker leaves
 * behind) and byte-level surgery on the copies.
 */
final class CrashCopies {

    static final String DB = "control.sqlite3";
    static final int ROWS_PER_TX = 20;

    private final Path root;

    CrashCopies(Path root) {
        this.root = root;
    }

    /** A WAL store with {@code transactions} committed transactions, copied while still open. */
    Path crashCopy(String name, int transactions) throws Exception {
        Path live = Files.createDirectories(root.resolve(name + "-live")).resolve(DB);
        try (Connection c = open(live)) {
            for (int i = 0; i < transactions; i++) {
                commitRows(c, 1);
            }
            return copyOf(live, name);
        }
    }

    /** Big transaction, RESTART checkpoint, then one small one: old-salt frames trail the new ones. */
    Path crashCopyAfterRestart(String name) throws Exception {
        Path live = Files.createDirectories(root.resolve(name + "-live")).resolve(DB);
        try (Connection c = open(live);
                Statement s = c.createStatement()) {
            commitRows(c, 6);
            try (ResultSet rs = s.executeQuery("PRAGMA wal_checkpoint(RESTART)")) {
                assertThat(rs.next() && rs.getInt(1) == 0)
                        .as("checkpoint not busy")
                        .isTrue();
            }
            s.execute("INSERT INTO entry(body) VALUES ('after restart')");
            return copyOf(live, name);
        }
    }

    /** Copies whichever of db/-wal/-shm exist into {@code root/name}; returns the copied db path. */
    Path copyOf(Path db, String name) throws IOException {
        Path dir = Files.createDirectories(root.resolve(name));
        for (Path f : new Path[] {db, wal(db), shm(db)}) {
            if (Files.exists(f)) {
                Files.copy(f, dir.resolve(f.getFileName()));
            }
        }
        return dir.resolve(DB);
    }

    Path withoutShm(Path db, String name) throws IOException {
        Path copy = copyOf(db, name);
        Files.delete(shm(copy));
        return copy;
    }

    Path dir(String name) throws IOException {
        return Files.createDirectories(root.resolve(name));
    }

    /** Opens {@code db} in WAL mode without auto-checkpoints and ensures the {@code entry} table. */
    static Connection open(Path db) throws SQLException {
        Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        try (Statement s = c.createStatement()) {
            s.execute("PRAGMA journal_mode=WAL");
            s.execute("PRAGMA wal_autocheckpoint=0");
            s.execute("CREATE TABLE IF NOT EXISTS entry(id INTEGER PRIMARY KEY, body TEXT)");
        }
        return c;
    }

    /** Commits {@code batches} * ROWS_PER_TX rows in one transaction. */
    static void commitRows(Connection c, int batches) throws SQLException {
        c.setAutoCommit(false);
        try (var ps = c.prepareStatement("INSERT INTO entry(body) VALUES (?)")) {
            for (int i = 0; i < batches * ROWS_PER_TX; i++) {
                ps.setString(1, "row " + i + " " + "x".repeat(300));
                ps.executeUpdate();
            }
        }
        c.commit();
        c.setAutoCommit(true);
    }

    /** Row count as SQLite sees it (opening runs SQLite's WAL recovery and mutates the files). */
    static int rows(Path db) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM entry")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** Appends a whole frame with the WAL's salts but a wrong checksum, then half a frame. */
    static void appendTornFrames(Path db) throws IOException {
        ByteBuffer hdr = read(wal(db), 0, 32);
        int frameSize = 24 + hdr.getInt(8);
        ByteBuffer frame = ByteBuffer.allocate(frameSize);
        frame.putInt(0, 2).putInt(4, 0).putInt(8, hdr.getInt(16)).putInt(12, hdr.getInt(20));
        frame.putInt(16, 0xdeadbeef).putInt(20, 0x12345678);
        try (FileChannel ch = FileChannel.open(wal(db), StandardOpenOption.APPEND)) {
            ch.write(frame.duplicate());
            ch.write(frame.limit(frameSize / 2));
        }
    }

    /** Whole frames in the WAL file (valid or not). */
    static long frameCount(Path db) throws IOException {
        int pageSize = read(wal(db), 0, 32).getInt(8);
        return (Files.size(wal(db)) - 32) / (24 + pageSize);
    }

    /** Byte offset of frame {@code frame} (1-based) in the WAL. */
    static long frameOffset(Path db, long frame) throws IOException {
        int pageSize = read(wal(db), 0, 32).getInt(8);
        return 32 + (frame - 1) * (24 + pageSize);
    }

    static void write(Path file, long offset, int value) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(offset);
            f.write(value);
        }
    }

    static void flip(Path file, long offset) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(offset);
            int b = f.read();
            f.seek(offset);
            f.write(b ^ 0x5a);
        }
    }

    static void truncate(Path file, long size) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(size);
        }
    }

    static ByteBuffer read(Path file, long pos, int len) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            return WalScan.readAt(ch, pos, len);
        }
    }

    /** SHA-256 and mtime of db/-wal/-shm ("absent" when missing). */
    static Map<String, String> fingerprint(Path db) throws IOException, NoSuchAlgorithmException {
        Map<String, String> out = new LinkedHashMap<>();
        for (Path f : new Path[] {db, wal(db), shm(db)}) {
            String state = "absent";
            if (Files.exists(f)) {
                byte[] hash = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f));
                state = HexFormat.of().formatHex(hash) + "@" + Files.getLastModifiedTime(f);
            }
            out.put(f.getFileName().toString(), state);
        }
        return out;
    }

    static Path wal(Path db) {
        return Path.of(db + "-wal");
    }

    static Path shm(Path db) {
        return Path.of(db + "-shm");
    }
}
