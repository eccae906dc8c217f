package dev.lomicontrol.operations;

import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.PanelKind;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/** {@link LivePanels} answered, for each panel, by the feature that owns its kind (terminal, editor, …); other kinds get the defaults. */
public final class PanelsByKind implements LivePanels {

    private final Map<PanelKind, LivePanels> byKind;

    public PanelsByKind(Map<PanelKind, LivePanels> byKind) {
        this.byKind = new EnumMap<>(byKind);
    }

    /** Each panel kind answered by the one feature that owns it (a kind claimed twice is a wiring error). */
    public static PanelsByKind of(List<? extends ToolFeature> features) {
        Map<PanelKind, LivePanels> byKind = new EnumMap<>(PanelKind.class);
        for (ToolFeature feature : features) {
            feature.panels().forEach((kind, live) -> {
                if (byKind.putIfAbsent(kind, live) != null) {
                    throw new IllegalStateException("two features answer for " + kind + " panels");
                }
            });
        }
        return new PanelsByKind(byKind);
    }

    private LivePanels of(Panel panel) {
        return byKind.getOrDefault(panel.kind(), NONE);
    }

    @Override
    public String runtimeState(Panel panel) {
        return of(panel).runtimeState(panel);
    }

    @Override
    public boolean busy(Panel panel) {
        return of(panel).busy(panel);
    }

    @Override
    public boolean dirty(Panel panel) {
        return of(panel).dirty(panel);
    }

    @Override
    public boolean controlledBy(Session session, Panel panel) {
        return of(panel).controlledBy(session, panel);
    }

    @Override
    public boolean ownedByOther(Session session, Panel panel) {
        return of(panel).ownedByOther(session, panel);
    }

    @Override
    public java.util.Optional<String> browserGeneration(Panel panel) {
        return of(panel).browserGeneration(panel);
    }

    @Override
    public java.util.Optional<JsonNode> view(Panel panel) {
        return of(panel).view(panel);
    }

    @Override
    public void focused(Panel panel) {
        of(panel).focused(panel);
    }

    @Override
    public Object control(Session session, PanelControl request) {
        return byKind.getOrDefault(request.kind(), NONE).control(session, request);
    }

    @Override
    public void end(Panel panel) {
        of(panel).end(panel);
    }
}
