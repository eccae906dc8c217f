package dev.lomicontrol.android;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Starts the user's adb server the way the adb client does: {@code adb -P <port> start-server}, argv
 * only, its output discarded (the server daemonizes and logs to its own file), bounded in time. One
 * start at a time per bridge.
 */
final class ServerStarter {

    private final int port;
    private final Optional<Path> adb;
    private final Duration limit;

    ServerStarter(int port, Optional<Path> adb, Duration limit) {
        this.port = port;
        this.adb = adb;
        this.limit = limit;
    }

    /**
     * Runs {@code adb start-server}, for at most the starter's limit and {@code within}; HOST_UNQUALIFIED
     * when it fails, DEADLINE_EXCEEDED (the process killed) when it does not finish in time.
     */
    synchronized void start(Duration within) {
        Duration allowed = within.compareTo(limit) < 0 ? within : limit;
        if (allowed.isNegative() || allowed.isZero()) {
            throw new LomiException(ErrorCode.DEADLINE_EXCEEDED, "no time was left to start the adb server");
        }
        Path program = adb.orElseThrow();
        List<String> argv = List.of(program.toString(), "-P", Integer.toString(port), "start-server");
        Process process;
        try {
            ProcessBuilder builder = new ProcessBuilder(argv)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            builder.environment().put("ANDROID_ADB_SERVER_PORT", Integer.toString(port));
            process = builder.start();
        } catch (IOException e) {
            throw new LomiException(
                    ErrorCode.HOST_UNQUALIFIED, "could not run " + program + " start-server: " + e.getMessage(), e);
        }
        try {
            if (!process.waitFor(allowed.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new LomiException(
                        ErrorCode.DEADLINE_EXCEEDED,
                        program + " start-server did not finish within " + allowed.toMillis() + " ms; it was stopped");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new LomiException(ErrorCode.DEADLINE_EXCEEDED, "interrupted while starting the adb server", e);
        }
        if (process.exitValue() != 0) {
            throw new LomiException(
                    ErrorCode.HOST_UNQUALIFIED,
                    program + " start-server exited with " + process.exitValue() + "; run it by hand to see why");
        }
    }
}
