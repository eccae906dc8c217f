package dev.lomicontrol.ledger.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.lomicontrol.testing.Eventually;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reader pool leaves no connection behind when it closes. A pool that opened its first reader
 * starts a second one in the background as soon as that one is borrowed (it keeps one idle); closed
 * while that opening is under way, the pool used to stop waiting for it at once, and the reader
 * opened a moment later stayed open in the process for good. A connection left open on the store
 * is not harmless: when the same process opens the store again after another process (a killed
 * broker) wrote to it, SQLite shares the forgotten connection's wal-index instead of rebuilding it,
 * and the open failed with SQLITE_CORRUPT (LedgerCrashRecoveryTests, 2026-12-05).
 */
class ReaderPoolTests {

    @TempDir
    Path temp;

    @Test
    void aPoolClosedRightAfterABorrowLeavesNoConnectionOpenOnTheStore() throws Exception {
        Path db = Files.createFile(temp.resolve("control.sqlite3")); // the store opener creates it so
        SqliteConnections connections = new SqliteConnections(db, Duration.ofSeconds(5), 1_000_000);
        try (Connection writer = connections.open(SqliteConnections.Role.WRITER);
                Statement statement = writer.createStatement()) {
            statement.execute("CREATE TABLE t (x INTEGER)");
        }
        assertThat(openFilesOn(db)).as("nothing open before the pools").isEmpty();
        for (int round = 0; round < 100; round++) {
            ReaderPool pool = new ReaderPool(connections, 4);
            HikariDataSource hikari = (HikariDataSource) pool.dataSource();
            Connection first = pool.dataSource().getConnection();
            read(first);
            // a second reader wanted while the first is out: the pool opens one in the background
            Thread second = new Thread(() -> {
                try (Connection reader = pool.dataSource().getConnection()) {
                    read(reader);
                } catch (SQLException closedMeanwhile) {
                    // the pool may close before it has a reader for this thread
                }
            });
            second.start();
            Eventually.until(
                    "the second borrower waits for a reader",
                    Duration.ofSeconds(10),
                    Duration.ofMillis(1),
                    () -> !second.isAlive() || hikari.getHikariPoolMXBean().getThreadsAwaitingConnection() > 0);
            first.close();
            pool.close();
            second.interrupt(); // a borrower still waiting when the pool closed waits out its timeout otherwise
            second.join();
            assertThat(openFilesOn(db))
                    .as("files of the store still open after pool " + round + " closed")
                    .isEmpty();
        }
    }

    /**
     * A reader still borrowed when the pool closes. Hikari "aborts" it, but sqlite-jdbc's
     * {@code abort} does nothing, and Hikari forgets the connection at once: returned afterwards,
     * it was never closed (the leak behind a CI failure of the test above, 2026-12-05, pool 84).
     */
    @Test
    void aReaderStillBorrowedWhenThePoolClosesIsClosedToo() throws Exception {
        Path db = Files.createFile(temp.resolve("control.sqlite3"));
        SqliteConnections connections = new SqliteConnections(db, Duration.ofSeconds(5), 1_000_000);
        try (Connection writer = connections.open(SqliteConnections.Role.WRITER);
                Statement statement = writer.createStatement()) {
            statement.execute("CREATE TABLE t (x INTEGER)");
        }
        ReaderPool pool = new ReaderPool(connections, 4);
        Connection borrowed = pool.dataSource().getConnection();
        read(borrowed);
        pool.close();
        borrowed.close(); // the borrower gives it back after the close
        assertThat(openFilesOn(db)).as("files of the store still open").isEmpty();
        assertThatThrownBy(() -> pool.dataSource().getConnection())
                .as("a closed pool opens no reader")
                .isInstanceOf(SQLException.class);
        assertThat(openFilesOn(db))
                .as("files of the store open after a borrow from the closed pool")
                .isEmpty();
    }

    private static void read(Connection reader) throws SQLException {
        try (Statement statement = reader.createStatement()) {
            statement.executeQuery("SELECT count(*) FROM t").close();
        }
    }

    /** This process's open file descriptors on the database, its WAL or its wal-index. */
    private static List<String> openFilesOn(Path db) throws IOException {
        List<String> open = new ArrayList<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith(db.toString())) {
                        open.add(fd.getFileName() + " -> " + target);
                    }
                } catch (IOException gone) {
                    // closed while listed (the listing's own descriptor among them)
                }
            }
        }
        return open;
    }
}
