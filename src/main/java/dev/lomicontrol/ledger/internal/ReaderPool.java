package dev.lomicontrol.ledger.internal;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * A small pool of verified, {@code query_only} reader connections, separate from the writer. Closing
 * it closes every reader it opened, borrowed or not: a connection left open on the store is not
 * harmless (see {@link #close()}).
 */
public final class ReaderPool implements AutoCloseable {

    private final HikariDataSource pool;
    private final Opener opener;

    public ReaderPool(SqliteConnections connections, int size) {
        this.opener = new Opener(connections);
        HikariConfig config = new HikariConfig();
        config.setPoolName("ledger-readers");
        config.setDataSource(opener);
        config.setMaximumPoolSize(Math.max(1, size));
        config.setMinimumIdle(1);
        config.setAutoCommit(true);
        config.setReadOnly(false);
        this.pool = new HikariDataSource(config);
    }

    public DataSource dataSource() {
        return pool;
    }

    /**
     * Closes the pool, then every reader it opened that is still open. Hikari "aborts" a reader
     * still borrowed at its shutdown and forgets it, but sqlite-jdbc's {@code abort} does nothing:
     * given back later, that reader stayed open in the process for good. When the process then
     * opened the store again after another process (a killed broker) had written it, SQLite shared
     * the forgotten connection's wal-index instead of rebuilding it and the open failed with
     * SQLITE_CORRUPT (ReaderPoolTests, LedgerCrashRecoveryTests). A reader still in use is closed
     * under its borrower, whose next statement fails; the ledger closes its pool only when it is
     * done.
     */
    @Override
    public void close() {
        opener.refuseNewReaders();
        pool.close();
        opener.closeLeftovers();
    }

    /** Opens a reader connection with every pragma read back, and remembers it until it is closed. */
    private static final class Opener extends PlainDataSource {
        /** See {@link #getLoginTimeout()}. */
        private static final int SHUTDOWN_WAIT_SECONDS = 30;

        private final SqliteConnections connections;
        private final Set<Connection> opened = ConcurrentHashMap.newKeySet();
        private volatile boolean closing;

        Opener(SqliteConnections connections) {
            this.connections = connections;
        }

        @Override
        public Connection getConnection() throws SQLException {
            if (closing) {
                throw new SQLException("the ledger's reader pool is closed");
            }
            opened.removeIf(Opener::isClosed); // the pool retires readers (max lifetime); forget them
            Connection reader = connections.open(SqliteConnections.Role.READER);
            opened.add(reader);
            if (closing) { // closed while this reader was being opened: closeLeftovers may have run
                closeQuietly(reader);
                opened.remove(reader);
                throw new SQLException("the ledger's reader pool is closed");
            }
            return reader;
        }

        void refuseNewReaders() {
            closing = true;
        }

        void closeLeftovers() {
            for (Connection reader : opened) {
                closeQuietly(reader);
            }
            opened.clear();
        }

        /**
         * How long the pool's shutdown waits for a reader it is opening in the background (Hikari
         * reads it from here). Zero made the pool stop waiting at once, so a reader could be opened
         * after {@link #closeLeftovers()}; the {@code closing} check closes such a reader too, this
         * wait keeps the shutdown from racing it. Opening a reader takes milliseconds; this bounds
         * a reader held up by a busy store.
         */
        @Override
        public int getLoginTimeout() {
            return SHUTDOWN_WAIT_SECONDS;
        }

        private static boolean isClosed(Connection reader) {
            try {
                return reader.isClosed();
            } catch (SQLException e) {
                return true;
            }
        }

        private static void closeQuietly(Connection reader) {
            try {
                reader.close();
            } catch (SQLException alreadyUnusable) {
                // nothing more to release
            }
        }
    }
}
