package dev.lomicontrol.console;

import dev.lomicontrol.core.Visible;

/**
 * What one console line produced: the exit status (0 ok, 1 refused or not found, 2 usage error,
 * 3 no broker running or the connection to it lost), the command's output and a one-line error message. Both texts are made
 * {@linkplain Visible terminal-safe} here, the one place every console output passes (in the
 * broker's own console, over the admin socket, and again in the client).
 */
public record ConsoleResult(int exitCode, String stdout, String stderr) {

    public static final int OK = 0;
    public static final int REFUSED = 1;
    public static final int USAGE = 2;
    public static final int NO_BROKER = 3;

    /** The exit statuses, as {@code --help} and docs/OPERATIONS.md list them. */
    public static final String EXIT_STATUSES =
            "Exit status: 0 ok, 1 refused (the broker said no: unknown id, not allowed, stale),"
                    + " 2 usage error, 3 no broker running (or the connection to it was lost).";

    public ConsoleResult {
        stdout = stdout == null ? "" : Visible.text(stdout);
        stderr = stderr == null ? "" : Visible.text(stderr);
    }
}
