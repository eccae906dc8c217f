package dev.lomicontrol.browser.tools;

import dev.lomicontrol.browser.Browsers;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.operations.LivePanels;
import dev.lomicontrol.operations.PanelTargets;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.PanelKind;
import dev.lomicontrol.tools.Token;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The live browser panels, by panel id, and the one check every browser tool starts with
 * ({@link #bound}: the panel, its owner and its live generation). It answers the layout for
 * browser panels ({@link LivePanels}) and closes a browser when its panel or connection ends.
 */
final class BrowserPanels implements LivePanels {

    private final Browsers browsers;
    private final PanelTargets panels;
    private final Map<String, LiveBrowser> byPanel = new ConcurrentHashMap<>();

    BrowserPanels(Browsers browsers, PanelTargets panels) {
        this.browsers = browsers;
        this.panels = panels;
    }

    /** A browser panel of a granted workspace showing this live generation, owned by this session (else TARGET_NOT_FOUND / STALE_GENERATION). */
    LiveBrowser bound(Session session, WorkspaceId workspace, Token panelId, Token generation) {
        PanelTargets.PanelTarget target = panels.panel(session, workspace, panelId.value(), Optional.empty());
        if (target.panel().kind() != PanelKind.BROWSER) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "panel " + panelId + " is not a browser");
        }
        LiveBrowser live = byPanel.get(panelId.value());
        if (live == null || !live.owner().equals(session.id().value())) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND,
                    "panel " + panelId + " shows no browser of this connection (browsers do not survive "
                            + "their connection or a broker restart); open a new one");
        }
        if (!live.page().generation().equals(generation.value())) {
            throw new LomiException(
                    ErrorCode.STALE_GENERATION,
                    "panel " + panelId + " shows browser generation "
                            + live.page().generation() + ", not " + generation + "; list the panels again");
        }
        if (!live.page().isAlive()) {
            byPanel.remove(panelId.value());
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND,
                    "browser " + generation + " has closed (idle, crashed or closed); open a new one");
        }
        return live;
    }

    /** A browser just opened in its panel. */
    void add(LiveBrowser live) {
        byPanel.put(live.panelId(), live);
    }

    /** The live generation a browser panel shows; empty when it shows none. */
    @Override
    public Optional<String> browserGeneration(Panel panel) {
        LiveBrowser live = byPanel.get(panel.id());
        return live != null && live.page().isAlive() ? Optional.of(live.page().generation()) : Optional.empty();
    }

    /** The panel was focused: a browser opened with {@code visible:false} is shown from now on (screenshots allowed). */
    @Override
    public void focused(Panel panel) {
        LiveBrowser live = byPanel.get(panel.id());
        if (live != null) {
            live.shown().set(true);
        }
    }

    @Override
    public String runtimeState(Panel panel) {
        return browserGeneration(panel).isPresent() ? "ready" : "exited";
    }

    @Override
    public boolean ownedByOther(Session session, Panel panel) {
        LiveBrowser live = byPanel.get(panel.id());
        return live != null
                && live.page().isAlive()
                && !live.owner().equals(session.id().value());
    }

    @Override
    public boolean controlledBy(Session session, Panel panel) {
        LiveBrowser live = byPanel.get(panel.id());
        return live != null
                && live.page().isAlive()
                && live.owner().equals(session.id().value());
    }

    /** The panel left the layout: its browser closes. */
    @Override
    public void end(Panel panel) {
        LiveBrowser live = byPanel.remove(panel.id());
        if (live != null) {
            browsers.close(live.page().generation());
        }
    }

    /** The connection ended: its browsers close and its profile is deleted (panels stay and show no generation). */
    void sessionEnded(Session session) {
        byPanel.values().removeIf(live -> live.owner().equals(session.id().value()));
        browsers.closeOwner(session.id().value());
    }
}
