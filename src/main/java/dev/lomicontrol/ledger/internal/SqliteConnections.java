package dev.lomicontrol.ledger.internal;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

/**
 * Opens SQLite connections with the ledger's pragmas and reads every one of them back: SQLite
 * ignores unknown or misspelled pragmas silently, so a setting that did not take refuses the
 * connection (sqlite-jdbc's {@code enableFullSync} is a known example: it writes {@code fullsync}).
 */
public final class SqliteConnections {

    /** How a connection will be used. */
    public enum Role {
        /** The one writer: WAL, synchronous=FULL, explicit {@code BEGIN IMMEDIATE} transactions. */
        WRITER,
        /** A reader: same pragmas plus {@code query_only}. */
        READER,
        /** Preflight inspection: opened read-only, never checkpoints, never writes the database or WAL. */
        INSPECT
    }

    private final Path database;
    private final Duration busyTimeout;
    private final long maxPageCount;

    public SqliteConnections(Path database, Duration busyTimeout, long maxPageCount) {
        this.database = database;
        this.busyTimeout = busyTimeout;
        this.maxPageCount = maxPageCount;
    }

    public Path database() {
        return database;
    }

    public Connection open(Role role) {
        SQLiteConfig config = new SQLiteConfig();
        config.resetOpenMode(SQLiteOpenMode.CREATE);
        if (role == Role.INSPECT) {
            config.resetOpenMode(SQLiteOpenMode.READWRITE);
            config.setOpenMode(SQLiteOpenMode.READONLY);
        }
        config.setBusyTimeout((int) busyTimeout.toMillis());
        // sqlite-jdbc otherwise runs an extra "SELECT last_insert_rowid()" (a statement prepared, run
        // and finalized) after every INSERT; no table of the store has a key that the database
        // generates for an application write, and nothing reads generated keys
        config.setGetGeneratedKeys(false);
        try {
            Connection connection = config.createConnection("jdbc:sqlite:" + database);
            try {
                configure(connection, role);
                return connection;
            } catch (SQLException | RuntimeException e) {
                connection.close();
                throw e;
            }
        } catch (SQLException e) {
            throw new LomiException(
                    ErrorCode.STORAGE_UNAVAILABLE, "cannot open " + database + " (" + role + "): " + e.getMessage(), e);
        }
    }

    private void configure(Connection connection, Role role) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA trusted_schema = OFF");
            statement.execute("PRAGMA foreign_keys = ON");
            if (role != Role.INSPECT) {
                statement.execute("PRAGMA journal_mode = WAL");
                statement.execute("PRAGMA synchronous = FULL");
                statement.execute("PRAGMA fullfsync = ON");
                statement.execute("PRAGMA checkpoint_fullfsync = ON");
                statement.execute("PRAGMA max_page_count = " + maxPageCount);
                // savepoints' statement journals in memory: past 64 KiB SQLite spills one to a temp
                // file (here on the root disk), and a writer group's savepoint spans a whole batch
                statement.execute("PRAGMA temp_store = MEMORY");
            }
            if (role == Role.READER) {
                statement.execute("PRAGMA query_only = ON");
            }
        }
        expect(connection, "trusted_schema", "0");
        expect(connection, "foreign_keys", "1");
        expect(connection, "busy_timeout", Long.toString(busyTimeout.toMillis()));
        if (role != Role.INSPECT) {
            expect(connection, "journal_mode", "wal");
            expect(connection, "synchronous", "2");
            expect(connection, "temp_store", "2");
        }
        if (role == Role.READER) {
            expect(connection, "query_only", "1");
        }
    }

    /** Reads {@code PRAGMA name} and refuses the connection unless it equals {@code expected}. */
    static void expect(Connection connection, String pragma, String expected) throws SQLException {
        String actual = pragma(connection, pragma);
        if (!expected.equalsIgnoreCase(actual)) {
            throw new LomiException(
                    ErrorCode.STORAGE_UNAVAILABLE,
                    "SQLite setting " + pragma + " did not take: expected " + expected + ", read back " + actual);
        }
    }

    static @Nullable String pragma(Connection connection, String pragma) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("PRAGMA " + pragma)) {
            return rows.next() ? rows.getString(1) : null;
        }
    }
}
