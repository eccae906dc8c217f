package dev.lomicontrol.ledger.internal;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The store as one {@link DataSource} for libraries (Spring Data JDBC): on the thread running a work
 * item of {@link Writer#submit} (the writer thread, or a caller running its item alone), while the
 * item runs, it hands out the writer's own connection, so what the
 * library writes lands in that item's savepoint and commits with the writer's group commit; anywhere
 * else it hands out a {@code query_only} reader, so a write outside the writer fails instead of
 * becoming a second writer. The writer's connection comes wrapped: its transaction belongs to the
 * writer, so {@code commit}, {@code rollback}, {@code setAutoCommit}, {@code setReadOnly} and
 * {@code close} do nothing (a refusal rolls back the item's savepoint when it reaches the writer).
 */
public final class LedgerDataSource extends PlainDataSource {

    private static final Set<String> WRITER_OWNED =
            Set.of("close", "commit", "rollback", "setAutoCommit", "setReadOnly", "setTransactionIsolation");

    private final Writer writer;
    private final DataSource readers;

    public LedgerDataSource(Writer writer, DataSource readers) {
        this.writer = writer;
        this.readers = readers;
    }

    @Override
    public Connection getConnection() throws SQLException {
        java.util.Optional<Connection> bound = writer.boundConnection();
        return bound.isPresent() ? borrowed(bound.get()) : readers.getConnection();
    }

    private static Connection borrowed(Connection connection) {
        return (Connection) Proxy.newProxyInstance(
                LedgerDataSource.class.getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    String name = method.getName();
                    if (WRITER_OWNED.contains(name)) {
                        return null;
                    }
                    if (name.equals("getAutoCommit") || name.equals("isReadOnly")) {
                        return false;
                    }
                    try {
                        return method.invoke(connection, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
