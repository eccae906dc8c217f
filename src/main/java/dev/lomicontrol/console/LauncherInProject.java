package dev.lomicontrol.console;

import dev.lomicontrol.core.DataDirectory;
import dev.lomicontrol.core.LauncherCheckout;
import dev.lomicontrol.ledger.internal.StoreOpener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.sqlite.SQLiteConfig;

/**
 * Security review 2026-12-06, N11, for {@code service install}: reads the registered projects from
 * the data directory's ledger (read-only, no broker needed) and asks {@link LauncherCheckout}
 * whether the launcher's checkout lies inside one.
 */
final class LauncherInProject {

    private LauncherInProject() {}

    /**
     * The warning to print when the launcher's home (the directory above its {@code bin/}) lies inside
     * a project registered in {@code data}'s ledger (read only; nothing when there is no ledger yet).
     */
    static Optional<String> warning(Path launcher, DataDirectory data) {
        return warning(launcher, projectRoots(data.store().resolve(StoreOpener.DATABASE)));
    }

    /** The warning when the launcher's home lies inside one of {@code roots} ({@link LauncherCheckout}). */
    static Optional<String> warning(Path launcher, List<Path> roots) {
        return LauncherCheckout.warning(launcher, roots);
    }

    /** The project folders of the ledger at {@code database}, read through a read-only connection. */
    static List<Path> projectRoots(Path database) {
        List<Path> roots = new ArrayList<>();
        if (!Files.isRegularFile(database)) {
            return roots;
        }
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setBusyTimeout(2000);
        try (Connection connection = config.createConnection("jdbc:sqlite:" + database);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT root FROM project")) {
            while (rows.next()) {
                roots.add(Path.of(rows.getString(1)));
            }
        } catch (SQLException e) {
            // no project table yet, or the ledger is busy: nothing known to warn about
        }
        return roots;
    }
}
