package dev.lomicontrol.browser;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * How a page's frame tree and accessibility trees become a snapshot's frames and elements: which
 * frames are projected (same origin as the top document, at most 16, nested at most 4 deep), which
 * accessibility nodes become elements (interactive or named ones, text not already in an ancestor's
 * name, file inputs as {@code file_input}), and that nothing inside a field (its value) is projected.
 */
final class AxProjection {

    static final int MAX_FRAMES = 16;
    static final int MAX_FRAME_DEPTH = 4;

    private AxProjection() {}

    private static final Set<String> SKIPPED_ROLES = Set.of(
            "none",
            "generic",
            "InlineTextBox",
            "RootWebArea",
            "WebArea",
            "LineBreak",
            "paragraph",
            "ListMarker",
            "Iframe",
            "IframePresentational",
            "LayoutTable",
            "LayoutTableRow",
            "LayoutTableCell",
            "presentation",
            "Section",
            "div",
            "list",
            "listitem",
            "group",
            "LabelText",
            "main",
            "navigation",
            "banner",
            "contentinfo",
            "region",
            "form",
            "article",
            "Pre",
            "Canvas",
            "Abbr",
            "Ruby",
            "time",
            "strong",
            "emphasis",
            "code",
            "mark",
            "subscript",
            "superscript",
            "insertion",
            "deletion",
            "blockquote",
            "figure",
            "Figcaption",
            "DescriptionList",
            "term",
            "definition",
            "rowgroup",
            "Legend");

    record FrameInfo(String id, Optional<String> parent, String origin, String url, boolean main) {}

    static void collectFrames(JsonNode node, int depth, String topOrigin, List<FrameInfo> frames, int[] omitted) {
        JsonNode frame = node.path("frame");
        String origin = frameOrigin(frame);
        boolean main = frames.isEmpty() && depth == 1;
        if (!main && (depth > MAX_FRAME_DEPTH || frames.size() >= MAX_FRAMES || !origin.equals(topOrigin))) {
            omitted[0] += 1 + countFrames(node);
            return;
        }
        frames.add(new FrameInfo(
                frame.path("id").asString(),
                Optional.ofNullable(frame.get("parentId")).map(JsonNode::asString),
                origin,
                frame.path("url").asString(),
                main));
        for (JsonNode child : node.path("childFrames")) {
            collectFrames(child, depth + 1, topOrigin, frames, omitted);
        }
    }

    static int countFrames(JsonNode node) {
        int n = 0;
        for (JsonNode child : node.path("childFrames")) {
            n += 1 + countFrames(child);
        }
        return n;
    }

    static String frameOrigin(JsonNode frame) {
        return Origins.of(frame.path("url").asString("")).orElse("null");
    }

    record Candidate(
            long backendNodeId,
            String role,
            String name,
            boolean enabled,
            boolean editable,
            Optional<Boolean> checked,
            Optional<Long> valueLength) {}

    /** The frame's accessibility tree in document order: named or interactive nodes; text already in an ancestor's name is skipped. */
    static List<Candidate> candidates(JsonNode nodes, Map<Long, JsonNode> dom) {
        Map<String, JsonNode> byId = new HashMap<>();
        nodes.forEach(n -> byId.put(n.path("nodeId").asString(), n));
        List<Candidate> out = new ArrayList<>();
        if (nodes.isEmpty()) {
            return out;
        }
        walk(nodes.get(0), byId, dom, "", out);
        return out;
    }

