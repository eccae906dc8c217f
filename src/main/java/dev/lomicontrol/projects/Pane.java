package dev.lomicontrol.projects;

import java.util.ArrayList;
import java.util.List;

/** A tab's content: one panel, or two panes split side by side ({@code row}) or stacked ({@code column}). */
public sealed interface Pane {

    record Leaf(String panelId) implements Pane {}

    record Split(String direction, Pane first, Pane second) implements Pane {
        public Split {
            if (!direction.equals("row") && !direction.equals("column")) {
                throw new IllegalArgumentException("split direction is row or column");
            }
        }
    }

    /** The panels in reading order (left to right, top to bottom). */
    default List<String> panelIds() {
        List<String> out = new ArrayList<>();
        collect(this, out);
        return out;
    }

    private static void collect(Pane pane, List<String> out) {
        if (pane instanceof Leaf leaf) {
            out.add(leaf.panelId());
        } else if (pane instanceof Split split) {
            collect(split.first(), out);
            collect(split.second(), out);
        }
    }
}
