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

    /** Runs {@code adb start-server}; HOST_UNQUALIFIED when it fails or does not finish within the limit. */
    synchronized void start() {
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
            if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new LomiException(
                        ErrorCode.DEADLINE_EXCEEDED,
                        program + " start-server did not finish within " + limit.toSeconds() + " s; it was stopped");
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
