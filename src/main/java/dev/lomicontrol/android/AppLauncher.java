package dev.lomicontrol.android;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Starts an app's activity and answers only whether the intent was delivered, as the seed says —
 * never that the app shows or does anything. An explicit activity is started with {@code am start -W
 * -n PKG/ACTIVITY}; without one, the launcher activity is first asked of the package manager ({@code
 * cmd package resolve-activity --brief -a android.intent.action.MAIN -c
 * android.intent.category.LAUNCHER PKG}). {@code am}'s output decides: a {@code Status: ok} (or
 * {@code timeout}: delivered, the launch still running) line is delivery; an {@code Error:} line is
 * TARGET_NOT_FOUND when the activity or package does not exist, UNSUPPORTED_CAPABILITY otherwise
 * (with the device's words); neither is OUTCOME_UNKNOWN.
 */
public final class AppLauncher {

    static final Pattern PACKAGE = Pattern.compile("[A-Za-z][A-Za-z0-9_]*(?:\\.[A-Za-z][A-Za-z0-9_]*)+");
    static final Pattern ACTIVITY = Pattern.compile("\\.?[A-Za-z_][A-Za-z0-9_$]*(?:\\.[A-Za-z_][A-Za-z0-9_$]*)*");
    static final int MAX_OUTPUT = 16 * 1024;

    /**
     * A delivered intent.
     *
     * @param component the {@code PKG/ACTIVITY} started
     * @param status what {@code am} said of it: {@code ok}, or {@code timeout} (delivered; the launch
     *     did not finish while am waited)
     */
    public record Delivered(String component, String status) {}

    private final AdbBridge bridge;

    public AppLauncher(AdbBridge bridge) {
        this.bridge = bridge;
    }

    /** Delivers the start intent of {@code activity} (or the launcher activity) of {@code packageName} within {@code deadline}. */
    public Delivered launch(String serial, String packageName, Optional<String> activity, Duration deadline) {
        if (!PACKAGE.matcher(packageName).matches()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "packageName is not a package name: " + packageName);
        }
        if (activity.isPresent() && !ACTIVITY.matcher(activity.get()).matches()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "activity is not a class name: " + activity.get());
        }
        long end = System.nanoTime() + deadline.toNanos();
        String component =
                activity.map(a -> packageName + "/" + a).orElseGet(() -> launcherOf(serial, packageName, deadline));
        ShellResult started =
                bridge.shell(serial, List.of("am", "start", "-W", "-n", component), left(end), MAX_OUTPUT);
        return new Delivered(component, AmOutput.status(component, started.stdoutText() + "\n" + started.stderrText()));
    }

    /** The launcher activity of {@code packageName}, as {@code PKG/ACTIVITY}; TARGET_NOT_FOUND when it has none. */
    String launcherOf(String serial, String packageName, Duration deadline) {
        ShellResult resolved = bridge.shell(
                serial,
                List.of(
                        "cmd",
                        "package",
                        "resolve-activity",
                        "--brief",
                        "-a",
                        "android.intent.action.MAIN",
                        "-c",
                        "android.intent.category.LAUNCHER",
                        packageName),
                deadline,
                MAX_OUTPUT);
        List<String> lines = resolved.stdoutText().strip().lines().toList();
        String last = lines.isEmpty() ? "" : lines.get(lines.size() - 1).strip();
        if (resolved.exitCode() != 0 || !last.startsWith(packageName + "/")) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND,
                    "the device names no launcher activity for " + packageName + " ("
                            + (last.isEmpty() ? "no answer" : last)
                            + "); check it is installed, or name the activity");
        }
        return last;
    }

    private static Duration left(long end) {
        long nanos = end - System.nanoTime();
        if (nanos <= 0) {
            throw new LomiException(ErrorCode.DEADLINE_EXCEEDED, "the launch ran out of time before am start was sent");
        }
        return Duration.ofNanos(nanos);
    }
}
