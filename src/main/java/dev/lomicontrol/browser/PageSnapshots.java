package dev.lomicontrol.browser;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A page's snapshots and the refs of its current one: what a snapshot reads from the page (in as
 * few round trips as the frame tree allows), how it becomes a {@link PageSnapshot}, and which ref
 * or viewport an input names (STALE_SNAPSHOT after a newer snapshot or a navigation).
 */
final class PageSnapshots {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(PageSnapshots.class);

    static final int MAX_REFS = 500;
    private static final String VIEWPORT =
            "({width: innerWidth, height: innerHeight, deviceScaleFactor: devicePixelRatio})";

    private final PageChannel channel;
    private final PageEvents events;
    private final Clock clock;
    private volatile @Nullable Refs refs;

    /**
     * The snapshots an action answered since the current one (newest last, at most
     * {@link #MAX_ALONGSIDE}): their refs are valid beside the current snapshot's, so that an
     * agent that acts on the snapshot it asked for is not made stale by one it did not.
     */
    private volatile List<Refs> alongside = List.of();

    static final int MAX_ALONGSIDE = 8;

    /** An element a ref names: its frame and its node. */
    record Ref(String frameId, long backendNodeId) {}

    /** The refs and viewports of one snapshot. */
    record Refs(String snapshotId, String navigationId, Map<String, Ref> byRef, Map<String, String> viewports) {}

    /** A frame's accessibility tree and viewport, in flight. */
    private record FrameReads(CompletableFuture<JsonNode> tree, CompletableFuture<JsonNode> viewport) {}

    PageSnapshots(PageChannel channel, PageEvents events, Clock clock) {
        this.channel = channel;
        this.events = events;
        this.clock = clock;
    }

    /**
     * A fresh snapshot of at most {@code maxNodes} refs; earlier refs become stale. Everything is
     * requested in one batch (one round trip of latency): the frame tree, and the accessibility tree
     * and viewport of every frame the page's events announced. The frame tree answer decides what is
     * projected: a frame it has that the events had not announced yet is read in a second batch,
     * reads of frames it does not project are dropped. Only accessibility nodes that may be file
     * inputs are looked up in the DOM (a second batch, only when there are any).
     */
    PageSnapshot take(int maxNodes) {
        return take(maxNodes, false);
    }

