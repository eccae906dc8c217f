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

    /**
     * Where {@code bin/lomi-control} keeps the Maven it builds with and the repository it builds from
     * ({@code $LOMI_CONTROL_BUILD_HOME}, else {@code $XDG_STATE_HOME/lomi-control/build}): private to
     * the admin, never writable from a sandboxed shell (security review 2026-12-06, N5). The
     * launcher computes the same path.
     */
    public Path launcherBuild() {
        return absolute("LOMI_CONTROL_BUILD_HOME")
                .orElse(state().resolve("lomi-control").resolve("build"));
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
