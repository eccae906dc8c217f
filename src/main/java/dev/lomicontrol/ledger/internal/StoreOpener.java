package dev.lomicontrol.ledger.internal;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.ledger.LedgerProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.jspecify.annotations.Nullable;
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
    public record OpenStore(
            StoreDirectory directory,
            OwnerLock lock,
            SqliteConnections connections,
            Connection writer,
            String integrity) {}

    private StoreOpener() {}

    public static OpenStore open(Path storeRoot, LedgerProperties properties, String purpose) {
        StoreDirectory directory = StoreDirectory.prepare(storeRoot);
        if (directory.isReadOnlyFileSystem()) {
            throw readOnly(directory);
        }
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
        if (exists && !Files.isWritable(db)) {
            throw readOnly(directory);
        }
        preflight(db);
        if (!exists) {
            directory.createPrivateFile(db);
        }
        SqliteConnections connections = new SqliteConnections(db, properties.busyTimeout(), properties.maxPageCount());
        String integrity = size(db) > 0 ? inspect(connections, properties) : "ok (new store)";
        migrate(connections);
        Connection writer = connections.open(SqliteConnections.Role.WRITER);
        return new OpenStore(directory, lock, connections, writer, integrity);
    }

    private static LomiException readOnly(StoreDirectory directory) {
        return StoreDirectory.unavailable(
                "the store " + directory.root() + " is read-only; the broker needs to write its ledger"
                        + " (remount it read-write or fix permissions; nothing was changed)",
                null);
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
            throw StoreDirectory.unavailable(
                    "the ledger store failed its integrity preflight and was left untouched: "
                            + String.join("; ", report.problems()) + ". Keep a copy of " + db.getParent()
                            + " and restore a backup (lomi-control console ledger export makes one) or move the store aside.",
                    null);
        }
    }

    /**
     * {@code quick_check} and the schema version, run on a scratch copy of the database and WAL in a
     * private temporary directory: SQLite may create or rewrite {@code -wal}/{@code -shm} files
     * even for a read-only connection, and a damaged store must stay exactly as it was.
     */
    private static String inspect(SqliteConnections connections, LedgerProperties properties) {
        @Nullable Path scratch = null;
        try {
            scratch = Files.createTempDirectory(
                    "lomi-ledger-inspect", PosixFilePermissions.asFileAttribute(StoreDirectory.DIR_MODE));
            Path copy = scratch.resolve(DATABASE);
            Path db = connections.database();
            Files.copy(db, copy, LinkOption.NOFOLLOW_LINKS);
            Path wal = Path.of(db + "-wal");
            if (Files.exists(wal, LinkOption.NOFOLLOW_LINKS)) {
                Files.copy(wal, Path.of(copy + "-wal"), LinkOption.NOFOLLOW_LINKS);
            }
            SqliteConnections scratchConnections =
                    new SqliteConnections(copy, properties.busyTimeout(), properties.maxPageCount());
            try (Connection connection = scratchConnections.open(SqliteConnections.Role.INSPECT)) {
                quickCheck(connection, db);
                refuseFutureSchema(connection, db);
            }
            return "ok";
        } catch (SQLException e) {
            throw StoreDirectory.unavailable(
                    "the ledger database " + connections.database() + " failed its integrity check (quick_check)"
                            + " and was left untouched: " + e.getMessage(),
                    e);
        } catch (IOException e) {
            throw StoreDirectory.unavailable(
                    "cannot copy " + connections.database() + " for its integrity check: " + e.getMessage(), e);
        } finally {
            deleteQuietly(scratch);
        }
    }

    private static void quickCheck(Connection connection, Path db) throws SQLException {
        List<String> problems = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("PRAGMA quick_check")) {
            while (rows.next()) {
                problems.add(rows.getString(1));
            }
        }
        if (!(problems.size() == 1 && "ok".equals(problems.get(0)))) {
            throw StoreDirectory.unavailable(
                    "the ledger database " + db + " failed its integrity check (quick_check) and was left untouched: "
                            + String.join("; ", problems.subList(0, Math.min(5, problems.size()))),
                    null);
        }
    }

    private static void refuseFutureSchema(Connection connection, Path db) {
        Flyway flyway = Flyway.configure()
                .dataSource(new SingleConnectionDataSource(connection, true))
                .locations("classpath:db/migration")
                .load();
        for (MigrationInfo applied : flyway.info().applied()) {
            if (applied.getState().name().startsWith("FUTURE")) {
                throw StoreDirectory.unavailable(
                        "the ledger " + db + " has schema version " + applied.getVersion()
                                + ", newer than this broker understands; it was left untouched. Run a newer lomi-control.",
                        null);
            }
        }
    }

    private static void migrate(SqliteConnections connections) {
        try (Connection connection = connections.open(SqliteConnections.Role.WRITER)) {
            Flyway.configure()
                    .dataSource(new SingleConnectionDataSource(connection, true))
                    .locations("classpath:db/migration")
                    .load()
                    .migrate();
        } catch (SQLException e) {
            throw StoreDirectory.unavailable("cannot migrate " + connections.database() + ": " + e.getMessage(), e);
        } catch (FlywayException e) {
            throw new LomiException(
                    ErrorCode.STORAGE_UNAVAILABLE,
                    "cannot migrate " + connections.database() + ": " + e.getMessage(),
                    e);
        }
    }

    private static void deleteQuietly(@Nullable Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // a leftover scratch copy in the temp directory is harmless
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
