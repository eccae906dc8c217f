package dev.lomicontrol.console;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.Visible;
import dev.lomicontrol.terminal.HumanHold;
import dev.lomicontrol.terminal.Terminal;
import dev.lomicontrol.terminal.screen.ScreenSnapshot;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.springframework.shell.core.command.CommandContext;
import org.springframework.shell.core.command.annotation.Argument;
import org.springframework.shell.core.command.annotation.Command;
import org.springframework.shell.core.command.annotation.Option;
import org.springframework.stereotype.Component;

/**
 * The admin's window on agents' terminals, broker side: {@code terminal screen} (the screen model's
 * snapshot, optionally waiting for the next change — a waiting request holds a change listener only
 * while it waits, so nobody watching costs nothing), and the admin's hold on a terminal's input
 * ({@code terminal hold|keys|resize|release}), which lives as long as the admin connection that took
 * it. The console client's {@code terminal watch} and {@code terminal attach} ({@link TerminalView})
 * are made of these; run inside the broker they only say so.
 */
@Component
class TerminalShareCommands implements CommandGroup {

    static final int MAX_WAIT_MS = 30_000;
    private static final int MAX_KEY_HEX = 2 * 16 * 1024;

    private final SharedTerminals terminals;

    TerminalShareCommands(SharedTerminals terminals) {
        this.terminals = terminals;
    }

    @Command(
            name = "terminal screen",
            group = "Terminal",
            description = "Show what a terminal panel's screen shows now",
            help = "terminal screen <panel> [--since VERSION] [--wait-ms MS] [--json]\n"
                    + "  The screen as the broker's terminal emulator holds it (text only; control characters shown"
                    + " escaped). --since: wait (up to --wait-ms, at most 30000) until the shell wrote more than"
                    + " VERSION (the document's version). --json: one JSON document.")
    public String screen(
            @Argument(index = 0, description = "panel id") String panel,
            @Option(longName = "since", description = "wait for a version above this one", defaultValue = "-1")
                    long since,
            @Option(longName = "wait-ms", description = "how long --since waits", defaultValue = "0") int waitMs,
            @Option(
                            longName = "json",
                            description = "print one JSON document (docs/OPERATIONS.md \"Scripting\")",
                            defaultValue = "false")
                    boolean json) {
        if (waitMs < 0 || waitMs > MAX_WAIT_MS) {
            throw new UsageException("--wait-ms must be 0-" + MAX_WAIT_MS);
        }
        SharedTerminals.Shared shared = terminals.find(panel);
        Terminal terminal = shared.terminal();
        if (since >= 0) {
            awaitChange(terminal, since, Duration.ofMillis(waitMs));
        }
        // the version is read before the snapshot: the snapshot is never older than it says
        long version = terminal.streamSequence();
        ScreenSnapshot screen = terminal.screen();
        ConsoleJson.TerminalScreen document = new ConsoleJson.TerminalScreen(
                shared.panel().id(),
                terminal.id(),
                version,
                terminal.isAlive(),
                terminal.exitCode().isPresent()
                        ? Optional.of(terminal.exitCode().getAsInt())
                        : Optional.empty(),
                terminal.humanHold().map(HumanHold::holder),
                screen.columns(),
                screen.rows(),
                screen.cursorRow(),
                screen.cursorColumn(),
                screen.cursorVisible(),
                screen.alternate(),
                screen.lines().stream().map(Visible::line).toList());
        if (json) {
            return ConsoleJson.write(document);
        }
        StringBuilder text = new StringBuilder("terminal " + terminal.id() + " of panel "
                + shared.panel().id() + ", "
                + screen.columns() + "x" + screen.rows() + ", version " + version
                + (terminal.isAlive() ? "" : ", exited " + terminal.exitCode().orElse(-1))
                + document.heldBy().map(h -> ", input held by " + h).orElse("") + "\n");
        document.lines().forEach(line -> text.append(line).append('\n'));
        return text.toString().stripTrailing();
    }

    @Command(
            name = "terminal watch",
            group = "Terminal",
            description = "Watch a terminal panel's screen live, read-only (console client)",
            help = "terminal watch <panel>\n"
                    + "  Draws the terminal's screen in your terminal and redraws it as it changes, until Ctrl-C."
                    + " Runs in the console client (lomi-control console terminal watch <panel>).")
    public String watch(@Argument(index = 0, description = "panel id") String panel) {
        terminals.find(panel).requireAlive();
        throw new LomiException(
                ErrorCode.INVALID_ARGUMENT,
                "terminal watch draws in your terminal: run it from the console client, lomi-control console"
                        + " terminal watch " + Visible.line(panel));
    }

