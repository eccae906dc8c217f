package dev.lomicontrol.mcp;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The whole tool catalog, in a fixed order (2026-07-28 asks for a deterministic tools/list).
 * Reading it grants nothing, so it is listed in full before pairing, without pagination.
 *
 * <p>Deriving the schemas of every declaration is the largest part of the helper's start (more
 * than the JVM's own), and {@code initialize} needs none of it: {@link #standardInBackground()}
 * derives them on a daemon thread while the helper answers {@code initialize} and connects, and
 * the first use ({@code tools/list}, {@code tools/call}) waits for them.
 */
final class Catalog {

    private final CompletableFuture<Map<String, ToolDefinition>> tools;

    Catalog(List<ToolDefinition> definitions) {
        this.tools = CompletableFuture.completedFuture(index(definitions));
    }

    private Catalog(CompletableFuture<Map<String, ToolDefinition>> tools) {
        this.tools = tools;
    }

    /** Every declared tool ({@link dev.lomicontrol.tools.ToolCatalog}), its schemas derived once. */
    static Catalog standard() {
        return new Catalog(definitions());
    }

    /**
     * The standard catalog, derived on a daemon thread that starts now; a use before it is done waits
     * for it. A declaration that cannot be derived fails that use (and every later one) with the
     * cause, as {@link #standard()} would have failed at start.
     */
    static Catalog standardInBackground() {
        return inBackground(Catalog::definitions);
    }

    /** A catalog of what {@code derive} returns, derived on a daemon thread that starts now. */
    static Catalog inBackground(Supplier<List<ToolDefinition>> derive) {
        CompletableFuture<Map<String, ToolDefinition>> tools = new CompletableFuture<>();
        Thread thread = new Thread(
                () -> {
                    try {
                        tools.complete(index(derive.get()));
                    } catch (RuntimeException | Error e) {
                        tools.completeExceptionally(e);
                    }
                },
                "catalog");
        thread.setDaemon(true);
        thread.start();
        return new Catalog(tools);
    }

    private static List<ToolDefinition> definitions() {
        List<ToolDefinition> all = new ArrayList<>();
        for (dev.lomicontrol.tools.ToolSpec<?> spec :
                dev.lomicontrol.tools.ToolCatalog.standard().all()) {
            all.add(ToolDefinition.of(spec));
        }
        return all;
    }

    private static Map<String, ToolDefinition> index(List<ToolDefinition> definitions) {
        Map<String, ToolDefinition> tools = new LinkedHashMap<>();
        for (ToolDefinition tool : definitions) {
            if (tools.putIfAbsent(tool.name(), tool) != null) {
                throw new IllegalArgumentException("duplicate tool " + tool.name());
            }
        }
        return Collections.unmodifiableMap(tools);
    }

    private Map<String, ToolDefinition> tools() {
        try {
            return tools.join();
        } catch (CompletionException e) {
            throw new IllegalStateException("the tool catalog could not be derived", e.getCause());
        }
    }

    Optional<ToolDefinition> find(String name) {
        return Optional.ofNullable(tools().get(name));
    }

    List<ToolDefinition> all() {
        return List.copyOf(tools().values());
    }

    /** The {@code tools/list} result. */
    ObjectNode listResult(ProtocolVersion version) {
        ObjectNode result = McpJson.object();
        ArrayNode list = result.putArray("tools");
        tools().values().forEach(tool -> list.add(tool.listEntry(version)));
        return result;
    }
}
