package dev.lomicontrol.mcp;

import java.util.Optional;
import tools.jackson.databind.node.ArrayNode;

/**
 * The MCP revisions the helper speaks. The four legacy ones are negotiated by {@code initialize};
 * 2026-07-28 is stateless (no initialize; every request names its version in {@code _meta}).
 */
enum ProtocolVersion {
    V2024_11_05("2024-11-05"),
    V2025_03_26("2025-03-26"),
    V2025_06_18("2025-06-18"),
    V2025_11_25("2025-11-25"),
    V2026_07_28("2026-07-28");

    /** What initialize answers when the client asks for a version it does not know or a stateless one. */
    static final ProtocolVersion LATEST_LEGACY = V2025_11_25;

    private final String wire;

    ProtocolVersion(String wire) {
        this.wire = wire;
    }

    String wire() {
        return wire;
    }

    static Optional<ProtocolVersion> fromWire(String value) {
        for (ProtocolVersion version : values()) {
            if (version.wire.equals(value)) {
                return Optional.of(version);
            }
        }
        return Optional.empty();
    }

    /**
     * The initialize rule: echo a supported legacy version, otherwise answer our latest legacy one
     * (the client then decides whether it can use it).
     */
    static ProtocolVersion negotiate(String requested) {
        return fromWire(requested).filter(version -> !version.isStateless()).orElse(LATEST_LEGACY);
    }

    /** Every version, oldest first, in wire form. */
    static ArrayNode supported() {
        ArrayNode list = McpJson.array();
        for (ProtocolVersion version : values()) {
            list.add(version.wire);
        }
        return list;
    }

    boolean isStateless() {
        return this == V2026_07_28;
    }

    /** Tool annotations exist since 2025-03-26. */
    boolean hasToolAnnotations() {
        return compareTo(V2025_03_26) >= 0;
    }

    /** Tool titles, outputSchema and structuredContent exist since 2025-06-18. */
    boolean hasStructuredOutput() {
        return compareTo(V2025_06_18) >= 0;
    }
}
