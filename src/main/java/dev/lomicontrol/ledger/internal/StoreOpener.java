package dev.lomicontrol.ledger.internal;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.ledger.LedgerProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * The startup sequence of the store, in the order that keeps a damaged store intact: private
 * directory → owner lock → file identities → read-only check → header and WAL preflight (before
 * SQLite touches anything) → {@code quick_check} and schema version on a read-only connection →
 * migrations → the writer connection with its pragmas read back. Every refusal is
 * STORAGE_UNAVAILABLE, names the file and leaves every byte as it was.
 */
public final class StoreOpener {

    public static final String DATABASE = "control.sqlite3";
    public static final String LOCK = "owner.lock";

    private static final Logger log = LoggerFactory.getLogger(StoreOpener.class);

    /** What a successful open hands over; the caller closes it in reverse order. */
    public record OpenStore(StoreDirectory directory, OwnerLock lock, SqliteConnections connections, Connection writer, String integrity) {}

    private StoreOpener() {}

    public static OpenStore open(Path storeRoot, LedgerProperties properties, String purpose) {
        StoreDirectory directory = StoreDirectory.prepare(storeRoot);
        OwnerLock lock = OwnerLock.acquire(directory.resolve(LOCK), purpose);
        try {
            return openLocked(directory, lock, properties);
        } catch (RuntimeException e) {
            lock.close();
            throw e;
        }
    }

    private static OpenStore openLocked(StoreDirectory directory, OwnerLock lock, LedgerProperties properties) {
        Path db = directory.resolve(DATABASE);
        for (String suffix : List.of("", "-wal", "-shm")) {
            directory.verifyFileIfPresent(Path.of(db + suffix));
        }
        boolean exists = Files.exists(db, LinkOption.NOFOLLOW_LINKS);
        if (directory.isReadOnlyFileSystem() || (exists && !Files.isWritable(db))) {
            throw StoreDirectory.unavailable("the store " + directory.root() + " is read-only; the broker needs to write its ledger"
                    + " (remount it read-write or fix permissions; nothing was changed)", null);
        }
        preflight(db);
        if (!exists) {
            directory.createPrivateFile(db);
        }
        SqliteConnections connections = new SqliteConnections(db, properties.busyTimeout(), properties.maxPageCount());
        String integrity = size(db) > 0 ? inspect(connections) : "ok (new store)";
        migrate(connections);
        Connection writer = connections.open(SqliteConnections.Role.WRITER);
        return new OpenStore(directory, lock, connections, writer, integrity);
    }

    private static void preflight(Path db) {
        StorePreflight.Report report;
        try {
            report = StorePreflight.check(db);
        } catch (IOException e) {
            throw StoreDirectory.unavailable("cannot read " + db + " for its preflight: " + e.getMessage(), e);
        }
        report.notes().forEach(note -> log.warn("store preflight: {}", note));
        if (!report.ok()) {
            throw StoreDirectory.unavailable("the ledger store failed its integrity preflight and was left untouched: "
                    + String.join("; ", report.problems()) + ". Keep a copy of " + db.getParent()
                    + " and restore a backup (lomi-control console ledger export makes one) or move the store aside.", null);
        }
    }

    /** {@code quick_check} and the schema version, on a connection that cannot write. */
    private static String inspect(SqliteConnections connections) {
        try (Connection connection = connections.open(SqliteConnections.Role.INSPECT)) {
            List<String> problems = new ArrayList<>();
            try (var statement = connection.createStatement(); var rows = statement.executeQuery("PRAGMA quick_check")) {
                while (rows.next()) {
                    problems.add(rows.getString(1));
                }
            }
            if (!(problems.size() == 1 && "ok".equals(problems.get(0)))) {
                throw StoreDirectory.unavailable("the ledger database " + connections.database() + " failed quick_check and was left untouched: "
                        + String.join("; ", problems.subList(0, Math.min(5, problems.size()))), null);
            }
            return "ok";
        } catch (SQLException e) {
            throw StoreDirectory.unavailable("the ledger database " + connections.database() + " cannot be read and was left untouched: "
                    + e.getMessage(), e);
        }
    }

    private static void migrate(SqliteConnections connections) {
        try (Connection connection = connections.open(SqliteConnections.Role.WRITER)) {
            Flyway flyway = Flyway.configure()
                    .dataSource(new SingleConnectionDataSource(connection, true))
                    .locations("classpath:db/migration")
                    .load();
            for (MigrationInfo applied : flyway.info().applied()) {
                if (applied.getState().name().startsWith("FUTURE")) {
                    throw StoreDirectory.unavailable("the ledger " + connections.database() + " has schema version " + applied.getVersion()
                            + ", newer than this broker understands; it was left untouched. Run a newer lomi-control.", null);
                }
            }
            flyway.migrate();
        } catch (SQLException e) {
            throw StoreDirectory.unavailable("cannot migrate " + connections.database() + ": " + e.getMessage(), e);
        } catch (org.flywaydb.core.api.FlywayException e) {
            throw new LomiException(ErrorCode.STORAGE_UNAVAILABLE, "cannot migrate " + connections.database() + ": " + e.getMessage(), e);
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw StoreDirectory.unavailable("cannot stat " + file + ": " + e.getMessage(), e);
        }
    }
}
