package dev.lomicontrol.ledger.internal;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * Wraps the single writer connection so that {@code prepareStatement(sql)} reuses one compiled
 * statement per SQL text: the writer runs the same few statements thousands of times and SQLite's
 * parse/plan step would otherwise dominate a reservation. Closing a cached statement only clears
 * its parameters; a statement that failed is closed and evicted (sqlite-jdbc leaves it unusable); the
 * rest are closed with the connection. Not thread-safe: only the writer
 * thread uses it.
 */
final class StatementCache {

    private StatementCache() {}

    static Connection wrap(Connection connection) {
        Map<String, PreparedStatement> cache = new HashMap<>();
        InvocationHandler handler = (proxy, method, args) -> {
            String name = method.getName();
            if (name.equals("prepareStatement") && args != null && args.length == 1) {
                return cached(connection, cache, (String) args[0]);
            }
            if (name.equals("close")) {
                for (PreparedStatement statement : cache.values()) {
                    statement.close();
                }
                cache.clear();
            }
            return invoke(connection, method, args);
        };
        return (Connection) Proxy.newProxyInstance(
                StatementCache.class.getClassLoader(), new Class<?>[] {Connection.class}, handler);
    }

    private static PreparedStatement cached(Connection connection, Map<String, PreparedStatement> cache, String sql)
            throws SQLException {
        PreparedStatement statement = cache.get(sql);
        if (statement == null) {
            statement = connection.prepareStatement(sql);
            cache.put(sql, statement);
        }
        PreparedStatement target = statement;
        InvocationHandler handler = (proxy, method, args) -> {
            if (method.getName().equals("close")) {
                target.clearParameters();
                return null;
            }
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                cache.remove(sql, target);
                target.close();
                throw e.getCause();
            }
        };
        return (PreparedStatement) Proxy.newProxyInstance(
                StatementCache.class.getClassLoader(), new Class<?>[] {PreparedStatement.class}, handler);
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
