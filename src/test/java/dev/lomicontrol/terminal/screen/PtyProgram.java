package dev.lomicontrol.terminal.screen;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.pty4j.PtyProcess;
import com.pty4j.PtyProcessBuilder;
import com.pty4j.WinSize;
import dev.lomicontrol.testing.Eventually;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Test helper: a real program on a real PTY (pty4j, {@code TERM=xterm-256color}) whose output a
 * reader thread feeds into a {@link Screen}, writing the screen's query replies back to the program
 * as a terminal would.
 */
final class PtyProgram implements AutoCloseable {

    /** Generous: a full-screen program on a loaded 2-core machine may take many seconds to draw. */
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    final Screen screen;
    private final PtyProcess process;
    private final OutputStream input;
    private final Thread reader;
    private volatile long bytesRead;

    private PtyProgram(PtyProcess process, Screen screen) {
        this.process = process;
        this.screen = screen;
        this.input = process.getOutputStream();
        this.reader = new Thread(this::pump, "pty-reader");
        reader.setDaemon(true);
        reader.start();
    }

    static PtyProgram start(Path directory, int columns, int rows, String... command) throws IOException {
        Map<String, String> environment = new HashMap<>();
        environment.put("TERM", "xterm-256color");
        environment.put("HOME", directory.toString());
        environment.put("PATH", "/usr/bin:/bin");
        environment.put("LANG", "C.UTF-8");
        PtyProcess process = new PtyProcessBuilder(command)
                .setEnvironment(environment)
                .setDirectory(directory.toString())
                .setInitialColumns(columns)
                .setInitialRows(rows)
                .setRedirectErrorStream(true)
                .start();
        return new PtyProgram(process, new Screen(columns, rows));
    }

    private void pump() {
        byte[] buffer = new byte[8192];
        try (InputStream output = process.getInputStream()) {
            int n;
            while ((n = output.read(buffer)) > 0) {
                bytesRead += n;
                byte[] reply = screen.feed(buffer, 0, n);
                if (reply.length > 0) {
                    send(reply);
                }
            }
        } catch (IOException endOfProcess) {
            // the PTY closes with an I/O error on Linux once the program is gone
        }
    }

    /** Types {@code keys} as a user would. */
    void type(String keys) {
        send(keys.getBytes(UTF_8));
    }

    private synchronized void send(byte[] bytes) {
        try {
            input.write(bytes);
            input.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Changes the PTY's window size (the program gets SIGWINCH) and the screen's with it. */
    void resize(int columns, int rows) {
        screen.resize(columns, rows);
        process.setWinSize(new WinSize(columns, rows));
    }

    /** Polls the screen until {@code condition} holds; fails with the last screen shown otherwise. */
    ScreenSnapshot await(String what, Predicate<ScreenSnapshot> condition) {
        return Eventually.await(
                "the screen shows " + what,
                PATIENCE,
                screen::snapshot,
                condition,
                snapshot -> "(" + bytesRead + " bytes read):\n" + dump(snapshot));
    }

    int awaitExit() throws InterruptedException {
        if (!process.waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS)) {
            throw new AssertionError("program did not exit:\n" + dump(screen.snapshot()));
        }
        return process.exitValue();
    }

    static String dump(ScreenSnapshot snapshot) {
        StringBuilder text = new StringBuilder();
        text.append("cursor ")
                .append(snapshot.cursorRow())
                .append(',')
                .append(snapshot.cursorColumn())
                .append(" alternate ")
                .append(snapshot.alternate())
                .append('\n');
        for (int i = 0; i < snapshot.lines().size(); i++) {
            text.append(String.format("%2d|%s%n", i, snapshot.lines().get(i)));
        }
        return text.toString();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(5, TimeUnit.SECONDS);
        }
        reader.join(5000);
    }
}
