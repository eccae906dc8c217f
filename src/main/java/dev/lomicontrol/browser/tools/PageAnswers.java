package dev.lomicontrol.browser.tools;

import dev.lomicontrol.browser.PageSnapshot;
import dev.lomicontrol.browser.api.BrowserResults;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.tools.Encoder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A page's snapshot as the browser tools answer it: projected, fitted to {@code maxBytes} by
 * dropping elements from the end (and saying so in {@code limitations}), and the bounded snapshot an
 * operation's result carries ({@link #after}).
 */
final class PageAnswers {

    /** The bounds of the snapshot an operation's result carries (BrowserResults.AFTER says them). */
    static final int AFTER_NODES = 100;

    static final long AFTER_BYTES = 8192;
    private static final JsonMapper WIRE = JsonMapper.builder().build();
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(BrowserCalls.class);

    private PageAnswers() {}

    /** A snapshot answer that fits maxBytes, encoded, and how long reading the page took. */
    record Fitted(BrowserResults.Snapshot snapshot, JsonNode encoded, long pageNanos) {}

    static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.2f", nanos / 1e6);
    }

    /**
     * The snapshot an operation's result carries (the page after its effect, so that the model needs
     * no second call to see it): none without browser.read, and none when the page cannot be read
     * (the effect happened; the answer says so without it).
     */
    static Optional<BrowserResults.Snapshot> after(Session session, LiveBrowser live) {
        if (!session.grant().allows(dev.lomicontrol.browser.api.BrowserSpecs.SNAPSHOT.scope())) {
            return Optional.empty();
        }
        try {
            return Optional.of(snapshotOf(live, AFTER_NODES, AFTER_BYTES, true).snapshot());
        } catch (LomiException e) {
            log.debug("{}: no snapshot after the action ({})", live.page().generation(), e.code());
            return Optional.empty();
        }
    }

    static Fitted snapshotOf(LiveBrowser live, int maxNodes, long maxBytes) {
        return snapshotOf(live, maxNodes, maxBytes, false);
    }

    private static Fitted snapshotOf(LiveBrowser live, int maxNodes, long maxBytes, boolean afterAction) {
        long started = System.nanoTime();
        PageSnapshot snapshot = afterAction
                ? live.page().snapshotAfterAction(maxNodes)
                : live.page().snapshot(maxNodes);
        long pageNanos = System.nanoTime() - started;
        List<BrowserResults.Element> elements = new ArrayList<>();
        snapshot.elements()
                .forEach(e -> elements.add(new BrowserResults.Element(
                        e.frameId(),
                        e.elementRef(),
                        e.role(),
                        e.name(),
                        e.enabled(),
                        e.editable(),
                        e.checked(),
                        e.valueLength())));
        List<BrowserResults.Frame> frames = snapshot.frames().stream()
                .map(f -> new BrowserResults.Frame(
                        f.frameId(), f.parentFrameId(), f.origin(), f.url(), f.viewportRef(), f.viewport()))
                .toList();
        int keep = elements.size();
        BrowserResults.Snapshot answer =
                snapshot(live, snapshot, frames, elements, keep, snapshot.omittedElements(), 0);
        JsonNode encoded = Encoder.encode(answer);
        if (size(encoded) > maxBytes) {
            int low = 0;
            int high = keep;
            while (low < high) {
                int mid = (low + high + 1) / 2;
                if (size(Encoder.encode(snapshot(
                                live, snapshot, frames, elements, mid, snapshot.omittedElements(), keep - mid)))
                        <= maxBytes) {
                    low = mid;
                } else {
                    high = mid - 1;
                }
            }
            answer = snapshot(live, snapshot, frames, elements, low, snapshot.omittedElements(), keep - low);
            encoded = Encoder.encode(answer);
        }
        return new Fitted(answer, encoded, pageNanos);
    }

    private static BrowserResults.Snapshot snapshot(
            LiveBrowser live,
            PageSnapshot s,
            List<BrowserResults.Frame> frames,
            List<BrowserResults.Element> elements,
            int keep,
            int overNodes,
            int overBytes) {
        List<String> limitations = new ArrayList<>();
        limitations.add("form values are omitted (valueLength only)");
        limitations.add("cross-origin frames are not projected");
        if (overNodes > 0) {
            limitations.add(overNodes + " elements omitted beyond maxNodes");
        }
        if (overBytes > 0) {
            limitations.add(overBytes + " elements omitted beyond maxBytes");
        }
        if (s.omittedFrames() > 0) {
            limitations.add(s.omittedFrames() + " frames omitted (cross-origin, deeper than 4 or beyond 16)");
        }
        return new BrowserResults.Snapshot(
                live.workspace(),
                live.panelId(),
                live.page().generation(),
                s.navigationId(),
                s.snapshotId(),
                "accessibility",
                s.mainFrameId(),
                s.origin(),
                s.url(),
                s.capturedAt().toString(),
                s.viewport(),
                frames,
                List.copyOf(elements.subList(0, keep)),
                overNodes > 0 || overBytes > 0 || s.omittedFrames() > 0,
                s.omittedFrames(),
                limitations);
    }

    private static long size(JsonNode encoded) {
        return WIRE.writeValueAsBytes(encoded).length;
    }
}
