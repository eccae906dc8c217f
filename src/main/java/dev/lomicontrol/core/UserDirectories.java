package dev.lomicontrol.core;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The user's base directories as the environment names them (XDG Base Directory specification):
 * {@code $HOME} first (Java's {@code user.home} comes from the password database and ignores it),
 * then {@code $XDG_CONFIG_HOME}, {@code $XDG_STATE_HOME} and {@code $XDG_RUNTIME_DIR}; a relative
 * value is ignored, as the specification says.
 */
public record UserDirectories(Map<String, String> environment, String javaUserHome) {

    public static UserDirectories of(Map<String, String> environment) {
        return new UserDirectories(environment, System.getProperty("user.home"));
    }

    public static UserDirectories current() {
        return of(System.getenv());
    }

    /** {@code $HOME} when it is an absolute path, else Java's {@code user.home}. */
    public Path home() {
        return absolute("HOME").orElse(Path.of(javaUserHome).toAbsolutePath());
    }

    /** {@code $XDG_CONFIG_HOME}, else {@code ~/.config}. */
    public Path config() {
        return absolute("XDG_CONFIG_HOME").orElse(home().resolve(".config"));
    }

    /** {@code $XDG_STATE_HOME}, else {@code ~/.local/state} (logs). */
    public Path state() {
        return absolute("XDG_STATE_HOME").orElse(home().resolve(".local").resolve("state"));
    }

    /** {@code $XDG_DATA_HOME}, else {@code ~/.local/share}. */
    public Path data() {
        return absolute("XDG_DATA_HOME").orElse(home().resolve(".local").resolve("share"));
    }

    /** {@code $XDG_RUNTIME_DIR} when it is set, absolute and an existing directory (sockets go there); empty otherwise. */
    public Optional<Path> runtime() {
        return absolute("XDG_RUNTIME_DIR").filter(Files::isDirectory);
    }

    private Optional<Path> absolute(String variable) {
        String value = environment.get(variable);
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        Path path = Path.of(value);
        return path.isAbsolute() ? Optional.of(path.normalize()) : Optional.empty();
    }
}
