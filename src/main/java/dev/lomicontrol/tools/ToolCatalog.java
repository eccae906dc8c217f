package dev.lomicontrol.tools;

import dev.lomicontrol.tools.android.AndroidSpecs;
import dev.lomicontrol.tools.artifacts.ArtifactSpecs;
import dev.lomicontrol.tools.browser.BrowserSpecs;
import dev.lomicontrol.tools.chat.ChatSpecs;
import dev.lomicontrol.tools.editor.EditorSpecs;
import dev.lomicontrol.tools.episodes.EpisodeSpecs;
import dev.lomicontrol.tools.files.FileSpecs;
import dev.lomicontrol.tools.git.GitSpecs;
import dev.lomicontrol.tools.layout.LayoutSpecs;
import dev.lomicontrol.tools.operations.OperationSpecs;
import dev.lomicontrol.tools.session.SessionSpecs;
import dev.lomicontrol.tools.settings.SettingsSpecs;
import dev.lomicontrol.tools.terminal.TerminalSpecs;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every tool of the catalog, in a fixed order (2026-07-28 asks for a deterministic tools/list):
 * session, operations, episodes, layout, terminal, files, editor, artifacts, settings, git, browser,
 * chat, android.
 */
public final class ToolCatalog {

    private static final ToolCatalog STANDARD = new ToolCatalog(concat(
            SessionSpecs.ALL,
            OperationSpecs.ALL,
            EpisodeSpecs.ALL,
            LayoutSpecs.ALL,
            TerminalSpecs.ALL,
            FileSpecs.ALL,
            EditorSpecs.ALL,
            ArtifactSpecs.ALL,
            SettingsSpecs.ALL,
            GitSpecs.ALL,
            BrowserSpecs.ALL,
            ChatSpecs.ALL,
            AndroidSpecs.ALL));

    private final Map<String, ToolSpec<?>> tools = new LinkedHashMap<>();

    ToolCatalog(List<ToolSpec<?>> specs) {
        for (ToolSpec<?> spec : specs) {
            if (tools.putIfAbsent(spec.name(), spec) != null) {
                throw new IllegalArgumentException("duplicate tool " + spec.name());
            }
        }
    }

    /** A catalog of just these tools (tests; the product uses {@link #standard()}). */
    public static ToolCatalog of(List<ToolSpec<?>> specs) {
        return new ToolCatalog(specs);
    }

    public static ToolCatalog standard() {
        return STANDARD;
    }

    public Optional<ToolSpec<?>> find(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    public List<ToolSpec<?>> all() {
        return Collections.unmodifiableList(new ArrayList<>(tools.values()));
    }

    @SafeVarargs
    private static List<ToolSpec<?>> concat(List<ToolSpec<?>>... lists) {
        List<ToolSpec<?>> all = new ArrayList<>();
        for (List<ToolSpec<?>> list : lists) {
            all.addAll(list);
        }
        return all;
    }
}
