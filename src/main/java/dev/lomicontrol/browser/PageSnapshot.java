package dev.lomicontrol.browser;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * A bounded semantic projection of a page: the main document and its same-origin frames (at most
 * 16, nested at most 4 deep), their accessibility-tree elements with refs valid only for this
 * {@code snapshotId}. Form values never appear, only their length.
 *
 * @param omittedElements elements left out beyond {@code maxNodes}
 * @param omittedFrames frames left out (cross-origin, too deep, or beyond 16)
 */
public record PageSnapshot(
        String snapshotId,
        String navigationId,
        String mainFrameId,
        String origin,
        String url,
        Instant capturedAt,
        JsonNode viewport,
        List<Frame> frames,
        List<Element> elements,
        int omittedElements,
        int omittedFrames) {

    /** One projected frame; {@code viewportRef} is what lomi_browser_scroll names it by. */
    public record Frame(
            String frameId,
            Optional<String> parentFrameId,
            String origin,
            String url,
            String viewportRef,
            JsonNode viewport) {}

    /** One element: its ref, the accessibility role and name Chromium computed, and its state. */
    public record Element(
            String frameId,
            String elementRef,
            String role,
            String name,
            boolean enabled,
            boolean editable,
            Optional<Boolean> checked,
            Optional<Long> valueLength) {}
}
