package dev.lomicontrol.projects;

import dev.lomicontrol.core.WorkspaceId;
import java.util.Optional;

/** A layout movement of {@code lomi_panel_move} (the reference's four variants). */
public sealed interface Movement {

    /** Moves a tab before another one (or to the end). */
    record ReorderTab(String tabId, Optional<String> beforeTabId) implements Movement {}

    /** Docks a whole tab as a pane on one side of another tab. */
    record DockTab(String tabId, String targetTabId, Side side) implements Movement {}

    /** Moves one pane next to another pane (possibly in another tab). */
    record MovePane(String panelId, String targetPanelId, Side side) implements Movement {}

    /** Moves a tab into another workspace of the same project. */
    record TransferTab(String tabId, WorkspaceId targetWorkspace, Optional<String> beforeTabId) implements Movement {}

    enum Side {
        LEFT,
        RIGHT,
        TOP,
        BOTTOM;

        String direction() {
            return this == LEFT || this == RIGHT ? "row" : "column";
        }

        /** Whether the moved pane comes first (left or top) in the new split. */
        boolean movedFirst() {
            return this == LEFT || this == TOP;
        }
    }

    default String type() {
        if (this instanceof ReorderTab) {
            return "reorder_tab";
        }
        if (this instanceof DockTab) {
            return "dock_tab";
        }
        if (this instanceof MovePane) {
            return "move_pane";
        }
        return "transfer_tab";
    }
}
