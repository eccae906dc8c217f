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
import org.jspecify.annotations.Nullable;

/**
 * Wraps the single writer connection so that {@code prepareStatement(sql)} reuses one compiled
 * statement per SQL text: the writer runs the same few statements thousands of times and SQLite's
 * parse/plan step would otherwise dominate a reservation. Closing a cached statement only clears
 * its parameters; a statement that failed is closed and evicted (sqlite-jdbc leaves it unusable); the
 * rest are closed with the connection. The calls the writer makes on every statement (binding,
 * executing, closing) go to the statement directly, not through reflection. Not thread-safe: only
 * the writer thread uses it.
 */
final class StatementCache {

    private StatementCache() {}

    static Connection wrap(Connection connection) {
        Map<String, Cached> cache = new HashMap<>();
        InvocationHandler handler = (proxy, method, args) -> {
            String name = method.getName();
            if (name.equals("prepareStatement") && args != null && args.length == 1) {
                return cached(connection, cache, (String) args[0]);
            }
            if (name.equals("close")) {
                for (Cached entry : cache.values()) {
                    entry.statement.close();
                }
                cache.clear();
            }
            return invoke(connection, method, args);
        };
        return (Connection) Proxy.newProxyInstance(
                StatementCache.class.getClassLoader(), new Class<?>[] {Connection.class}, handler);
    }

    /** A compiled statement and the proxy handed out for it (built once: a proxy costs more than the call). */
    private record Cached(PreparedStatement statement, PreparedStatement proxy) {}

    private static PreparedStatement cached(Connection connection, Map<String, Cached> cache, String sql)
            throws SQLException {
        Cached entry = cache.get(sql);
        if (entry == null) {
            PreparedStatement statement = connection.prepareStatement(sql);
            entry = new Cached(statement, proxy(statement, () -> {
                cache.computeIfPresent(sql, (key, current) -> current.statement() == statement ? null : current);
                statement.close();
            }));
            cache.put(sql, entry);
        }
        return entry.proxy();
    }

    /** What evicts a statement after it failed. */
    @FunctionalInterface
    private interface Eviction {
        void evict() throws SQLException;
    }

    private static PreparedStatement proxy(PreparedStatement target, Eviction eviction) {
        InvocationHandler handler = (proxy, method, args) -> {
            try {
                return call(target, method, args);
            } catch (SQLException | RuntimeException e) {
                eviction.evict();
                throw e;
            } catch (InvocationTargetException e) {
                eviction.evict();
                throw e.getCause();
            }
        };
        return (PreparedStatement) Proxy.newProxyInstance(
                StatementCache.class.getClassLoader(), new Class<?>[] {PreparedStatement.class}, handler);
    }

    /** The writer's everyday calls directly; anything else reflectively. */
    private static @Nullable Object call(PreparedStatement target, Method method, Object @Nullable [] args)
            throws SQLException, IllegalAccessException, InvocationTargetException {
        if (args == null) {
            switch (method.getName()) {
                case "close":
                    target.clearParameters();
                    return null;
                case "executeUpdate":
                    return target.executeUpdate();
                case "executeQuery":
                    return target.executeQuery();
                default:
                    return method.invoke(target, args);
            }
        }
        if (args.length != 2) {
            return method.invoke(target, args);
        }
        switch (method.getName()) {
            case "setObject":
                target.setObject((Integer) args[0], args[1]);
                return null;
            case "setString":
                target.setString((Integer) args[0], (String) args[1]);
                return null;
            case "setLong":
                target.setLong((Integer) args[0], (Long) args[1]);
                return null;
            default:
                return method.invoke(target, args);
        }
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
