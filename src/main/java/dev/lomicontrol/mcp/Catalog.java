package dev.lomicontrol.mcp;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The whole tool catalog, in a fixed order (2026-07-28 asks for a deterministic tools/list).
 * Reading it grants nothing, so it is listed in full before pairing, without pagination.
 */
final class Catalog {

    private final Map<String, ToolDefinition> tools = new LinkedHashMap<>();

    Catalog(List<ToolDefinition> definitions) {
        for (ToolDefinition tool : definitions) {
            if (tools.putIfAbsent(tool.name(), tool) != null) {
                throw new IllegalArgumentException("duplicate tool " + tool.name());
            }
        }
    }

    /** Every declared tool ({@link dev.lomicontrol.tools.ToolCatalog}), its schemas derived once. */
    static Catalog standard() {
        List<ToolDefinition> all = new ArrayList<>();
        for (dev.lomicontrol.tools.ToolSpec<?> spec :
                dev.lomicontrol.tools.ToolCatalog.standard().all()) {
            all.add(ToolDefinition.of(spec));
        }
        return new Catalog(all);
    }

    Optional<ToolDefinition> find(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    List<ToolDefinition> all() {
        return Collections.unmodifiableList(new ArrayList<>(tools.values()));
    }

    /** The {@code tools/list} result. */
    ObjectNode listResult(ProtocolVersion version) {
        ObjectNode result = McpJson.object();
        ArrayNode list = result.putArray("tools");
        tools.values().forEach(tool -> list.add(tool.listEntry(version)));
        return result;
    }
}
