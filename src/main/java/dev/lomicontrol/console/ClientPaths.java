package dev.lomicontrol.console;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Where a caller's client files live: the console's working directory (project scope), its home,
 * its config directory ({@code $XDG_CONFIG_HOME}, else {@code ~/.config}) and Codex's home
 * ({@code $CODEX_HOME}, else {@code ~/.codex}). A variable that is unset, empty or not an absolute
 * path is ignored, as the XDG base-directory spec says.
 */
record ClientPaths(Path cwd, Path home, Path xdgConfig, Path codexHome) {

    static final String XDG_CONFIG_HOME = "XDG_CONFIG_HOME";
    static final String CODEX_HOME = "CODEX_HOME";

    ClientPaths {
        Objects.requireNonNull(cwd, "cwd");
        Objects.requireNonNull(home, "home");
        Objects.requireNonNull(xdgConfig, "xdgConfig");
        Objects.requireNonNull(codexHome, "codexHome");
    }

    /** The paths for {@code caller}, whose own environment is {@code environment}. */
    static ClientPaths of(Caller caller, Map<String, String> environment) {
        return new ClientPaths(
                caller.cwd(),
                caller.home(),
                absolute(environment.get(XDG_CONFIG_HOME)).orElse(caller.home().resolve(".config")),
                absolute(environment.get(CODEX_HOME)).orElse(caller.home().resolve(".codex")));
    }

    /**
     * The paths for {@code caller} when only the broker's environment is known: its variables are
     * the caller's too only when the caller has the broker's home (the same user in the same
     * setting); a caller with another home gets the defaults under that home, so a console run with
     * {@code HOME=/tmp/x} never writes into the broker user's real config directory.
     */
    static ClientPaths forBrokerCaller(Caller caller, Map<String, String> brokerEnvironment, Path brokerHome) {
        String home = brokerEnvironment.get("HOME");
        boolean same = caller.home().equals(brokerHome.toAbsolutePath().normalize())
                || (home != null
                        && Path.of(home).isAbsolute()
                        && caller.home().equals(Path.of(home).normalize()));
        return of(caller, same ? brokerEnvironment : Map.of());
    }

    private static Optional<Path> absolute(@Nullable String value) {
        if (value == null || value.isBlank() || !Path.of(value).isAbsolute()) {
            return Optional.empty();
        }
        return Optional.of(Path.of(value).normalize());
    }
}
