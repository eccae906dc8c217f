package dev.lomicontrol.core;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Where the broker keeps its data (SPEC §2): {@code --data-dir}, else {@code LOMI_CONTROL_HOME},
 * else {@code $XDG_DATA_HOME/lomi-control}, else {@code ~/.local/share/lomi-control} ({@code ~} = {@code $HOME}). The ledger,
 * keys and discovery live in its {@code agent-control/} subdirectory.
 */
public record DataDirectory(Path root) {

    public static final String STORE = "agent-control";

    public DataDirectory {
        root = root.toAbsolutePath().normalize();
    }

    /** Resolves it from {@code --data-dir}, the environment and the user's home ({@code $HOME} first, see {@link UserDirectories}). */
    public static DataDirectory resolve(Optional<String> flag, Map<String, String> environment) {
        return resolve(flag, environment, UserDirectories.of(environment).home().toString());
    }

    public static DataDirectory resolve(Optional<String> flag, Map<String, String> environment, String userHome) {
        if (flag.isPresent() && !flag.get().isBlank()) {
            return new DataDirectory(Path.of(flag.get()));
        }
        String home = environment.get("LOMI_CONTROL_HOME");
        if (home != null && !home.isBlank()) {
            return new DataDirectory(Path.of(home));
        }
        String xdg = environment.get("XDG_DATA_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            return new DataDirectory(Path.of(xdg, "lomi-control"));
        }
        return new DataDirectory(Path.of(userHome, ".local", "share", "lomi-control"));
    }

    /** The private store directory (0700): ledger, keys, discovery. */
    public Path store() {
        return root.resolve(STORE);
    }
}
