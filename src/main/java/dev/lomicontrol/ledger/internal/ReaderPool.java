package dev.lomicontrol.ledger.internal;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import javax.sql.DataSource;

/** A small pool of verified, {@code query_only} reader connections, separate from the writer. */
public final class ReaderPool implements AutoCloseable {

    private final HikariDataSource pool;

    /** See {@link Opener#getLoginTimeout()}. */
    static final int SHUTDOWN_WAIT_SECONDS = 30;

    public ReaderPool(SqliteConnections connections, int size) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("ledger-readers");
        config.setDataSource(new Opener(connections));
        config.setMaximumPoolSize(Math.max(1, size));
        config.setMinimumIdle(1);
        config.setAutoCommit(true);
        config.setReadOnly(false);
        this.pool = new HikariDataSource(config);
    }

    public DataSource dataSource() {
        return pool;
    }

    @Override
    public void close() {
        pool.close();
    }

    /** Opens a reader connection with every pragma read back. */
    private static final class Opener extends PlainDataSource {
        private final SqliteConnections connections;

        Opener(SqliteConnections connections) {
            this.connections = connections;
        }

        @Override
        public Connection getConnection() {
            return connections.open(SqliteConnections.Role.READER);
        }

        /**
         * How long the pool's shutdown waits for a reader it is opening in the background (Hikari
         * reads it from here). Zero made the pool stop waiting at once, and a reader opened a moment
         * later stayed open in the process for good; when the process later opened the store again
         * after another process (a killed broker) had written it, SQLite shared that forgotten
         * connection's wal-index instead of rebuilding it and the open failed with SQLITE_CORRUPT
         * (ReaderPoolTests, LedgerCrashRecoveryTests). Opening a reader takes milliseconds; this bounds a
         * reader held up by a busy store.
         */
        @Override
        public int getLoginTimeout() {
            return SHUTDOWN_WAIT_SECONDS;
        }
    }
}
