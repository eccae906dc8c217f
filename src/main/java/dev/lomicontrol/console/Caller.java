package dev.lomicontrol.console;

import java.nio.file.Path;
import org.springframework.shell.core.command.CommandContext;

/**
 * Who typed the command, as far as paths go: the console's working directory and home. Relative
 * paths ({@code project add}, {@code ledger export}) resolve against {@code cwd}; {@code client
 * register} writes under {@code home} (user scope) or {@code cwd} (project scope).
 */
public record Caller(Path cwd, Path home) {

    public Caller {
        if (!cwd.isAbsolute() || !home.isAbsolute()) {
            throw new UsageException("the console's cwd and home must be absolute paths");
        }
        cwd = cwd.normalize();
        home = home.normalize();
    }

    /** The broker process itself (its own terminal). */
    public static Caller local() {
        return new Caller(
                Path.of(System.getProperty("user.dir")).toAbsolutePath(),
                Path.of(System.getProperty("user.home")).toAbsolutePath());
    }

    /** The caller a command runs for: carried by {@link CallerInputReader}, else the broker process. */
    public static Caller of(CommandContext context) {
        return context.inputReader() instanceof CallerInputReader reader ? reader.caller() : local();
    }

    /** {@code ~/x} under home, absolute paths as they are, anything else under cwd; normalized. */
    public Path resolve(String path) {
        if (path.equals("~")) {
            return home;
        }
        if (path.startsWith("~/")) {
            return home.resolve(path.substring(2)).normalize();
        }
        return cwd.resolve(path).normalize();
    }
}
