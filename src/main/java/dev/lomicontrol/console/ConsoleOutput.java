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

    static void error(String message) {
        System.err.println(message);
        System.err.flush();
    }
}
