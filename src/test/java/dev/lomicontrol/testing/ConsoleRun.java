package dev.lomicontrol.testing;

import dev.lomicontrol.LomiControl;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One {@code lomi-control console --data-dir DATA ARGS…} run in its own child JVM, the way an admin
 * runs it: made by {@link BrokerChildProcess#console()}, set up with the options below, then
 * {@link #run} (any outcome) or {@link #ok} (must exit 0). Each run gets its input on stdin, then
 * end of input, and must finish within {@link BrokerChildProcess#START}.
 */
public final class ConsoleRun {

    /** What a console process did; {@code stderr} is empty when it was merged into {@code stdout}. */
    public record Result(int exitCode, String stdout, String stderr) {

        /** stdout followed by stderr. */
        public String output() {
            return stdout + stderr;
        }
    }

    private final Path data;
    private Path directory;
    private String input = "";
    private final List<String> jvmOptions = new ArrayList<>();
    private Consumer<Map<String, String>> environment = env -> {};
    private boolean merged;

    ConsoleRun(Path data) {
        this.data = data;
    }

    /** Runs the console with {@code dir} as its working directory (its output is buffered there too). */
    public ConsoleRun in(Path dir) {
        directory = dir;
        return this;
    }

    /** What the console reads on stdin before end of input (default: nothing). */
    public ConsoleRun input(String stdin) {
        input = stdin;
        return this;
    }

    public ConsoleRun jvmOptions(List<String> options) {
        jvmOptions.addAll(options);
        return this;
    }

    /** Changes the console's environment (it starts as this JVM's). */
    public ConsoleRun environment(Consumer<Map<String, String>> change) {
        environment = environment.andThen(change);
        return this;
    }

    /** stderr into the same stream as stdout, interleaved as written (for output read as one text). */
    public ConsoleRun mergingStderr() {
        merged = true;
        return this;
    }

    /** Runs {@code console ARGS…} and answers what it did, whatever its exit status. */
    public Result run(String... args) throws IOException, InterruptedException {
        List<String> arguments = new ArrayList<>(List.of("console", "--data-dir", data.toString()));
        arguments.addAll(List.of(args));
        Path out = buffer("out");
        Path err = buffer("err");
        try {
            ProcessBuilder builder =
                    ChildJvm.builder(jvmOptions, LomiControl.class, arguments).redirectOutput(out.toFile());
            if (merged) {
                builder.redirectErrorStream(true);
            } else {
                builder.redirectError(err.toFile());
            }
            if (directory != null) {
                builder.directory(directory.toFile());
            }
            environment.accept(builder.environment());
            Process console = builder.start();
            try (OutputStream stdin = console.getOutputStream()) {
                stdin.write(input.getBytes(StandardCharsets.UTF_8));
            }
            if (!console.waitFor(BrokerChildProcess.START.toSeconds(), TimeUnit.SECONDS)) {
                console.destroyForcibly();
                throw new AssertionError("console " + String.join(" ", args) + " did not finish");
            }
            return new Result(console.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** Runs {@code console ARGS…}, which must exit 0; answers its stdout. */
    public String ok(String... args) throws IOException, InterruptedException {
        Result result = run(args);
        if (result.exitCode() != 0) {
            throw new AssertionError(
                    "console " + String.join(" ", args) + " exited " + result.exitCode() + ": " + result.output());
        }
        return result.stdout();
    }

    private Path buffer(String suffix) throws IOException {
        return directory != null
                ? Files.createTempFile(directory, "console", "." + suffix)
                : Files.createTempFile("console", "." + suffix);
    }
}