    /**
     * As {@link #take(int)}; {@code alongsideCurrent}: the snapshot an action answers, whose refs
     * become valid beside the current snapshot's instead of replacing them.
     */
    PageSnapshot take(int maxNodes, boolean alongsideCurrent) {
        String navigation = events.navigationId();
        long started = System.nanoTime();
        CompletableFuture<JsonNode> treeAnswer = channel.request("Page.getFrameTree", null);
        Map<String, FrameReads> reads = new HashMap<>();
        for (String frame : events.announcedFrames()) {
            reads.put(frame, frameReads(frame));
        }
        JsonNode tree = channel.await(treeAnswer).path("frameTree");
        long framed = System.nanoTime();
        String topOrigin = AxProjection.frameOrigin(tree.path("frame"));
        List<AxProjection.FrameInfo> infos = new ArrayList<>();
        int[] omittedFrames = {0};
        AxProjection.collectFrames(tree, 1, topOrigin, infos, omittedFrames);
        int late = 0;
        for (AxProjection.FrameInfo info : infos) {
            if (!reads.containsKey(info.id())) {
                reads.put(info.id(), frameReads(info.id()));
                late++;
            }
        }
        // each frame's possible file inputs are described as soon as its tree arrives, while the other reads are still
        // in flight
        Map<String, JsonNode> axTrees = new HashMap<>();
        Map<String, CompletableFuture<Map<Long, JsonNode>>> described = new HashMap<>();
        for (AxProjection.FrameInfo info : infos) {
            described.put(
                    info.id(),
                    Objects.requireNonNull(reads.get(info.id()))
                            .tree()
                            .thenCompose(answer -> describe(answer.path("nodes"))));
        }
        Map<Long, JsonNode> dom = new HashMap<>();
        for (AxProjection.FrameInfo info : infos) {
            axTrees.put(
                    info.id(),
                    channel.await(Objects.requireNonNull(reads.get(info.id())).tree())
                            .path("nodes"));
            dom.putAll(channel.await(Objects.requireNonNull(described.get(info.id()))));
        }
        long treed = System.nanoTime();
        List<PageSnapshot.Frame> frames = new ArrayList<>();
        for (AxProjection.FrameInfo info : infos) {
            JsonNode viewport = channel.await(
                            Objects.requireNonNull(reads.get(info.id())).viewport())
                    .path("result")
                    .path("value");
            frames.add(new PageSnapshot.Frame(
                    info.id(),
                    info.parent(),
                    info.origin(),
                    info.url(),
                    info.main() ? "viewport" : "viewport:" + info.id(),
                    viewport.isObject() ? viewport : PageChannel.obj()));
        }
        Map<String, Ref> byRef = new HashMap<>();
        Map<String, String> viewports = new HashMap<>();
        List<PageSnapshot.Element> elements = new ArrayList<>();
        int omitted = 0;
        int limit = Math.min(maxNodes, MAX_REFS);
        for (PageSnapshot.Frame frame : frames) {
            viewports.put(frame.viewportRef(), frame.frameId());
            for (AxProjection.Candidate candidate :
                    AxProjection.candidates(Objects.requireNonNull(axTrees.get(frame.frameId())), dom)) {
                if (elements.size() >= limit) {
                    omitted++;
                    continue;
                }
                String ref = "e" + (elements.size() + 1);
                byRef.put(ref, new Ref(frame.frameId(), candidate.backendNodeId()));
                elements.add(new PageSnapshot.Element(
                        frame.frameId(),
                        ref,
                        candidate.role(),
                        candidate.name(),
                        candidate.enabled(),
                        candidate.editable(),
                        candidate.checked(),
                        candidate.valueLength()));
            }
        }
        if (log.isDebugEnabled()) {
            log.debug(
                    "snapshot reads (ms from the first request): frame tree {}, accessibility trees and file inputs {}, all {}",
                    ms(framed - started),
                    ms(treed - started),
                    ms(System.nanoTime() - started));
        }
        if (late > 0) {
            log.debug("snapshot: {} frame(s) read in a second batch (not yet announced by the page's events)", late);
        }
        String snapshotId = events.newId("snp");
        Refs taken = new Refs(snapshotId, navigation, byRef, viewports);
        synchronized (this) {
            if (alongsideCurrent) {
                List<Refs> kept = new ArrayList<>(alongside);
                kept.removeIf(r -> !r.navigationId().equals(navigation));
                kept.add(taken);
                alongside = List.copyOf(kept.subList(Math.max(0, kept.size() - MAX_ALONGSIDE), kept.size()));
            } else {
                refs = taken;
                alongside = List.of();
            }
        }
        JsonNode viewport = frames.isEmpty() ? PageChannel.obj() : frames.get(0).viewport();
        return new PageSnapshot(
                snapshotId,
                navigation,
                events.mainFrameId(),
                Origins.of(events.url()).orElse("null"),
                events.url(),
                clock.instant(),
                viewport,
                frames,
                elements,
                omitted,
                omittedFrames[0]);
    }

    private static String ms(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.2f", nanos / 1e6);
    }

    /**
     * The DOM elements (nodeName, attributes) of the accessibility nodes that may be file inputs, read
     * together in one batch; none when no node may be one.
     */
    private Map<Long, JsonNode> elements(java.util.Collection<JsonNode> axTrees) {
        Map<Long, JsonNode> out = new HashMap<>();
        for (JsonNode nodes : axTrees) {
            out.putAll(channel.await(describe(nodes)));
        }
        return out;
    }

    /** The DOM elements of one accessibility tree's possible file inputs, described together (at once when there are none). */
    private CompletableFuture<Map<Long, JsonNode>> describe(JsonNode nodes) {
        List<Long> suspects = AxProjection.fileInputSuspects(nodes);
        Map<Long, CompletableFuture<JsonNode>> answers = new HashMap<>();
        for (long backend : suspects) {
            answers.computeIfAbsent(
                    backend,
                    id -> channel.request("DOM.describeNode", PageChannel.obj().put("backendNodeId", id)));
        }
        return CompletableFuture.allOf(answers.values().toArray(new CompletableFuture<?>[0]))
                .thenApply(done -> {
                    Map<Long, JsonNode> out = new HashMap<>();
                    answers.forEach(
                            (backend, answer) -> out.put(backend, answer.join().path("node")));
                    return out;
                });
    }

