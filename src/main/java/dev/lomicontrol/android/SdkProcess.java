package dev.lomicontrol.android;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * One run of an SDK command-line tool ({@code sdkmanager}, {@code avdmanager}): argv only (never a
 * shell), under {@code setsid} so it leads its own process group, stdout and stderr merged and kept
 * up to {@link #MAX_OUTPUT} bytes, bounded by a deadline past which the whole group gets SIGKILL
 * (DEADLINE_EXCEEDED). A prompt it prints (output ending in {@code "(y/N): "} or {@code "[no]"}) is
 * answered by the caller's {@link Prompts}; with none, stdin is closed at once.
 */
public final class SdkProcess {

    /** At most this many bytes of a tool's output are kept (the rest is read and dropped). */
    static final int MAX_OUTPUT = 4 * 1024 * 1024;

    /** What a run printed and how it exited. */
    public record Result(int exit, String output) {}

    /** Answers a prompt: the output so far, the line to send (without its newline), or empty to close stdin. */
    @FunctionalInterface
    public interface Prompts extends Function<String, Optional<String>> {}

    private SdkProcess() {}

    /** Runs {@code argv} with {@code environment} added to this process's, stdin closed. */
    public static Result run(List<String> argv, Map<String, String> environment, Duration deadline) {
        return run(argv, environment, deadline, false, output -> Optional.empty());
    }

    /** Runs {@code argv}, each prompt answered by {@code prompts} (stdin closed when it answers empty). */
    public static Result run(List<String> argv, Map<String, String> environment, Duration deadline, Prompts prompts) {
        return run(argv, environment, deadline, true, prompts);
    }

    private static Result run(
            List<String> argv,
            Map<String, String> environment,
            Duration deadline,
            boolean interactive,
            Prompts prompts) {
        List<String> command = new ArrayList<>();
        command.add("setsid");
        command.addAll(argv);
        Process process;
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().putAll(environment);
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not run " + argv.get(0), e);
        }
        long end = System.nanoTime() + deadline.toNanos();
        Thread watchdog = new Thread(
                () -> {
                    try {
                        if (!process.waitFor(
                                Math.max(0, end - System.nanoTime()), java.util.concurrent.TimeUnit.NANOSECONDS)) {
                            ProcessGroup.signal(process.pid(), "KILL");
                            process.destroyForcibly();
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "sdk-tool-deadline");
        watchdog.setDaemon(true);
        watchdog.start();
        ByteArrayOutputStream kept = new ByteArrayOutputStream();
        OutputStream stdin = process.getOutputStream();
        boolean stdinOpen = true;
        try (InputStream out = process.getInputStream()) {
            byte[] buffer = new byte[8192];
            int n;
            if (!interactive) {
                stdin.close();
                stdinOpen = false;
            }
            while ((n = out.read(buffer)) >= 0) {
                if (kept.size() < MAX_OUTPUT) {
                    kept.write(buffer, 0, Math.min(n, MAX_OUTPUT - kept.size()));
                }
                if (!stdinOpen) {
                    continue;
                }
                String sofar = kept.toString(StandardCharsets.UTF_8);
                if (prompted(sofar)) {
                    Optional<String> answer = prompts.apply(sofar);
                    if (answer.isPresent()) {
                        stdinOpen = answered(stdin, answer.get());
                    } else {
                        stdin.close();
                        stdinOpen = false;
                    }
                }
            }
            int exit = process.waitFor();
            watchdog.join();
            ProcessGroup.signal(process.pid(), "KILL");
            if (System.nanoTime() - end >= 0) {
                throw new LomiException(
                        ErrorCode.DEADLINE_EXCEEDED,
                        Path.of(argv.get(0)).getFileName() + " did not finish within " + deadline.toSeconds()
                                + " s and was stopped (its process group got SIGKILL)");
            }
            return new Result(exit, kept.toString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the output of " + argv.get(0), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ProcessGroup.signal(process.pid(), "KILL");
            throw new LomiException(ErrorCode.OUTCOME_UNKNOWN, argv.get(0) + " was interrupted and stopped");
        }
    }

    /** Sends {@code answer} and a newline; false when the tool no longer reads (it exited). */
    private static boolean answered(OutputStream stdin, String answer) {
        try {
            stdin.write((answer + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
            return true;
        } catch (IOException gone) {
            return false;
        }
    }

    /** Whether the output ends in a question waiting for an answer on its line. */
    static boolean prompted(String output) {
        String tail = output.replaceAll("[ \\t]+$", "");
        return tail.endsWith("(y/N):") || tail.endsWith("(y/N)?") || tail.endsWith("[no]");
    }
}
