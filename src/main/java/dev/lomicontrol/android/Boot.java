package dev.lomicontrol.android;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** Waiting for an emulator's boot: adb lists its serial and {@code getprop sys.boot_completed} says 1. */
final class Boot {

    private Boot() {}

    /**
     * Returns once {@code serial} has booted; before {@code end} ({@link System#nanoTime}) or the
     * process's exit, it runs {@code cleanup} and throws DEADLINE_EXCEEDED or UNSUPPORTED_CAPABILITY.
     */
    static void await(
            AdbBridge bridge,
            String serial,
            ProcessHandle process,
            long end,
            Duration poll,
            Runnable cleanup,
            Path log) {
        while (true) {
            if (!process.isAlive()) {
                cleanup.run();
                throw new LomiException(
                        ErrorCode.UNSUPPORTED_CAPABILITY,
                        "the emulator exited before " + serial + " booted; its log " + log + " ends with: "
                                + Emulators.lastLine(log).orElse("(nothing)"));
            }
            long left = end - System.nanoTime();
            if (booted(bridge, serial, left)) {
                return;
            }
            left = end - System.nanoTime();
            if (left <= 0) {
                cleanup.run();
                throw new LomiException(
                        ErrorCode.DEADLINE_EXCEEDED,
                        serial + " did not finish booting (sys.boot_completed=1) in time; the emulator was stopped,"
                                + " its log is " + log);
            }
            try {
                Thread.sleep(Math.max(
                        1, Math.min(poll.toMillis(), Duration.ofNanos(left).toMillis())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                cleanup.run();
                throw new LomiException(ErrorCode.APP_CLOSING, "the boot of " + serial + " was interrupted", e);
            }
        }
    }

    private static boolean booted(AdbBridge bridge, String serial, long leftNanos) {
        if (leftNanos <= 0) {
            return false;
        }
        try {
            ShellResult result = bridge.shell(
                    serial,
                    List.of("getprop", "sys.boot_completed"),
                    Duration.ofNanos(Math.min(leftNanos, Duration.ofSeconds(5).toNanos())),
                    64);
            return result.exitCode() == 0 && result.stdoutText().strip().equals("1");
        } catch (LomiException notYet) {
            return false; // not listed yet, offline, or still starting
        }
    }
}
