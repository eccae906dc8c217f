package dev.lomicontrol.projects;

import java.util.List;
import java.util.Optional;

/** One workspace's layout as read in one transaction, with the domain revision it belongs to. */
public record WorkspaceView(
        Project project,
        Workspace workspace,
        List<Tab> tabs,
        List<Panel> panels,
        Optional<String> activePanelId,
        long revision) {

    /** Immutable: views are shared from the layout's cache. */
    public WorkspaceView {
        tabs = List.copyOf(tabs);
        panels = List.copyOf(panels);
    }

    public Optional<Panel> panel(String panelId) {
        return panels.stream().filter(p -> p.id().equals(panelId)).findFirst();
    }

    /** The tab holding {@code panelId}. */
    public Optional<Tab> tabOf(String panelId) {
        return tabs.stream().filter(t -> t.root().panelIds().contains(panelId)).findFirst();
    }
}
