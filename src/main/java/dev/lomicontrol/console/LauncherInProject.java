package dev.lomicontrol.console;

import dev.lomicontrol.core.DataDirectory;
import dev.lomicontrol.ledger.internal.StoreOpener;
import java.io.IOException;
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
 * Security review 2026-12-06, N11: the service unit runs {@code bin/lomi-control}, which sources
 * {@code bin/broker-jvm-options}, may rebuild from the checkout's sources and runs
 * {@code target/lomi-control.jar}, at every (re)start. When that checkout lies inside a registered
 * project, a sandboxed shell of the project can rewrite all of them, and the broker restarts with
 * the attacker's code and the admin token. {@code service install} and {@code project add} say so
 * (they do not refuse: developing lomi-control with agents is a legitimate use, from a separate
 * clone).
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

    /** The warning when the launcher's home lies inside one of {@code roots}. */
    static Optional<String> warning(Path launcher, List<Path> roots) {
        Path bin = launcher.toAbsolutePath().normalize().getParent();
        if (bin == null || bin.getParent() == null) {
            return Optional.empty();
        }
        Path home = real(bin.getParent());
        for (Path root : roots) {
            if (home.startsWith(real(root))) {
                return Optional.of(
                        "WARNING: the launcher's home " + home + " lies inside the registered project " + root
                                + ": a sandboxed shell of that project can rewrite bin/lomi-control, bin/broker-jvm-options,"
                                + " the sources it rebuilds and target/lomi-control.jar, which run as you, with the admin"
                                + " token, at the broker's next start (a service: at every restart). Run lomi-control from a"
                                + " checkout outside every project (a separate clone), or remove the project (project remove).");
            }
        }
        return Optional.empty();
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

    private static Path real(Path path) {
        try {
            return path.toRealPath();
        } catch (IOException e) {
            return path.toAbsolutePath().normalize();
        }
    }
}
