package dev.lomicontrol.mcp;

import dev.lomicontrol.catalog.ToolCatalog;
import dev.lomicontrol.tools.ToolSelection;
import dev.lomicontrol.tools.ToolSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The tool catalog the helper serves, in a fixed order (2026-07-28 asks for a deterministic
 * tools/list): every declared tool, or the ones its {@link ToolSelection} ({@code --toolsets},
 * {@code --read-only}) names. Reading it grants nothing, so it is listed before pairing, without
 * pagination; the list never changes during a session.
 *
 * <p>The schemas of every declaration are derived by the build ({@link ToolSchemas}); reading them
 * back and building the entries is still work {@code initialize} needs none of: the helper's
 * catalog ({@link #standardDeferred()}) is built on a daemon thread started once {@code initialize}
 * is answered, and the first use ({@code tools/list}, {@code tools/call}) waits for it (or starts
 * it, before {@code initialize}).
 */
final class Catalog {

    private final CompletableFuture<Map<String, ToolDefinition>> tools;
    private final @Nullable Thread loader;
    private final AtomicBoolean started = new AtomicBoolean();
    private final ToolSelection selection;

    Catalog(List<ToolDefinition> definitions) {
        this.tools = CompletableFuture.completedFuture(index(definitions));
        this.loader = null;
        this.selection = ToolSelection.all();
    }

    private Catalog(CompletableFuture<Map<String, ToolDefinition>> tools, Thread loader, ToolSelection selection) {
        this.tools = tools;
        this.loader = loader;
        this.selection = selection;
    }

    /** Every declared tool ({@link ToolCatalog}) with its schemas. */
    static Catalog standard() {
        return new Catalog(definitions(ToolSelection.all()));
    }

    /**
     * The standard catalog, built on a daemon thread that starts at {@link #start()} or at the first
     * use, whichever comes first (the helper starts it once {@code initialize} is answered, which
     * then has the CPU to itself). A declaration that cannot be derived fails that use (and every
     * later one) with the cause, as {@link #standard()} would have failed at start.
     */
    static Catalog standardDeferred() {
        return standardDeferred(ToolSelection.all());
    }

    /** {@link #standardDeferred()} of the tools {@code selection} serves. */
    static Catalog standardDeferred(ToolSelection selection) {
        return deferred(() -> definitions(selection), selection);
    }

    /** A catalog of what {@code derive} returns, derived on a daemon thread that starts at {@link #start()} or the first use. */
    static Catalog deferred(Supplier<List<ToolDefinition>> derive) {
        return deferred(derive, ToolSelection.all());
    }

    private static Catalog deferred(Supplier<List<ToolDefinition>> derive, ToolSelection selection) {
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
        return new Catalog(tools, thread, selection);
    }

    /** Starts building a deferred catalog, the first time only (nothing for one already built). */
    void start() {
        if (loader != null && started.compareAndSet(false, true)) {
            loader.start();
        }
    }

    /**
     * Every declared tool with the schemas the build derived ({@link ToolSchemas}); derived here
     * instead, with a warning, when this class path holds none for exactly these declarations.
     */
    private static List<ToolDefinition> definitions(ToolSelection selection) {
        List<ToolSpec<?>> specs = ToolCatalog.standard().all();
        Optional<List<ToolSchemas.Built>> built = ToolSchemas.built(specs);
        if (built.isEmpty()) {
            Diagnostics.warn("no built tool schemas match the declarations on this class path (" + ToolSchemas.RESOURCE
                    + "); deriving them (a slower start)");
        }
        List<ToolDefinition> all = definitions(specs, built);
        return selection.isAll()
                ? all
                : all.stream()
                        .filter(tool -> selection.serves(
                                tool.spec(), ToolCatalog.standard().toolset(tool.spec())))
                        .toList();
    }

    /** The entries of {@code specs}, with {@code built} schemas (in the same order) or, without them, derived. */
    static List<ToolDefinition> definitions(List<ToolSpec<?>> specs, Optional<List<ToolSchemas.Built>> built) {
        List<ToolDefinition> all = new ArrayList<>(specs.size());
        for (int i = 0; i < specs.size(); i++) {
            ToolSpec<?> spec = specs.get(i);
            if (built.isPresent()) {
                ToolSchemas.Built schemas = built.get().get(i);
                all.add(ToolDefinition.built(spec, schemas.inputJson(), schemas.outputJson()));
            } else {
                all.add(ToolDefinition.of(spec));
            }
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
        start();
        try {
            return tools.join();
        } catch (CompletionException e) {
            throw new IllegalStateException("the tool catalog could not be derived", e.getCause());
        }
    }

    Optional<ToolDefinition> find(String name) {
        return Optional.ofNullable(tools().get(name));
    }

    /**
     * Why a declared tool that this catalog does not serve is refused (the option that enables it);
     * empty for a served tool and for a name no tool has.
     */
    Optional<String> refusal(String name) {
        if (selection.isAll() || tools().containsKey(name)) {
            return Optional.empty();
        }
        return ToolCatalog.standard()
                .find(name)
                .map(spec -> selection.refusal(spec, ToolCatalog.standard().toolset(spec)));
    }

    /** The selection this catalog serves. */
    ToolSelection selection() {
        return selection;
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
