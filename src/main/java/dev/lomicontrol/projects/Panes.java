package dev.lomicontrol.projects;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Pure operations on a workspace's tabs and pane trees; every refusal leaves the input untouched. */
final class Panes {

    private Panes() {}

    static Tab tab(List<Tab> tabs, String tabId) {
        return tabs.stream()
                .filter(t -> t.id().equals(tabId))
                .findFirst()
                .orElseThrow(
                        () -> new LomiException(ErrorCode.TARGET_NOT_FOUND, "no tab " + tabId + " in this workspace"));
    }

    /** The tabs without {@code panelId}'s pane; its split collapses into the sibling, an emptied tab is dropped. */
    static List<Tab> without(List<Tab> tabs, String panelId) {
        List<Tab> out = new ArrayList<>();
        for (Tab tab : tabs) {
            if (!tab.root().panelIds().contains(panelId)) {
                out.add(tab);
                continue;
            }
            remove(tab.root(), panelId).ifPresent(root -> out.add(new Tab(tab.id(), root)));
        }
        return out;
    }

    /** {@code tab} inserted before {@code beforeTabId}, or at the end when empty. */
    static List<Tab> insertBefore(List<Tab> tabs, Tab tab, Optional<String> beforeTabId) {
        List<Tab> out = new ArrayList<>(tabs);
        if (beforeTabId.isEmpty()) {
            out.add(tab);
            return out;
        }
        Tab before = tab(tabs, beforeTabId.get());
        out.add(out.indexOf(before), tab);
        return out;
    }

    static List<Tab> apply(List<Tab> tabs, Movement movement) {
        if (movement instanceof Movement.ReorderTab reorder) {
            Tab moved = tab(tabs, reorder.tabId());
            if (reorder.beforeTabId().filter(reorder.tabId()::equals).isPresent()) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "a tab cannot be placed before itself");
            }
            List<Tab> rest = new ArrayList<>(tabs);
            rest.remove(moved);
            return insertBefore(rest, moved, reorder.beforeTabId());
        }
        if (movement instanceof Movement.DockTab dock) {
            Tab moved = tab(tabs, dock.tabId());
            Tab target = tab(tabs, dock.targetTabId());
            if (moved.equals(target)) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "a tab cannot be docked into itself");
            }
            Tab merged = new Tab(target.id(), split(dock.side(), moved.root(), target.root()));
            List<Tab> out = new ArrayList<>();
            for (Tab tab : tabs) {
                if (tab.equals(target)) {
                    out.add(merged);
                } else if (!tab.equals(moved)) {
                    out.add(tab);
                }
            }
            return out;
        }
        if (movement instanceof Movement.MovePane move) {
            if (move.panelId().equals(move.targetPanelId())) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "a pane cannot be moved next to itself");
            }
            requirePanel(tabs, move.panelId());
            requirePanel(tabs, move.targetPanelId());
            List<Tab> out = new ArrayList<>();
            for (Tab tab : without(tabs, move.panelId())) {
                out.add(new Tab(tab.id(), placeBeside(tab.root(), move.targetPanelId(), move.panelId(), move.side())));
            }
            return out;
        }
        throw new IllegalArgumentException("movement " + movement.type() + " needs two workspaces");
    }

    private static void requirePanel(List<Tab> tabs, String panelId) {
        if (tabs.stream().noneMatch(t -> t.root().panelIds().contains(panelId))) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "no panel " + panelId + " in this workspace");
        }
    }

    private static Pane split(Movement.Side side, Pane moved, Pane target) {
        return side.movedFirst()
                ? new Pane.Split(side.direction(), moved, target)
                : new Pane.Split(side.direction(), target, moved);
    }

    private static Pane placeBeside(Pane pane, String targetPanelId, String movedPanelId, Movement.Side side) {
        if (pane instanceof Pane.Leaf leaf) {
            return leaf.panelId().equals(targetPanelId) ? split(side, new Pane.Leaf(movedPanelId), leaf) : leaf;
        }
        Pane.Split s = (Pane.Split) pane;
        return new Pane.Split(
                s.direction(),
                placeBeside(s.first(), targetPanelId, movedPanelId, side),
                placeBeside(s.second(), targetPanelId, movedPanelId, side));
    }

    private static Optional<Pane> remove(Pane pane, String panelId) {
        if (pane instanceof Pane.Leaf leaf) {
            return leaf.panelId().equals(panelId) ? Optional.empty() : Optional.of(leaf);
        }
        Pane.Split s = (Pane.Split) pane;
        Optional<Pane> first = remove(s.first(), panelId);
        Optional<Pane> second = remove(s.second(), panelId);
        if (first.isEmpty()) {
            return second;
        }
        if (second.isEmpty()) {
            return first;
        }
        return Optional.of(new Pane.Split(s.direction(), first.get(), second.get()));
    }
}
