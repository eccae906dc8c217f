package dev.lomicontrol.android.tools;

import dev.lomicontrol.android.ShellResult;
import dev.lomicontrol.android.api.AndroidResults;
import dev.lomicontrol.android.api.AndroidSpecs;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.pairing.Session;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code lomi_android_logcat}: a snapshot of the recent lines of one app's process, paged. A call
 * without a cursor resolves the package's process now ({@code pidof}: a restarted app has a new pid)
 * and takes {@code logcat -d -v threadtime -t 256 --pid=<pid> *:<minPriority>} (at most 256 lines and
 * 64 KiB; older lines are left out and {@code truncated} says so); it answers the first {@code limit}
 * lines and a cursor for the rest, valid for 60 s, bound to the caller, the device, its generation,
 * the package and the priority. A cursor that expired or names another query answers CURSOR_EXPIRED.
 * At most {@link #MAX_CURSORS} cursors live at once (the one expiring first is dropped for a new one).
 */
final class AndroidLogcat {

    static final Duration DEADLINE = Duration.ofSeconds(10);
    static final Duration CURSOR_LIFETIME = Duration.ofSeconds(60);
    static final int MAX_LINES = 256;
    static final int MAX_BYTES = 64 * 1024;
    /** Live cursors kept at most (each holds up to 64 KiB); beyond, the one expiring first is dropped. */
    static final int MAX_CURSORS = 64;

    private final AndroidPanels live;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Taken> cursors = new ConcurrentHashMap<>();

    /** One snapshot: its query, its lines, the next line a cursor continues at, when it expires. */
    private record Taken(
            String owner,
            String deviceId,
            String generation,
            String packageName,
            String priority,
            long processId,
            List<String> lines,
            boolean truncated,
            int next,
            long expiresAtNanos) {}

    AndroidLogcat(AndroidPanels live) {
        this.live = live;
    }

    AndroidResults.Logcat logcat(Session session, AndroidSpecs.LogcatInput in) {
        GrantedDevices.requirePackage(session, in.packageName());
        AndroidPanels.Bound bound = live.bound(session, in.workspaceId(), in.panelId(), in.deviceId(), in.generation());
        long now = System.nanoTime();
        cursors.values().removeIf(taken -> taken.expiresAtNanos() - now < 0);
        Taken taken = in.cursor().isPresent()
                ? continued(session, bound, in, in.cursor().get().value())
                : live.observe(bound, () -> take(session, bound, in));
        int end = Math.min(taken.lines().size(), taken.next() + in.limit());
        Optional<String> nextCursor = Optional.empty();
        if (end < taken.lines().size()) {
            evictBeyond(MAX_CURSORS - 1);
            String cursor = "lc-" + Ids.randomHex(random, 12);
            cursors.put(
                    cursor,
                    new Taken(
                            taken.owner(),
                            taken.deviceId(),
                            taken.generation(),
                            taken.packageName(),
                            taken.priority(),
                            taken.processId(),
                            taken.lines(),
                            taken.truncated(),
                            end,
                            System.nanoTime() + CURSOR_LIFETIME.toNanos()));
            nextCursor = Optional.of(cursor);
        }
        return new AndroidResults.Logcat(
                in.workspaceId(),
                bound.deviceId(),
                bound.generation(),
                in.packageName(),
                taken.processId(),
                List.copyOf(taken.lines().subList(taken.next(), end)),
                nextCursor,
                taken.truncated(),
                nextCursor.isEmpty(),
                "process " + taken.processId() + " of " + in.packageName() + ", priority " + taken.priority()
                        + " and above",
                taken.truncated() ? "older lines than the snapshot's first were left out" : "none");
    }

    /** Drops the cursors expiring first until at most {@code keep} are left. */
    private synchronized void evictBeyond(int keep) {
        while (cursors.size() > keep) {
            cursors.entrySet().stream()
                    .min((a, b) -> Long.compare(
                            a.getValue().expiresAtNanos() - System.nanoTime(),
                            b.getValue().expiresAtNanos() - System.nanoTime()))
                    .ifPresent(oldest -> cursors.remove(oldest.getKey()));
        }
    }

    private Taken continued(Session session, AndroidPanels.Bound bound, AndroidSpecs.LogcatInput in, String cursor) {
        Taken taken = cursors.remove(cursor);
        if (taken == null
                || !taken.owner().equals(session.id().value())
                || !taken.deviceId().equals(bound.deviceId())
                || !taken.generation().equals(bound.generation())
                || !taken.packageName().equals(in.packageName())
                || !taken.priority().equals(in.minPriority().name())) {
            throw new LomiException(
                    ErrorCode.CURSOR_EXPIRED,
                    "the cursor expired (valid " + CURSOR_LIFETIME.toSeconds() + " s, once) or belongs to another"
                            + " device, generation, package or priority; call without a cursor for a new snapshot");
        }
        return taken;
    }

    private Taken take(Session session, AndroidPanels.Bound bound, AndroidSpecs.LogcatInput in) {
        long end = System.nanoTime() + DEADLINE.toNanos();
        ShellResult pidof =
                bound.devices().bridge().shell(bound.serial(), List.of("pidof", in.packageName()), DEADLINE, 1024);
        String[] pids = pidof.stdoutText().strip().split("\\s+");
        if (pidof.exitCode() != 0 || pids[0].isEmpty() || !pids[0].matches("\\d{1,9}")) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND,
                    in.packageName() + " has no running process on device " + bound.deviceId()
                            + " (pidof found none); launch it first");
        }
        long pid = Long.parseLong(pids[0]);
        String priority = in.minPriority().name();
        ShellResult logcat = bound.devices()
                .bridge()
                .shell(
                        bound.serial(),
                        List.of(
                                "logcat",
                                "-d",
                                "-v",
                                "threadtime",
                                "-t",
                                Integer.toString(MAX_LINES),
                                "--pid=" + pid,
                                "*:" + priority),
                        Duration.ofNanos(Math.max(1, end - System.nanoTime())),
                        MAX_BYTES * 4);
        if (logcat.exitCode() != 0) {
            throw new LomiException(
                    ErrorCode.UNSUPPORTED_CAPABILITY,
                    "logcat exited with " + logcat.exitCode() + ": "
                            + logcat.stderrText().strip());
        }
        String[] all = logcat.stdoutText().split("\n");
        List<String> kept = new ArrayList<>();
        int bytes = 0;
        boolean truncated = logcat.truncated();
        for (int i = all.length - 1; i >= 0; i--) {
            String line = all[i].stripTrailing();
            if (line.isEmpty() || line.startsWith("--------- beginning of")) {
                continue;
            }
            int size = line.getBytes(StandardCharsets.UTF_8).length + 1;
            if (kept.size() >= MAX_LINES || bytes + size > MAX_BYTES) {
                truncated = true;
                break;
            }
            kept.add(0, line);
            bytes += size;
        }
        return new Taken(
                session.id().value(),
                bound.deviceId(),
                bound.generation(),
                in.packageName(),
                priority,
                pid,
                List.copyOf(kept),
                truncated || kept.size() >= MAX_LINES,
                0,
                System.nanoTime() + CURSOR_LIFETIME.toNanos());
    }
}
