package dev.lomicontrol.broker;

import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.PanelKind;

/** {@link LivePanels} answered by the terminal tools for terminal panels and by the editor tools for editor panels. */
final class PanelsByKind implements LivePanels {

    private final TerminalCalls terminals;
    private final EditorCalls editors;

    PanelsByKind(TerminalCalls terminals, EditorCalls editors) {
        this.terminals = terminals;
        this.editors = editors;
    }

    @Override
    public String runtimeState(Panel panel) {
        switch (panel.kind()) {
            case EDITOR:
                return editors.runtimeState(panel);
            case TERMINAL:
                return terminals.runtimeState(panel);
            default:
                return "ready";
        }
    }

    @Override
    public boolean busy(Panel panel) {
        return panel.kind() == PanelKind.TERMINAL && terminals.busy(panel);
    }

    @Override
    public boolean dirty(Panel panel) {
        return panel.kind() == PanelKind.EDITOR && editors.dirty(panel);
    }

    @Override
    public boolean controlledBy(Session session, Panel panel) {
        return panel.kind() == PanelKind.TERMINAL && terminals.controlledBy(session, panel);
    }

    @Override
    public boolean ownedByOther(Session session, Panel panel) {
        return panel.kind() == PanelKind.TERMINAL && terminals.ownedByOther(session, panel);
    }

    @Override
    public void end(Panel panel) {
        if (panel.kind() == PanelKind.EDITOR) {
            editors.end(panel);
        } else if (panel.kind() == PanelKind.TERMINAL) {
            terminals.end(panel);
        }
    }
}
