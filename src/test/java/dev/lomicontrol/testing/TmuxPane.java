package dev.lomicontrol.testing;

import dev.lomicontrol.LomiControl;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A real terminal for the console tests: one tmux session on a private tmux server (its own
 * socket, killed on {@link #close}), whose pane runs {@code lomi-control ARGS} from a small script
 * that prints {@code SERVE-EXIT <status>} when it ends, then lingers so the screen can be read.
 */
public final class TmuxPane implements AutoCloseable {

    private final String server;
    private final String session;

    /** A pane of session {@code session} on the private server {@code serverPrefix-<this JVM's pid>}. */
    public TmuxPane(String serverPrefix, String session) {
        this.server = serverPrefix + "-" + ProcessHandle.current().pid();
        this.session = session;
    }

    /** Fails with the install command when tmux is missing. */
    public static void requireTmux() {
        Machine.requireOnPath("tmux", "-V", "tmux");
    }

    public String session() {
        return session;
    }

    /**
     * Starts {@code lomi-control args} in a new {@code columns}x{@code rows} session, in
     * {@code directory}, after the shell lines {@code before}; {@code redirect} follows the command
     * (e.g. {@code 2>FILE}).
     */
    public void start(Path directory, List<String> args, String before, String redirect, int columns, int rows)
            throws IOException {
        StringBuilder script = new StringBuilder("cd ")
                .append(quote(directory.toString()))
                .append('\n')
                .append(before);
        ChildJvm.builder(LomiControl.class, args)
                .command()
                .forEach(word -> script.append(quote(word)).append(' '));
        script.append(redirect).append("\necho SERVE-EXIT $?\nsleep 60\n");
        Path file = directory.resolve("run.sh");
        Files.writeString(file, script.toString(), StandardCharsets.UTF_8);
        tmux(
                "new-session",
                "-d",
                "-s",
                session,
                "-x",
                String.valueOf(columns),
                "-y",
                String.valueOf(rows),
                "sh " + file);
    }

    /** Types {@code line} literally, then Enter. */
    public void type(String line) {
        tmux("send-keys", "-t", session, "-l", line);
        tmux("send-keys", "-t", session, "Enter");
    }

    /**
     * Waits (up to 120 s) until the pane shows {@code text} — on its screen, or also in the 500 lines
     * above it ({@code history}); a timeout shows the screen and {@code more}.
     */
    public void awaitScreen(String text, boolean history, Supplier<String> more) {
        List<String> capture = new ArrayList<>(List.of("capture-pane", "-p", "-J", "-t", session));
        if (history) {
            capture.addAll(List.of("-S", "-500"));
        }
        Eventually.await(
                "'" + text + "' on the screen",
                Duration.ofSeconds(120),
                Duration.ofMillis(100),
                () -> tmux(capture.toArray(String[]::new)),
                screen -> screen.contains(text),
                screen -> "\n" + screen + more.get());
    }

    /** A tmux command on the private server; its output. */
    public String tmux(String... args) {
        List<String> command = new ArrayList<>(List.of("tmux", "-L", server));
        command.addAll(List.of(args));
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            process.waitFor(30, TimeUnit.SECONDS);
            return output;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command, e);
        }
    }

    @Override
    public void close() {
        tmux("kill-server");
    }

    private static String quote(String word) {
        return word.matches("[A-Za-z0-9_./=:@%+,-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
    }
}
