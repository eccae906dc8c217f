package dev.lomicontrol.testing;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.flywaydb.core.Flyway;

/**
 * A real SQLite database migrated by the product's Flyway scripts ({@code db/migration}) to a given
 * version, written to as an older broker left it, then migrated the rest of the way: for the tests
 * of one migration.
 */
public final class MigrationFixture {

    /** Work on one statement of a fresh connection ({@link Statement#getConnection()} for prepared ones). */
    @FunctionalInterface
    public interface Work {
        void run(Statement statement) throws Exception;
    }

    private final String url;

    private MigrationFixture(Path database) {
        this.url = "jdbc:sqlite:" + database;
    }

    /** The database file {@code store.db} in {@code dir}. */
    public static MigrationFixture in(Path dir) {
        return at(dir.resolve("store.db"));
    }

    /** The database file {@code database}. */
    public static MigrationFixture at(Path database) {
        return new MigrationFixture(database);
    }

    /** Migrates to version {@code target} (e.g. {@code "9"}) and no further. */
    public MigrationFixture migrateTo(String target) {
        Flyway.configure()
                .dataSource(url, null, null)
                .locations("classpath:db/migration")
                .target(target)
                .load()
                .migrate();
        return this;
    }

    /** Migrates to the latest version. */
    public MigrationFixture migrate() {
        Flyway.configure()
                .dataSource(url, null, null)
                .locations("classpath:db/migration")
                .load()
                .migrate();
        return this;
    }

    /** Runs {@code work} on a new connection, then closes it. */
    public void run(Work work) throws Exception {
        try (Connection c = DriverManager.getConnection(url);
                Statement s = c.createStatement()) {
            work.run(s);
        }
    }

    /** Runs {@code work} on a new connection with {@code PRAGMA foreign_keys = ON}, then closes it. */
    public void runWithForeignKeys(Work work) throws Exception {
        run(s -> {
            s.execute("PRAGMA foreign_keys = ON");
            work.run(s);
        });
    }
}
