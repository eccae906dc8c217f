package dev.lomicontrol.android.tools;

import dev.lomicontrol.android.api.AndroidResults;
import dev.lomicontrol.android.api.AndroidSpecs;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.tools.Encoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import tools.jackson.databind.JsonNode;

/**
 * {@code lomi_android_snapshot}: {@code uiautomator dump /dev/tty} through {@code exec:} (the XML
 * byte for byte), parsed by {@link UiDump}, at most {@code maxNodes} nodes and an answer of at most
 * {@code maxBytes} (nodes are left out from the end until it fits; {@code truncated} says so).
 * uiautomator's "null root node" answer (no window yet, or the accessibility service busy) is asked
 * again every {@link #RETRY_PAUSE} within the call's {@link #BUDGET} of 12 s; after it, or when the
 * device does not answer in time, DEADLINE_EXCEEDED.
 */
final class AndroidSnapshots {

    static final Duration BUDGET = Duration.ofSeconds(12);
    static final Duration RETRY_PAUSE = Duration.ofMillis(300);
    /** The most a dump may send (a full-screen hierarchy is tens of KiB). */
    static final int MAX_DUMP = 4 * 1024 * 1024;

    static final List<String> DUMP = List.of("uiautomator", "dump", "/dev/tty");

    private final AndroidPanels live;
    private final SecureRandom random = new SecureRandom();

    AndroidSnapshots(AndroidPanels live) {
        this.live = live;
    }

    JsonNode snapshot(Session session, AndroidSpecs.SnapshotInput in) {
        AndroidPanels.Bound bound = live.bound(session, in.workspaceId(), in.panelId(), in.deviceId(), in.generation());
        return live.observe(bound, () -> {
            long end = System.nanoTime() + BUDGET.toNanos();
            byte[] dump = dump(bound, end);
            return fit(in, bound, UiDump.parse(dump, in.maxNodes()));
        });
    }

    /** The dump's output; "null root node" asked again until {@code end}. */
    private static byte[] dump(AndroidPanels.Bound bound, long end) {
        int attempts = 0;
        while (true) {
            long left = end - System.nanoTime();
            if (left <= 0) {
                throw new LomiException(
                        ErrorCode.DEADLINE_EXCEEDED,
                        "uiautomator answered no root node " + attempts + " times within " + BUDGET.toSeconds()
                                + " s (no window, or the screen is changing); call again");
            }
            byte[] output = bound.devices().bridge().exec(bound.serial(), DUMP, Duration.ofNanos(left), MAX_DUMP);
            attempts++;
            if (!UiDump.nullRoot(output)) {
                return output;
            }
            long pause = Math.min(RETRY_PAUSE.toNanos(), end - System.nanoTime());
            if (pause > 0) {
                LockSupport.parkNanos(pause);
            }
        }
    }

    /** The answer encoded, nodes dropped from the end until it is at most maxBytes. */
    private JsonNode fit(AndroidSpecs.SnapshotInput in, AndroidPanels.Bound bound, UiDump.Parsed parsed) {
        String snapshotId = "snap-" + Ids.randomHex(random, 8);
        String captured = Long.toString(System.currentTimeMillis());
        List<AndroidResults.Node> nodes = new ArrayList<>(parsed.nodes());
        boolean truncated = parsed.truncated();
        while (true) {
            List<String> limitations = new ArrayList<>();
            limitations.add("password fields' text is left out (valueOmitted)");
            if (truncated) {
                limitations.add("nodes after the first " + nodes.size() + " in document order were left out");
            }
            JsonNode answer = Encoder.encode(new AndroidResults.Snapshot(
                    in.workspaceId(),
                    bound.panelId(),
                    bound.deviceId(),
                    bound.generation(),
                    snapshotId,
                    captured,
                    parsed.display(),
                    parsed.rotation(),
                    "hardware_pixels",
                    List.copyOf(nodes),
                    truncated,
                    List.copyOf(limitations)));
            long size = answer.toString().getBytes(StandardCharsets.UTF_8).length;
            if (size <= in.maxBytes() || nodes.isEmpty()) {
                if (size > in.maxBytes()) {
                    throw new LomiException(
                            ErrorCode.PAYLOAD_TOO_LARGE,
                            "even a snapshot without nodes is " + size + " bytes, more than maxBytes " + in.maxBytes());
                }
                return answer;
            }
            long perNode = Math.max(1, size / Math.max(1, nodes.size()));
            int drop = (int) Math.max(1, Math.min(nodes.size(), (size - in.maxBytes()) / perNode));
            nodes.subList(nodes.size() - drop, nodes.size()).clear();
            truncated = true;
        }
    }
}
