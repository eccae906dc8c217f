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

    /**
     * The phase 1 catalog so far: session, operations, episodes, then layout (workspaces, projects,
     * panels), terminals, files, editor, artifacts and settings.
     */
    static Catalog standard() {
        List<ToolDefinition> all = new ArrayList<>();
        java.util.Set<String> declared = new java.util.HashSet<>();
        for (dev.lomicontrol.tools.ToolSpec<?> spec : dev.lomicontrol.tools.ToolCatalog.standard().all()) {
            all.add(ToolDefinition.of(spec));
            declared.add(spec.name());
        }
        List<ToolDefinition> legacy = new ArrayList<>();
        legacy.addAll(SessionTools.all());
        legacy.addAll(OperationTools.all());
        legacy.addAll(EpisodeTools.all());
        legacy.addAll(LayoutTools.all());
        legacy.addAll(TerminalTools.all());
        legacy.addAll(FileTools.all());
        legacy.addAll(EditorTools.all());
        legacy.addAll(ArtifactTools.all());
        legacy.addAll(SettingsTools.all());
        legacy.addAll(GitTools.all());
        legacy.stream().filter(tool -> !declared.contains(tool.name())).forEach(all::add);
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