    private static void walk(
            JsonNode node,
            Map<String, JsonNode> byId,
            Map<Long, JsonNode> dom,
            String ancestorName,
            List<Candidate> out) {
        String inherited = ancestorName;
        if (!node.path("ignored").asBoolean(false)) {
            String role = node.path("role").path("value").asString("");
            String name = node.path("name").path("value").asString("").strip();
            long backend = node.path("backendDOMNodeId").asLong(0);
            JsonNode element = dom.get(backend);
            boolean fileInput = element != null
                    && element.path("nodeName").asString().equals("INPUT")
                    && "file".equalsIgnoreCase(attribute(element, "type"));
            boolean text = role.equals("StaticText");
            boolean interesting = fileInput
                    || (!SKIPPED_ROLES.contains(role) && !role.isEmpty() && (!name.isEmpty() || isInteractive(role)));
            if (text && (name.isEmpty() || ancestorName.contains(name))) {
                interesting = false;
            }
            if (interesting && backend != 0) {
                Map<String, JsonNode> props = new HashMap<>();
                node.path("properties")
                        .forEach(p -> props.put(
                                p.path("name").asString(), p.path("value").path("value")));
                boolean enabled =
                        !props.containsKey("disabled") || !props.get("disabled").asBoolean(false);
                boolean editable = props.containsKey("editable")
                        && !props.get("editable").asString("").isEmpty();
                Optional<Boolean> checked = props.containsKey("checked")
                        ? Optional.of(props.get("checked")
                                .asString(props.get("checked").toString())
                                .equals("true"))
                        : Optional.empty();
                JsonNode value = node.path("value").path("value");
                Optional<Long> valueLength =
                        editable || role.equals("textbox") || role.equals("combobox") || role.equals("searchbox")
                                ? Optional.of((long)
                                        (value.isMissingNode() || value.isNull()
                                                ? 0
                                                : value.asString("").length()))
                                : Optional.empty();
                out.add(new Candidate(
                        backend,
                        fileInput ? "file_input" : text ? "text" : role,
                        name,
                        enabled,
                        editable,
                        checked,
                        valueLength));
                if (!name.isEmpty()) {
                    inherited = ancestorName + "\n" + name;
                }
                if (valueLength.isPresent()) {
                    return; // what is inside a field is its value: form values are never projected
                }
            }
        }
        for (JsonNode child : node.path("childIds")) {
            JsonNode next = byId.get(child.asString());
            if (next != null) {
                walk(next, byId, dom, inherited, out);
            }
        }
    }

    private static boolean isInteractive(String role) {
        return Set.of(
                        "button",
                        "link",
                        "textbox",
                        "searchbox",
                        "checkbox",
                        "radio",
                        "combobox",
                        "listbox",
                        "option",
                        "menuitem",
                        "tab",
                        "switch",
                        "slider",
                        "spinbutton",
                        "menuitemcheckbox",
                        "menuitemradio")
                .contains(role);
    }

    /**
     * The nodes of a frame's accessibility tree that may be file inputs: Chromium exposes an
     * {@code <input type=file>} as a button whose value is its status text ("No file chosen", the
     * file's name); a plain button has no value. Only these are looked up in the DOM (what decides
     * is the element's nodeName and type), so a page without such a node costs no DOM read.
     */
    static List<Long> fileInputSuspects(JsonNode nodes) {
        List<Long> out = new ArrayList<>();
        for (JsonNode node : nodes) {
            long backend = node.path("backendDOMNodeId").asLong(0);
            if (backend != 0
                    && !node.path("ignored").asBoolean(false)
                    && node.path("role").path("value").asString("").equals("button")
                    && !node.path("value").path("value").asString("").isEmpty()) {
                out.add(backend);
            }
        }
        return out;
    }

    private static String attribute(JsonNode element, String name) {
        JsonNode attributes = element.path("attributes");
        for (int i = 0; i + 1 < attributes.size(); i += 2) {
            if (attributes.get(i).asString().equalsIgnoreCase(name)) {
                return attributes.get(i + 1).asString();
            }
        }
        return "";
    }

    /** The ids of the frames a snapshot projects (main first), without reading their viewports. */
    static List<String> sameOriginFrames(JsonNode node, String topOrigin, int depth, List<String> out) {
        if (out.isEmpty()
                || (depth <= MAX_FRAME_DEPTH
                        && out.size() < MAX_FRAMES
                        && frameOrigin(node.path("frame")).equals(topOrigin))) {
            out.add(node.path("frame").path("id").asString());
            for (JsonNode child : node.path("childFrames")) {
                sameOriginFrames(child, topOrigin, depth + 1, out);
            }
        }
        return out;
    }
}
