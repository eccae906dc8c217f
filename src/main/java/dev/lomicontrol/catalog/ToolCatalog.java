package dev.lomicontrol.catalog;

import dev.lomicontrol.android.api.AndroidSpecs;
import dev.lomicontrol.artifacts.api.ArtifactSpecs;
import dev.lomicontrol.browser.api.BrowserSpecs;
import dev.lomicontrol.chat.api.ChatSpecs;
import dev.lomicontrol.editor.api.EditorSpecs;
import dev.lomicontrol.episodes.api.EpisodeSpecs;
import dev.lomicontrol.files.api.FileSpecs;
import dev.lomicontrol.git.api.GitSpecs;
import dev.lomicontrol.layout.api.LayoutSpecs;
import dev.lomicontrol.operations.api.OperationSpecs;
import dev.lomicontrol.session.api.SessionSpecs;
import dev.lomicontrol.settings.api.SettingsSpecs;
import dev.lomicontrol.terminal.api.TerminalSpecs;
import dev.lomicontrol.tools.AnyResult;
import dev.lomicontrol.tools.Effect;
import dev.lomicontrol.tools.HostCapability;
import dev.lomicontrol.tools.ToolSelection;
import dev.lomicontrol.tools.ToolSpec;
import dev.lomicontrol.tools.Toolset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * Every tool of the catalog, in a fixed order (2026-07-28 asks for a deterministic tools/list):
 * session, operations, episodes, layout, terminal, files, editor, artifacts, settings, git, browser,
 * chat, android — each domain's tools in its {@link Toolset}.
 */
public final class ToolCatalog {

    private static final ToolCatalog STANDARD = new ToolCatalog(List.of(
            new Group(Toolset.CORE, SessionSpecs.ALL),
            new Group(Toolset.CORE, OperationSpecs.ALL),
            new Group(Toolset.EPISODES, EpisodeSpecs.ALL),
            new Group(Toolset.LAYOUT, LayoutSpecs.ALL),
            new Group(Toolset.TERMINAL, TerminalSpecs.ALL),
            new Group(Toolset.FILES, FileSpecs.ALL),
            new Group(Toolset.EDITOR, EditorSpecs.ALL),
            new Group(Toolset.ARTIFACTS, ArtifactSpecs.ALL),
            new Group(Toolset.SETTINGS, SettingsSpecs.ALL),
            new Group(Toolset.GIT, GitSpecs.ALL),
            new Group(Toolset.BROWSER, BrowserSpecs.ALL),
            new Group(Toolset.CHAT, ChatSpecs.ALL),
            new Group(Toolset.ANDROID, AndroidSpecs.ALL)));

    /** A domain's tools and the toolset they belong to. */
    record Group(Toolset toolset, List<ToolSpec<?>> tools) {}

    private final Map<String, ToolSpec<?>> tools = new LinkedHashMap<>();
    private final Map<String, Toolset> toolsets = new HashMap<>();

    private ToolCatalog(List<Group> groups) {
        for (Group group : groups) {
            for (ToolSpec<?> spec : group.tools()) {
                if (tools.putIfAbsent(spec.name(), spec) != null) {
                    throw new IllegalArgumentException("duplicate tool " + spec.name());
                }
                toolsets.put(spec.name(), group.toolset());
            }
        }
    }

    /** A catalog of just these tools (tests; the product uses {@link #standard()}). */
    public static ToolCatalog of(List<ToolSpec<?>> specs) {
        return new ToolCatalog(List.of(new Group(Toolset.CORE, specs)));
    }

    public static ToolCatalog standard() {
        return STANDARD;
    }

    /** This catalog and then {@code tools} in {@code toolset} (a feature tried out beside the standard ones). */
    public ToolCatalog with(Toolset toolset, List<ToolSpec<?>> added) {
        List<Group> groups = new ArrayList<>();
        tools.values().forEach(spec -> groups.add(new Group(toolset(spec), List.of(spec))));
        groups.add(new Group(toolset, added));
        return new ToolCatalog(groups);
    }

    public Optional<ToolSpec<?>> find(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    /** The toolset {@code spec}, a tool of this catalog, belongs to. */
    public Toolset toolset(ToolSpec<?> spec) {
        Toolset toolset = toolsets.get(spec.name());
        if (toolset == null) {
            throw new IllegalArgumentException(spec.name() + " is not in this catalog");
        }
        return toolset;
    }

    public List<ToolSpec<?>> all() {
        return Collections.unmodifiableList(new ArrayList<>(tools.values()));
    }

    /** The published {@code outputSchema} of {@code spec}: a tool that answers any operation ({@link AnyResult}) types every OP tool's result of this catalog. */
    public ObjectNode outputSchema(ToolSpec<?> spec) {
        return spec.outputSchema(operationResults());
    }

    /** The schema of the envelope's {@code data} of {@code spec} (see {@link #outputSchema}). */
    public ObjectNode dataSchema(ToolSpec<?> spec) {
        return spec.dataSchema(operationResults());
    }

    /** Every OP tool's result type, once each, in catalog order. */
    private List<Class<?>> operationResults() {
        return tools.values().stream()
                .filter(spec -> spec.effect() == Effect.OP)
                .<Class<?>>map(spec -> spec.result().orElseThrow())
                .distinct()
                .toList();
    }

    /** The tools {@code selection} serves, in catalog order. */
    public List<ToolSpec<?>> servedBy(ToolSelection selection) {
        return tools.values().stream()
                .filter(spec -> selection.serves(spec, toolset(spec)))
                .toList();
    }

    /** The tool's qualification on this host, or empty for a tool that is not declared. */
    public Optional<HostCapability> capability(String tool) {
        return find(tool).map(HostCapability::of);
    }

    /** Every declared tool's qualification on this host, in catalog order. */
    public List<HostCapability> capabilities() {
        return all().stream().map(HostCapability::of).toList();
    }
}
