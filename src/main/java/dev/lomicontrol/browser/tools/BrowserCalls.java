package dev.lomicontrol.browser.tools;

import dev.lomicontrol.artifacts.ArtifactStore;
import dev.lomicontrol.browser.Browsers;
import dev.lomicontrol.browser.api.BrowserSpecs;
import dev.lomicontrol.operations.LivePanels;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.PanelTargets;
import dev.lomicontrol.operations.ToolFeature;
import dev.lomicontrol.operations.ToolHandlers;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.BrowserOrigins;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.PanelKind;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * The twelve browser tools on headless Chromium (SPEC §10 "Browser"). A browser belongs to the
 * connection that opened it (its own profile; anyone else gets TARGET_NOT_FOUND), its panel names
 * the live {@code browserGeneration}, and input needs the session-only lease the open returned.
 * Opening an origin the project has not approved waits for the admin ({@code awaiting_user});
 * approval is remembered for the project. Click, fill, key and scroll are durable operations: a
 * retry with the same key answers the earlier operation and dispatches nothing.
 *
 * <p>The feature is built from its parts: {@link BrowserPanels} (the live panels and the check every
 * tool starts with), {@link BrowserPages} (open, navigate), {@link BrowserReads} (snapshot, wait,
 * logs, screenshot, download), {@link BrowserInput} (click, fill, key, scroll) and
 * {@link BrowserFiles} (upload).
 */
@Component
public final class BrowserCalls implements ToolFeature {

    private final Browsers browsers;
    private final BrowserPanels live;
    private final BrowserPages pages;
    private final BrowserReads reads;
    private final BrowserInput input;
    private final BrowserFiles files;

    public BrowserCalls(
            Browsers browsers,
            BrowserOrigins origins,
            ArtifactStore artifacts,
            Layout layout,
            PanelTargets panels,
            OperationRunner runner) {
        this.browsers = browsers;
        this.live = new BrowserPanels(browsers, panels);
        this.pages = new BrowserPages(browsers, origins, layout, panels, runner, live);
        this.reads = new BrowserReads(origins, artifacts, layout, panels, runner, live);
        this.input = new BrowserInput(panels, runner, live);
        this.files = new BrowserFiles(artifacts, origins, layout, panels, runner, live);
    }

    @Override
    public void register(Wiring wiring) {
        ToolHandlers handlers = wiring.handlers();
        handlers.on(BrowserSpecs.OPEN, pages::open);
        handlers.on(BrowserSpecs.NAVIGATE, pages::navigate);
        handlers.on(BrowserSpecs.SNAPSHOT, reads::snapshot);
        handlers.on(BrowserSpecs.WAIT, reads::waitFor);
        handlers.on(BrowserSpecs.CLICK, input::click);
        handlers.on(BrowserSpecs.FILL, input::fill);
        handlers.on(BrowserSpecs.KEY, input::key);
        handlers.on(BrowserSpecs.SCROLL, input::scroll);
        handlers.on(BrowserSpecs.LOGS, reads::logs);
        handlers.on(BrowserSpecs.SCREENSHOT, reads::screenshot);
        handlers.on(BrowserSpecs.UPLOAD, files::upload);
        handlers.on(BrowserSpecs.DOWNLOAD, reads::download);
    }

    /** The connection ended: its browsers close and its profile is deleted (panels stay and show no generation). */
    @Override
    public void sessionEnded(Session session) {
        live.sessionEnded(session);
    }

    @Override
    public Map<PanelKind, LivePanels> panels() {
        return Map.of(PanelKind.BROWSER, live);
    }

    /** The broker closes: every browser closes and its profile is deleted. */
    @Override
    public void close() {
        browsers.close();
    }
}
