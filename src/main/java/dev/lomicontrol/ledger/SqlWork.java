package dev.lomicontrol.ledger;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * A unit of SQL run by {@link Ledger#write} inside the single writer's transaction, or by
 * {@link Ledger#read} on a reader connection. Other modules (projects, broker settings) keep their
 * tables in the same durable store through it, so there is still exactly one writer.
 */
@FunctionalInterface
public interface SqlWork<T> {
    T run(Connection connection) throws SQLException;
}
