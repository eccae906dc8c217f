package dev.lomicontrol;

import dev.lomicontrol.console.ConsoleMain;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.mcp.McpHelper;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/**
 * The one executable. The mode is decided here, before any Spring context exists: {@code --mcp}
 * must never start broker beans or print anything but protocol frames on stdout.
 *
 * <pre>
 *   lomi-control serve [--data-dir DIR] [--headless]   the broker (with its console on a TTY unless --headless)
 *   lomi-control console [--data-dir DIR] [COMMAND...]   the admin console client (attaches to the broker; no Spring)
 *   lomi-control --mcp [--discovery-file F] [--discovery-key HEX]   the MCP stdio helper
 * </pre>
 */
public final class LomiControl {

    static final int USAGE = 64;

    private LomiControl() {}

    public static void main(String[] args) {
        List<String> arguments = Arrays.asList(args);
        if (arguments.contains("--mcp")) {
            System.exit(mcp(args));
        }
        String mode = arguments.isEmpty() ? "help" : arguments.get(0);
        String[] rest = arguments.isEmpty() ? new String[0] : Arrays.copyOfRange(args, 1, args.length);
        switch (mode) {
            case "serve":
                serve(ConsoleMain.serveArguments(rest, System.console() != null));
                return;
            case "console":
                System.exit(ConsoleMain.run(rest, System.getenv()));
                return;
            case "help":
            case "--help":
            case "-h":
                usage(System.err);
                return;
            default:
                System.err.println("lomi-control: unknown mode '" + mode + "'");
                usage(System.err);
                System.exit(USAGE);
        }
    }

    /** Starts the broker; a refused start (e.g. a damaged or foreign-owned store) ends with its reason and status 1. */
    private static void serve(String[] args) {
        try {
            BrokerApplication.run(args);
        } catch (RuntimeException e) {
            Throwable cause = e;
            while (cause.getCause() != null && !(cause instanceof LomiException)) {
                cause = cause.getCause();
            }
            String reason = cause instanceof LomiException ? cause.toString() : e.toString();
            System.err.println("lomi-control: the broker did not start: " + reason);
            System.exit(1);
        }
    }

    /** The MCP helper mode: serves JSON-RPC on stdin/stdout until stdin ends; nothing but protocol frames reaches stdout. */
    static int mcp(String[] args) {
        return McpHelper.run(args);
    }

    private static void usage(PrintStream out) {
        out.println("usage: lomi-control serve [--data-dir DIR] [--headless]");
        out.println("       lomi-control console [--data-dir DIR] [COMMAND...]");
        out.println("       lomi-control --mcp [--discovery-file FILE] [--discovery-key HEX]");
    }
}
