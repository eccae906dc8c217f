package dev.lomicontrol.ledger.internal;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import javax.sql.DataSource;

/** A small pool of verified, {@code query_only} reader connections, separate from the writer. */
public final class ReaderPool implements AutoCloseable {

    private final HikariDataSource pool;

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
    }
}
