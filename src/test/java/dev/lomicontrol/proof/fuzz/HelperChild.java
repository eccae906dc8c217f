package dev.lomicontrol.proof.fuzz;

import dev.lomicontrol.LomiControl;
import dev.lomicontrol.testing.ChildJvm;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The real helper ({@code lomi-control --mcp}) in a child JVM. Its stdout is read as raw bytes and
 * split only at {@code \n}, so invalid UTF-8 or stray output is seen exactly as a client would see
 * it; end of stdout is reported as {@link #END}.
 */
final class HelperChild implements AutoCloseable {

    /** Marks the end of the helper's stdout (the process ended or closed it). */
    static final byte[] END = new byte[0];

    final Process process;
    final Path stderr;
    private final OutputStream stdin;
    private final BlockingQueue<byte[]> lines = new LinkedBlockingQueue<>();

    private HelperChild(Process process, Path stderr) {
        this.process = process;
        this.stderr = stderr;
        this.stdin = process.getOutputStream();
        Thread reader = new Thread(this::readStdout, "fuzz-helper-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code --mcp ARGS} with the given {@code -D} properties; stderr goes to {@code stderr}. */
    static HelperChild start(Path stderr, List<String> args, Map<String, String> properties) throws IOException {
        List<String> helperArgs = new ArrayList<>(List.of("--mcp"));
        helperArgs.addAll(args);
        List<String> command =
                new ArrayList<>(ChildJvm.builder(LomiControl.class, helperArgs).command());
        properties.forEach((name, value) -> command.add(1, "-D" + name + "=" + value));
        FuzzBroker.fullJitIfAsked(command);
        return new HelperChild(
                new ProcessBuilder(command).redirectError(stderr.toFile()).start(), stderr);
    }

    void send(byte[] bytes) throws IOException {
        stdin.write(bytes);
        stdin.flush();
    }

    /** The next stdout line without its {@code \n}, {@link #END} after the last, or null after {@code wait}. */
    byte[] nextLine(Duration wait) throws InterruptedException {
        byte[] line = lines.poll(wait.toNanos(), TimeUnit.NANOSECONDS);
        if (line == END) {
            lines.add(END); // stays at the end for every later caller
        }
        return line;
    }

    /** Closes stdin and returns the exit status, or -1 when the helper did not exit within {@code wait}. */
    int closeAndWait(Duration wait) throws Exception {
        stdin.close();
        return process.waitFor(wait.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
    }

    /** How many times this helper connected to a broker so far (its stderr says so on every connection). */
    long brokerConnections() throws IOException {
        String log = new String(java.nio.file.Files.readAllBytes(stderr), java.nio.charset.StandardCharsets.ISO_8859_1);
        return log.lines()
                .filter(line -> line.contains("broker connection: connected"))
                .count();
    }

    private void readStdout() {
        try (InputStream in = process.getInputStream()) {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            byte[] chunk = new byte[64 * 1024];
            for (int read = in.read(chunk); read >= 0; read = in.read(chunk)) {
                int start = 0;
                for (int i = 0; i < read; i++) {
                    if (chunk[i] == '\n') {
                        line.write(chunk, start, i - start);
                        lines.add(line.toByteArray());
                        line.reset();
                        start = i + 1;
                    }
                }
                line.write(chunk, start, read - start);
            }
            if (line.size() > 0) {
                lines.add(line.toByteArray()); // an unterminated last line is still checked
            }
        } catch (IOException e) {
            // the process ended
        } finally {
            lines.add(END);
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
