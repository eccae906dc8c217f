package dev.lomicontrol.console;

import dev.lomicontrol.core.Visible;
import dev.lomicontrol.terminal.screen.ScreenSnapshot;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.jline.terminal.Attributes;
import org.jline.terminal.Size;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.jline.utils.NonBlockingInputStream;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code lomi-control console terminal watch <panel>} and {@code terminal attach <panel>}: an
 * agent's terminal drawn live in the admin's (Spring-free). The screen comes from the broker's
 * terminal emulator ({@code terminal screen --json}, asked again with {@code --since} so that the
 * broker answers when the shell wrote more, or after a second), never from the shell's bytes, and is
 * drawn by {@link ScreenRenderer} on the alternate screen; leaving restores the admin's terminal.
 * Watch is read-only and ends with Ctrl-C (or q). Attach first takes the terminal's input for its own
 * admin connection ({@code terminal hold}, released by {@code terminal release}, or by the broker
 * when that connection ends), sends every key but the detach key {@value #DETACH_NAME} to the shell
 * ({@code terminal keys}) and keeps the shell's size equal to the view's ({@code terminal resize}).
 * Exit status 0 when the admin leaves or the shell exits, 1 when the broker refuses, 3 when the
 * broker goes away.
 */
final class TerminalView {

    static final String DETACH_NAME = "Ctrl-]";
    static final byte DETACH = 0x1d;
    static final int POLL_WAIT_MS = 1000;
    private static final int KEY_CHUNK = 4096;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Opens another connection to the same broker. */
    interface Connections {
        AdminClient open() throws AdminClient.NoBroker;
    }

    private final Connections connections;
    private final String panel;
    private final boolean attach;
    private final @Nullable Terminal existing;
    private final Object drawing = new Object();
    private final AtomicReference<@Nullable ScreenSnapshot> shown = new AtomicReference<>();
    private final AtomicReference<@Nullable String> ended = new AtomicReference<>();
    private final AtomicBoolean brokerLost = new AtomicBoolean();
    private final AtomicBoolean resized = new AtomicBoolean();
    private volatile String status = "";
    private boolean left; // guarded by drawing: the admin's terminal is restored, draw nothing more

    private TerminalView(Connections connections, String panel, boolean attach, @Nullable Terminal existing) {
        this.connections = connections;
        this.panel = panel;
        this.attach = attach;
        this.existing = existing;
    }

    /** Whether {@code words} are {@code terminal watch|attach <panel>}. */
    static boolean wanted(List<String> words) {
        return words.size() == 3
                && words.get(0).equals("terminal")
                && (words.get(1).equals("watch") || words.get(1).equals("attach"));
    }

    static int run(Connections connections, List<String> words) throws IOException, AdminClient.NoBroker {
        return new TerminalView(connections, words.get(2), words.get(1).equals("attach"), null).run();
    }

    /** The same from the client's interactive loop, drawing on its JLine terminal (left open afterwards). */
    static int run(Connections connections, List<String> words, Terminal terminal)
            throws IOException, AdminClient.NoBroker {
        return new TerminalView(connections, words.get(2), words.get(1).equals("attach"), terminal).run();
    }

    private int run() throws IOException, AdminClient.NoBroker {
        try (AdminClient poll = connections.open()) {
            ConsoleResult first = poll.run(screenLine(-1));
            if (first.exitCode() != ConsoleResult.OK) {
                ConsoleOutput.print(first);
                return first.exitCode();
            }
            JsonNode document = JSON.readTree(first.stdout());
            if (!document.path("alive").asBoolean()) {
                ConsoleOutput.error("error: TARGET_NOT_FOUND: the shell of panel " + Visible.line(panel)
                        + " has exited (status " + document.path("exitCode").asInt() + ")");
                return ConsoleResult.REFUSED;
            }
            if (existing == null && System.console() == null) {
                ConsoleOutput.error("error: terminal " + (attach ? "attach" : "watch") + " needs a terminal");
                return ConsoleResult.REFUSED;
            }
            if (!attach) {
                return shown(poll, null, document);
            }
            try (AdminClient control = connections.open()) {
                ConsoleResult hold = control.run("terminal hold " + Words.quote(panel));
                if (hold.exitCode() != ConsoleResult.OK) {
                    ConsoleOutput.print(hold);
                    return hold.exitCode();
                }
                return shown(poll, control, document);
            }
        }
    }

    /** Draws until the admin leaves, the shell exits or the broker goes away; restores the admin's terminal. */
    private int shown(AdminClient poll, @Nullable AdminClient control, JsonNode first) throws IOException {
        String terminalId = Visible.line(first.path("terminalSessionId").asString());
        status = attach
                ? " attached to panel " + Visible.line(panel) + ": your keys go to its shell; " + DETACH_NAME
                        + " detaches "
                : " watching panel " + Visible.line(panel) + " (read-only); Ctrl-C leaves ";
        if (existing != null) {
            drawIn(existing, poll, control, first);
        } else {
            try (Terminal terminal = TerminalBuilder.builder().system(true).build()) {
                drawIn(terminal, poll, control, first);
            }
        }
        if (control != null && !brokerLost.get()) {
            control.run("terminal release " + Words.quote(panel));
        }
        if (brokerLost.get()) {
            ConsoleOutput.error("lomi-control console: lost the connection to the broker");
            return ConsoleResult.NO_BROKER;
        }
        String why = ended.get();
        ConsoleOutput.line((attach ? "detached from" : "left") + " terminal " + terminalId + " of panel "
                + Visible.line(panel) + (why == null ? "" : ": " + why));
        return ConsoleResult.OK;
    }

    private void drawIn(Terminal terminal, AdminClient poll, @Nullable AdminClient control, JsonNode first)
            throws IOException {
        Attributes saved = terminal.getAttributes();
        terminal.setAttributes(raw(saved));
        Terminal.SignalHandler previous = terminal.handle(Terminal.Signal.WINCH, signal -> resized.set(true));
        PrintWriter out = terminal.writer();
        try {
            out.print(ScreenRenderer.ENTER);
            out.flush();
            if (control != null) {
                resize(control, terminal.getSize());
            }
            draw(terminal, snapshot(first));
            Thread poller = new Thread(
                    () -> follow(poll, terminal, first.path("version").asLong()), "terminal-view");
            poller.setDaemon(true);
            poller.start();
            keys(terminal, control);
        } finally {
            synchronized (drawing) {
                left = true;
                out.print(ScreenRenderer.LEAVE);
                out.flush();
            }
            terminal.handle(Terminal.Signal.WINCH, previous);
            terminal.setAttributes(saved);
        }
    }

    /** Reads the admin's keys until the view ends: watch leaves on Ctrl-C, Ctrl-] or q; attach sends all but Ctrl-]. */
    private void keys(Terminal terminal, @Nullable AdminClient control) throws IOException {
        NonBlockingInputStream in = (NonBlockingInputStream) terminal.input();
        byte[] buffer = new byte[KEY_CHUNK];
        while (ended.get() == null) {
            if (resized.getAndSet(false)) {
                if (control != null && !resize(control, terminal.getSize())) {
                    return;
                }
                ScreenSnapshot last = shown.get();
                if (last != null) {
                    draw(terminal, last);
                }
            }
            int n = in.readBuffered(buffer, 200);
            if (n == NonBlockingInputStream.EOF) {
                return;
            }
            if (n <= 0) {
                continue;
            }
            if (control != null && resized.getAndSet(false) && !resize(control, terminal.getSize())) {
                return; // the size changed while the keys came: the shell gets the new size first
            }
            int detach = indexOf(buffer, n, control == null ? new byte[] {0x03, DETACH, 'q'} : new byte[] {DETACH});
            int send = detach < 0 ? n : detach;
            if (control != null && send > 0 && !send(control, buffer, send)) {
                return;
            }
            if (detach >= 0) {
                return;
            }
        }
    }

    private boolean send(AdminClient control, byte[] buffer, int length) {
        String hex = HexFormat.of().formatHex(buffer, 0, length);
        return accepted(() -> control.run("terminal keys " + Words.quote(panel) + " " + hex));
    }

    private boolean resize(AdminClient control, Size size) {
        int rows = ScreenRenderer.screenRows(size.getRows());
        int columns = Math.max(size.getColumns(), 1);
        return accepted(() -> control.run("terminal resize " + Words.quote(panel) + " " + columns + " " + rows));
    }

    private interface Call {
        ConsoleResult run() throws IOException;
    }

    /** Runs a control request; a refusal or a lost broker ends the view. */
    private boolean accepted(Call call) {
        try {
            ConsoleResult result = call.run();
            if (result.exitCode() != ConsoleResult.OK) {
                ended.compareAndSet(null, result.stderr());
                return false;
            }
            return true;
        } catch (IOException e) {
            brokerLost.set(true);
            ended.compareAndSet(null, "lost the connection to the broker");
            return false;
        }
    }

    /** The poller: asks for the next screen (the broker answers when the shell wrote more, or after a second). */
    private void follow(AdminClient poll, Terminal terminal, long version) {
        long seen = version;
        while (ended.get() == null) {
            try {
                ConsoleResult result = poll.run(screenLine(seen));
                if (result.exitCode() != ConsoleResult.OK) {
                    ended.compareAndSet(null, result.stderr());
                    return;
                }
                JsonNode document = JSON.readTree(result.stdout());
                seen = document.path("version").asLong();
                ScreenSnapshot screen = snapshot(document);
                if (!screen.equals(shown.get())) {
                    draw(terminal, screen);
                }
                if (!document.path("alive").asBoolean()) {
                    ended.compareAndSet(
                            null,
                            "the shell exited (status "
                                    + document.path("exitCode").asInt() + ")");
                }
            } catch (IOException | RuntimeException e) {
                brokerLost.set(e instanceof IOException);
                ended.compareAndSet(null, "lost the connection to the broker");
                return;
            }
        }
    }

    private String screenLine(long since) {
        return "terminal screen " + Words.quote(panel) + " --json"
                + (since < 0 ? "" : " --since " + since + " --wait-ms " + POLL_WAIT_MS);
    }

    private void draw(Terminal terminal, ScreenSnapshot screen) {
        synchronized (drawing) {
            if (left) {
                return;
            }
            shown.set(screen);
            Size size = terminal.getSize();
            PrintWriter out = terminal.writer();
            out.print(ScreenRenderer.frame(screen, size.getColumns(), size.getRows(), status));
            out.flush();
        }
    }

    /** The snapshot a {@code terminal screen --json} document describes (its text already escaped by the broker). */
    static ScreenSnapshot snapshot(JsonNode document) {
        List<String> lines = new ArrayList<>();
        document.path("lines").forEach(line -> lines.add(line.asString()));
        return new ScreenSnapshot(
                document.path("columns").asInt(),
                document.path("rows").asInt(),
                document.path("cursorRow").asInt(),
                document.path("cursorColumn").asInt(),
                document.path("cursorVisible").asBoolean(),
                document.path("alternate").asBoolean(),
                lines,
                "");
    }

    /** Raw input: no echo, no line editing, no signals from keys (Ctrl-C, Ctrl-Z, Ctrl-\ are bytes for the shell), no flow control. */
    private static Attributes raw(Attributes saved) {
        Attributes raw = new Attributes(saved);
        raw.setLocalFlags(
                java.util.EnumSet.of(
                        Attributes.LocalFlag.ICANON,
                        Attributes.LocalFlag.ECHO,
                        Attributes.LocalFlag.IEXTEN,
                        Attributes.LocalFlag.ISIG),
                false);
        raw.setInputFlags(
                java.util.EnumSet.of(Attributes.InputFlag.IXON, Attributes.InputFlag.ICRNL, Attributes.InputFlag.INLCR),
                false);
        raw.setControlChar(Attributes.ControlChar.VMIN, 1);
        raw.setControlChar(Attributes.ControlChar.VTIME, 0);
        return raw;
    }

    private static int indexOf(byte[] buffer, int length, byte[] any) {
        for (int i = 0; i < length; i++) {
            for (byte b : any) {
                if (buffer[i] == b) {
                    return i;
                }
            }
        }
        return -1;
    }
}