    @Command(
            name = "terminal attach",
            group = "Terminal",
            description = "Share a terminal panel: your keys go to its shell (console client)",
            help = "terminal attach <panel>\n"
                    + "  As terminal watch, and you hold the terminal's input: your keys go to the shell (Ctrl-C too),"
                    + " agents' input and runs are refused TARGET_BUSY until you detach with Ctrl-]; the shell"
                    + " follows your terminal's size. Runs in the console client.")
    public String attach(@Argument(index = 0, description = "panel id") String panel) {
        terminals.find(panel).requireAlive();
        throw new LomiException(
                ErrorCode.INVALID_ARGUMENT,
                "terminal attach uses your terminal: run it from the console client, lomi-control console"
                        + " terminal attach " + Visible.line(panel));
    }

    @Command(
            name = "terminal hold",
            group = "Terminal",
            description = "Hold a terminal's input for this console connection",
            help = "terminal hold <panel>\n"
                    + "  What terminal attach does first: agents' input, runs and interrupts are refused TARGET_BUSY"
                    + " until terminal release or until this console connection ends.")
    public String hold(@Argument(index = 0, description = "panel id") String panel, CommandContext context) {
        ConnectionScope scope = scope(context, "terminal hold");
        SharedTerminals.Shared shared = terminals.find(panel).requireAlive();
        HumanHold hold = shared.terminal().holdForHuman(scope.name());
        if (!scope.put(key(shared), hold)) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "the console connection ended");
        }
        return "holding the input of terminal " + shared.terminal().id() + " (panel "
                + shared.panel().id() + ") for " + scope.name() + "; agents are refused until it is released";
    }

    @Command(
            name = "terminal release",
            group = "Terminal",
            description = "Give a held terminal's input back to the agents",
            help = "terminal release <panel>\n  Ends this connection's terminal hold; the agent's lease works again.")
    public String release(@Argument(index = 0, description = "panel id") String panel, CommandContext context) {
        ConnectionScope scope = scope(context, "terminal release");
        SharedTerminals.Shared shared = terminals.find(panel);
        if (!scope.remove(key(shared))) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND,
                    "this connection does not hold panel " + shared.panel().id());
        }
        return "released the input of terminal " + shared.terminal().id();
    }

    @Command(
            name = "terminal keys",
            group = "Terminal",
            description = "Type bytes into a held terminal",
            help = "terminal keys <panel> <hex>\n  Writes the bytes (hex, 1..16384) to the shell; needs terminal hold"
                    + " on this connection.")
    public String keys(
            @Argument(index = 0, description = "panel id") String panel,
            @Argument(index = 1, description = "hex") String hex,
            CommandContext context) {
        String digits = Text.required(hex, "hex");
        if (digits.length() > MAX_KEY_HEX || digits.length() % 2 != 0 || !digits.matches("[0-9a-fA-F]+")) {
            throw new UsageException("keys are 1.." + MAX_KEY_HEX / 2 + " bytes as hex digits");
        }
        held(panel, context, "terminal keys").type(HexFormat.of().parseHex(digits));
        return "";
    }

    @Command(
            name = "terminal resize",
            group = "Terminal",
            description = "Resize a held terminal",
            help =
                    "terminal resize <panel> <columns> <rows>\n  Resizes the shell's PTY (1..1024 each); needs terminal hold"
                            + " on this connection.")
    public String resize(
            @Argument(index = 0, description = "panel id") String panel,
            @Argument(index = 1, description = "columns") int columns,
            @Argument(index = 2, description = "rows") int rows,
            CommandContext context) {
        if (columns < 1 || columns > 1024 || rows < 1 || rows > 1024) {
            throw new UsageException("columns and rows are 1..1024");
        }
        held(panel, context, "terminal resize").resize(columns, rows);
        return "";
    }

    private HumanHold held(String panel, CommandContext context, String command) {
        SharedTerminals.Shared shared = terminals.find(panel);
        return scope(context, command)
                .get(key(shared))
                .map(HumanHold.class::cast)
                .orElseThrow(() -> new LomiException(
                        ErrorCode.CONTROL_REVOKED,
                        "this connection does not hold panel " + shared.panel().id() + " (terminal hold first)"));
    }

    private static ConnectionScope scope(CommandContext context, String command) {
        return ConnectionScope.of(context)
                .orElseThrow(() -> new LomiException(
                        ErrorCode.INVALID_ARGUMENT,
                        command + " belongs to a console connection: use lomi-control console terminal attach"));
    }

    private static String key(SharedTerminals.Shared shared) {
        return "terminal-hold:" + shared.terminal().id();
    }

    /** Returns once the shell wrote past {@code since}, exited, or {@code wait} passed. */
    private static void awaitChange(Terminal terminal, long since, Duration wait) {
        if (terminal.streamSequence() > since || !terminal.isAlive() || wait.isZero()) {
            return;
        }
        CountDownLatch changed = new CountDownLatch(1);
        Runnable remove = terminal.onChange(changed::countDown);
        try {
            if (terminal.streamSequence() <= since && terminal.isAlive()) {
                changed.await(wait.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            remove.run();
        }
    }
}
