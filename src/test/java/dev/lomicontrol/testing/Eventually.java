package dev.lomicontrol.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The one way tests wait: Awaitility polls a condition until it holds. No test sleeps to let
 * something happen (docs/adr/0011 lists the few sleeps that are the point of a test).
 *
 * <p>Every wait polls in the test's own thread, starts with an immediate check, and on timeout
 * fails with an {@link AssertionError} that names what was awaited and shows the last value seen.
 * An exception or {@code AssertionError} thrown by the probe ends the wait at once: probes use that
 * to stop when the child process they watch has died. Unlike Awaitility's default, an uncaught
 * exception in some other thread does not fail the wait (as with the loops this replaced).
 */
public final class Eventually {

    /** The default poll interval: short enough not to add latency, long enough not to burn a core. */
    public static final Duration POLL = Duration.ofMillis(20);

    private Eventually() {}

    /** Polls {@code probe} every {@code every} until {@code done} holds for its value; returns that value. */
    public static <T> T await(
            String what,
            Duration atMost,
            Duration every,
            Callable<T> probe,
            Predicate<? super T> done,
            Function<? super T, String> describe) {
        AtomicReference<T> last = new AtomicReference<>();
        try {
            return Awaitility.await(what)
                    .atMost(atMost)
                    .pollDelay(Duration.ZERO)
                    .pollInterval(every)
                    .pollInSameThread()
                    .dontCatchUncaughtExceptions()
                    .until(
                            () -> {
                                T value = probe.call();
                                last.set(value);
                                return value;
                            },
                            done);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(what + ": not within " + atMost + "; last seen: " + describe.apply(last.get()), e);
        }
    }

    public static <T> T await(String what, Duration atMost, Callable<T> probe, Predicate<? super T> done) {
        return await(what, atMost, POLL, probe, done, String::valueOf);
    }

    public static <T> T await(
            String what,
            Duration atMost,
            Callable<T> probe,
            Predicate<? super T> done,
            Function<? super T, String> describe) {
        return await(what, atMost, POLL, probe, done, describe);
    }

    /** Waits until {@code condition} is true; on timeout the failure shows {@code diagnostics}. */
    public static void until(String what, Duration atMost, Callable<Boolean> condition, Supplier<String> diagnostics) {
        await(what, atMost, POLL, condition, Boolean.TRUE::equals, ignored -> diagnostics.get());
    }

    public static void until(String what, Duration atMost, Callable<Boolean> condition) {
        until(what, atMost, condition, () -> "false");
    }

    /** As {@link #until(String, Duration, Callable)}, polling every {@code every} (a reply a client waits for in a tight loop). */
    public static void until(String what, Duration atMost, Duration every, Callable<Boolean> condition) {
        await(what, atMost, every, condition, Boolean.TRUE::equals, ignored -> "false");
    }

    /** True when {@code condition} holds within {@code atMost}, false when the time passes (for probes that report). */
    public static boolean holdsWithin(Duration atMost, Duration every, Callable<Boolean> condition) {
        try {
            Awaitility.await()
                    .atMost(atMost)
                    .pollDelay(Duration.ZERO)
                    .pollInterval(every)
                    .pollInSameThread()
                    .dontCatchUncaughtExceptions()
                    .until(condition);
            return true;
        } catch (ConditionTimeoutException e) {
            return false;
        }
    }

    /**
     * Checks that {@code condition} stays true for all of {@code period} ("nothing more happens"): it
     * cannot prove that nothing happens later, only that nothing happened within the period.
     */
    public static void holdsFor(String what, Duration period, Callable<Boolean> condition) {
        try {
            Awaitility.await(what)
                    .during(period)
                    .atMost(period.plus(period).plusSeconds(5))
                    .pollDelay(Duration.ZERO)
                    .pollInterval(POLL)
                    .pollInSameThread()
                    .dontCatchUncaughtExceptions()
                    .until(condition);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(what + ": did not hold for " + period, e);
        }
    }

    /**
     * Waits until a child process's log file matches {@code pattern} and returns group 1 (or the
     * whole match when the pattern has no group). Fails at once with the log when the process exits first.
     */
    public static String inLog(Path log, Pattern pattern, Process process, Duration atMost) {
        Matcher found = await(
                "'" + pattern + "' in " + log,
                atMost,
                Duration.ofMillis(50),
                () -> {
                    Matcher matcher = pattern.matcher(read(log));
                    if (matcher.find()) {
                        return matcher;
                    }
                    if (!process.isAlive()) {
                        throw new AssertionError("the process exited " + process.exitValue() + " before '" + pattern
                                + "' in " + log + ":\n" + read(log));
                    }
                    return null;
                },
                matcher -> matcher != null,
                ignored -> "\n" + read(log));
        return found.groupCount() > 0 ? found.group(1) : found.group();
    }

    private static String read(Path log) {
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
