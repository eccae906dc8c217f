package dev.lomicontrol.console;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.UserInterruptException;

/**
 * The interactive loop shared by the broker's own terminal and the console client: read a line
 * (JLine editing, history, completion), run it, print its output and error, until {@code exit},
 * {@code quit} or end of input (Ctrl-D). Ctrl-C discards the line being typed.
 */
final class ConsoleRepl {

    /** Where lines run: the broker's executor, or the admin socket. An IOException ends the loop. */
    @FunctionalInterface
    interface Backend {
        ConsoleResult run(String line) throws IOException;
    }

    static final String PROMPT = "lomi> ";
    static final String BANNER =
            "lomi-control admin console: 'help' lists the commands, Tab completes, 'exit' or Ctrl-D leaves.";

    private ConsoleRepl() {}

    static void run(LineReader reader, Backend backend) throws IOException {
        PrintWriter out = reader.getTerminal().writer();
        while (true) {
            String line;
            try {
                line = reader.readLine(PROMPT);
            } catch (UserInterruptException e) {
                continue;
            } catch (EndOfFileException e) {
                return;
            }
            line = line.strip();
            if (isExit(line)) {
                return;
            }
            if (!line.isEmpty()) {
                print(out, backend.run(line));
            }
        }
    }

    static boolean isExit(String line) {
        String word = line.strip().toLowerCase(Locale.ROOT);
        return word.equals("exit") || word.equals("quit");
    }

    private static void print(PrintWriter out, ConsoleResult result) {
        if (!result.stdout().isEmpty()) {
            out.print(result.stdout().endsWith("\n") ? result.stdout() : result.stdout() + "\n");
        }
        if (!result.stderr().isEmpty()) {
            out.println(result.stderr());
        }
        out.flush();
    }
}
