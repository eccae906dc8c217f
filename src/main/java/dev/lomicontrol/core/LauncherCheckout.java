package dev.lomicontrol.core;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Security review 2026-12-06, N11: {@code bin/lomi-control} sources {@code bin/broker-jvm-options},
 * may rebuild from the checkout's sources and runs {@code target/lomi-control.jar}. When that
 * checkout lies inside a registered project, a sandboxed shell of the project can rewrite all of
 * them, and the next start (every restart of the service) runs the attacker's code with the admin
 * token. {@code service install}, {@code project add} and every status say so; none refuses
 * (developing lomi-control with agents is a legitimate use, from a separate clone).
 */
public final class LauncherCheckout {

    /** The variable the launcher exports with its own absolute path. */
    public static final String LAUNCHER_VARIABLE = "LOMI_CONTROL_LAUNCHER";

    private LauncherCheckout() {}

    /** The warning when the launcher's home (the directory above its {@code bin/}) lies inside one of {@code roots}. */
    public static Optional<String> warning(Path launcher, List<Path> roots) {
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

    /** {@link #warning} for the launcher this process was started by ({@value #LAUNCHER_VARIABLE}), if any. */
    public static Optional<String> warningForThisLauncher(List<Path> roots) {
        String launcher = System.getenv(LAUNCHER_VARIABLE);
        if (launcher == null || launcher.isBlank() || !Path.of(launcher).isAbsolute()) {
            return Optional.empty();
        }
        return warning(Path.of(launcher), roots);
    }

    private static Path real(Path path) {
        try {
            return path.toRealPath();
        } catch (IOException e) {
            return path.toAbsolutePath().normalize();
        }
    }
}
