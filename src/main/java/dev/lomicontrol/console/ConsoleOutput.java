package dev.lomicontrol.console;

import java.io.PrintStream;

/**
 * The console client's terminal output — the one production class allowed to write to
 * {@code System.out} (the client process is not an MCP helper; its stdout is the admin's). A
 * command's output goes to stdout, its error line to stderr.
 */
public final class ConsoleOutput {

    private ConsoleOutput() {}

    static void print(ConsoleResult result) {
        PrintStream out = System.out;
        if (!result.stdout().isEmpty()) {
            out.print(result.stdout().endsWith("\n") ? result.stdout() : result.stdout() + "\n");
            out.flush();
        }
        if (!result.stderr().isEmpty()) {
            error(result.stderr());
        }
    }

    /** One line of output for the admin on stdout (help, version, service and watch output). */
    public static void line(String text) {
        System.out.println(text);
        System.out.flush();
    }

    /** The admin's stdout, for code that prints through a stream it was given (service). */
    public static PrintStream stdout() {
        return System.out;
    }

    static void error(String message) {
        System.err.println(message);
        System.err.flush();
    }
}
