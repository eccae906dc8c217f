package dev.lomicontrol.console;

/**
 * What one console line produced: the exit status (0 ok, 1 refused or not found, 2 usage error or
 * no broker), the command's output and a one-line error message. Both texts are made
 * {@linkplain Visible terminal-safe} here, the one place every console output passes (in the
 * broker's own console, over the admin socket, and again in the client).
 */
public record ConsoleResult(int exitCode, String stdout, String stderr) {

    public static final int OK = 0;
    public static final int REFUSED = 1;
    public static final int USAGE = 2;

    public ConsoleResult {
        stdout = stdout == null ? "" : Visible.text(stdout);
        stderr = stderr == null ? "" : Visible.text(stderr);
    }
}
