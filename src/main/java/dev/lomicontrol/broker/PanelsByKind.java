package dev.lomicontrol.broker;

import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.PanelKind;

/** {@link LivePanels} answered by the terminal, editor and browser tools for their panels. */
final class PanelsByKind implements LivePanels {

    private final TerminalCalls terminals;
    private final EditorCalls editors;
    private final BrowserCalls browsers;

    PanelsByKind(TerminalCalls terminals, EditorCalls editors, BrowserCalls browsers) {
        this.terminals = terminals;
        this.editors = editors;
        this.browsers = browsers;
    }

    @Override
    public java.util.Optional<String> browserGeneration(Panel panel) {
        return panel.kind() == PanelKind.BROWSER ? browsers.generation(panel) : java.util.Optional.empty();
    }

    @Override
    public String runtimeState(Panel panel) {
        switch (panel.kind()) {
            case EDITOR:
                return editors.runtimeState(panel);
            case TERMINAL:
                return terminals.runtimeState(panel);
            case BROWSER:
                return browsers.runtimeState(panel);
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
        return panel.kind() == PanelKind.TERMINAL ? terminals.controlledBy(session, panel)
                : panel.kind() == PanelKind.BROWSER && browsers.controlledBy(session, panel);
    }

    @Override
    public boolean ownedByOther(Session session, Panel panel) {
        return panel.kind() == PanelKind.TERMINAL ? terminals.ownedByOther(session, panel)
                : panel.kind() == PanelKind.BROWSER && browsers.ownedByOther(session, panel);
    }

    @Override
    public void end(Panel panel) {
        if (panel.kind() == PanelKind.EDITOR) {
            editors.end(panel);
        } else if (panel.kind() == PanelKind.TERMINAL) {
            terminals.end(panel);
        } else if (panel.kind() == PanelKind.BROWSER) {
            browsers.end(panel);
        }
    }
}