    private FrameReads frameReads(String frameId) {
        return new FrameReads(
                channel.request("Accessibility.getFullAXTree", PageChannel.obj().put("frameId", frameId)),
                viewportOf(frameId));
    }

    /**
     * The frame's {width, height, deviceScaleFactor} as a Runtime.evaluate answer: the main frame and
     * a frame whose document's context the events announced in their own world (the page's, as for
     * the main frame); another frame in an isolated world created for it.
     */
    private CompletableFuture<JsonNode> viewportOf(String frameId) {
        ObjectNode params = PageChannel.obj().put("expression", VIEWPORT).put("returnByValue", true);
        if (frameId.equals(events.mainFrameId())) {
            return channel.request("Runtime.evaluate", params);
        }
        Optional<Integer> context = events.contextOf(frameId);
        if (context.isPresent()) {
            return channel.request("Runtime.evaluate", params.deepCopy().put("contextId", context.get()))
                    .exceptionallyCompose(
                            gone -> inIsolatedWorld(frameId, params)); // the document went away in between
        }
        return inIsolatedWorld(frameId, params);
    }

    private CompletableFuture<JsonNode> inIsolatedWorld(String frameId, ObjectNode params) {
        return channel.request(
                        "Page.createIsolatedWorld",
                        PageChannel.obj().put("frameId", frameId).put("worldName", "lomi"))
                .thenCompose(world -> channel.request(
                        "Runtime.evaluate",
                        params.deepCopy()
                                .put(
                                        "contextId",
                                        world.path("executionContextId").asInt())));
    }

    /** Whether an element of this role and name is in the projected frames now (what lomi_browser_wait's element condition asks). */
    boolean hasElement(String role, String name) {
        JsonNode tree = channel.send("Page.getFrameTree", null).path("frameTree");
        List<CompletableFuture<JsonNode>> trees = new ArrayList<>();
        for (String frame : AxProjection.sameOriginFrames(
                tree, AxProjection.frameOrigin(tree.path("frame")), 1, new ArrayList<>())) {
            trees.add(channel.request(
                    "Accessibility.getFullAXTree", PageChannel.obj().put("frameId", frame)));
        }
        List<JsonNode> axTrees = new ArrayList<>();
        for (CompletableFuture<JsonNode> frameTree : trees) {
            axTrees.add(channel.await(frameTree).path("nodes"));
        }
        Map<Long, JsonNode> dom = elements(axTrees);
        for (JsonNode nodes : axTrees) {
            for (AxProjection.Candidate candidate : AxProjection.candidates(nodes, dom)) {
                if (candidate.role().equals(role) && candidate.name().equals(name)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The element a current snapshot's ref names; STALE_SNAPSHOT after a new snapshot or a navigation, TARGET_NOT_FOUND for an unknown ref. */
    Ref resolve(String snapshotId, String navigation, String ref) {
        Ref target = current(snapshotId, navigation).byRef().get(ref);
        if (target == null) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND,
                    "snapshot " + snapshotId + " has no element " + ref + "; use an elementRef that snapshot listed");
        }
        return target;
    }

    /**
     * The refs of {@code snapshotId}, if it is the page's current snapshot of the current navigation
     * or one an action answered since (else STALE_SNAPSHOT).
     */
    Refs current(String snapshotId, String navigation) {
        String now = events.navigationId();
        if (!navigation.equals(now)) {
            throw new LomiException(
                    ErrorCode.STALE_SNAPSHOT,
                    "navigation " + navigation + " is over (the page is now " + now + "); take a new snapshot");
        }
        List<Refs> valid = new ArrayList<>(alongside);
        Refs current = refs;
        if (current != null) {
            valid.add(current);
        }
        for (Refs candidate : valid) {
            if (candidate.snapshotId().equals(snapshotId)
                    && candidate.navigationId().equals(navigation)) {
                return candidate;
            }
        }
        throw new LomiException(
                ErrorCode.STALE_SNAPSHOT,
                "snapshot " + snapshotId + " is not the page's current snapshot; take a new one");
    }
}
