package dev.lomicontrol;

import dev.lomicontrol.console.ConsoleMain;
import dev.lomicontrol.console.ConsoleOutput;
import dev.lomicontrol.console.ServiceMain;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.mcp.McpHelper;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * The one executable. The mode is decided here, before any Spring context exists: {@code --mcp}
 * must never start broker beans or print anything but protocol frames on stdout, and no mode but
 * a well-formed {@code serve} starts the broker ({@code serve --help}, a mistyped option or no
 * mode at all print help instead).
 *
 * <pre>
 *   lomi-control serve [--data-dir DIR] [--headless] [--NAME=VALUE ...]   the broker (with its console on a TTY unless --headless)
 *   lomi-control console [--data-dir DIR] [COMMAND...]   the admin console client (attaches to the broker; no Spring)
 *   lomi-control service install|uninstall|status         the systemd user unit that runs serve --headless
 *   lomi-control --mcp [--discovery-file F] [--discovery-key HEX] [--toolsets LIST] [--read-only]   the MCP stdio helper
 *   lomi-control version | --version
 * </pre>
 */
public final class LomiControl {

    /** A usage error, as the console's exit statuses say. */
    static final int USAGE = 2;

    static final String SERVE_USAGE = "usage: lomi-control serve [--data-dir DIR] [--headless] [--NAME=VALUE ...]\n"
            + "  Starts the broker of the data directory (--data-dir, else LOMI_CONTROL_HOME, else $XDG_DATA_HOME/lomi-control, else"
            + " ~/.local/share/lomi-control). On a terminal it also runs the admin console; --headless never reads the terminal."
            + " --NAME=VALUE overrides a setting of config/application.properties for this run (e.g. --lomi.terminal.sandbox.enabled=false)."
            + " Logs go to stderr and to $XDG_STATE_HOME/lomi-control/broker.log (docs/OPERATIONS.md \"Logs\").";

    private LomiControl() {}

    /**
     * Netty declares Flight Recorder events for its buffers and, when the JDK has JFR, registers them at
     * its first buffer: that starts JFR's metadata repository and event-handler generation in every
     * process (~100 classes and their metadata; issue 14, docs/BENCHMARKS.md "Fewer classes at start-up") although
     * nothing records. {@code -Dio.netty.jfr.enabled=true} still turns them on for a diagnosis.
     */
    static void withoutNettyFlightRecorderEvents() {
        if (System.getProperty("io.netty.jfr.enabled") == null) {
            System.setProperty("io.netty.jfr.enabled", "false");
        }
    }

    public static void main(String[] args) {
        withoutNettyFlightRecorderEvents();
        List<String> arguments = Arrays.asList(args);
        if (arguments.contains("--mcp")) {
            System.exit(mcp(args));
        }
        String mode = arguments.isEmpty() ? "help" : arguments.get(0);
        String[] rest = arguments.isEmpty() ? new String[0] : Arrays.copyOfRange(args, 1, args.length);
        switch (mode) {
            case "serve":
                Optional<String> refusal = serveRefusal(rest);
                if (refusal.isPresent()) {
                    boolean help = refusal.get().isEmpty();
                    if (help) {
                        ConsoleOutput.line(SERVE_USAGE);
                    } else {
                        System.err.println("lomi-control serve: " + refusal.get() + "\n" + SERVE_USAGE);
                    }
                    System.exit(help ? 0 : USAGE);
                }
                serve(ConsoleMain.serveArguments(rest, System.console() != null));
                return;
            case "console":
                System.exit(ConsoleMain.run(rest, System.getenv()));
                return;
            case "service":
                System.exit(ServiceMain.run(rest, System.getenv(), ConsoleOutput.stdout(), System.err));
                return;
            case "version":
            case "--version":
            case "-V":
                ConsoleOutput.line("lomi-control " + version());
                return;
            case "help":
            case "--help":
            case "-h":
                usage().lines().forEach(ConsoleOutput::line);
                return;
            default:
                System.err.println("lomi-control: unknown mode '" + mode + "'");
                System.err.println(usage());
                System.exit(USAGE);
        }
    }

    /**
     * Why these {@code serve} arguments must not start the broker: empty for a request for help, a
     * reason for anything that is not {@code --data-dir DIR}, {@code --headless} or a
     * {@code --NAME=VALUE} setting; absent when they are fine.
     */
    static Optional<String> serveRefusal(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--help") || arg.equals("-h") || arg.equals("help")) {
                return Optional.of("");
            }
            if (arg.equals("--data-dir")) {
                if (i + 1 >= args.length || args[i + 1].startsWith("--")) {
                    return Optional.of("--data-dir needs a directory");
                }
                i++;
            } else if (!(arg.equals("--headless")
                    || arg.startsWith("--data-dir=")
                    || arg.matches("--[a-z][a-z0-9-]*(\\.[a-z0-9-]+)+=.*"))) {
                return Optional.of("unknown argument '" + arg + "'");
            }
        }
        return Optional.empty();
    }

    /** The project version the build wrote into the jar. */
    static String version() {
        try (InputStream in = LomiControl.class.getResourceAsStream("/lomi-control-version.properties")) {
            Properties properties = new Properties();
            if (in != null) {
                properties.load(in);
            }
            return properties.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
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

    private static String usage() {
        return String.join(
                "\n",
                "usage: lomi-control serve [--data-dir DIR] [--headless] [--NAME=VALUE ...]   the broker (serve --help)",
                "       lomi-control console [--data-dir DIR] [COMMAND...]                  the admin console (console --help, console help)",
                "       lomi-control service install|uninstall|status                       a systemd user service running serve --headless",
                "       lomi-control --mcp [--discovery-file FILE] [--discovery-key HEX] [--toolsets all|LIST] [--read-only]   the MCP stdio helper (MCP clients start it)",
                "       lomi-control version");
    }
}
