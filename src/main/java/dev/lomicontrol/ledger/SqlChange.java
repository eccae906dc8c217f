package dev.lomicontrol.ledger;

import java.sql.Connection;
import java.sql.SQLException;

/** A {@link SqlWork} that only changes rows and yields no value: run by {@link Ledger#change}. */
@FunctionalInterface
public interface SqlChange {
    void run(Connection connection) throws SQLException;
}
