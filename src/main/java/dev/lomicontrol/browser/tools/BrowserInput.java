package dev.lomicontrol.browser.tools;

import static dev.lomicontrol.browser.tools.PageAnswers.after;
import static dev.lomicontrol.browser.tools.PageAnswers.millis;

import dev.lomicontrol.browser.BrowserPage;
import dev.lomicontrol.browser.api.BrowserResults;
import dev.lomicontrol.browser.api.BrowserSpecs;
import dev.lomicontrol.browser.api.ElementInput;
import dev.lomicontrol.browser.api.Key;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.PanelTargets;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.tools.Durable;
import dev.lomicontrol.tools.Encoder;
import dev.lomicontrol.tools.Token;
import dev.lomicontrol.tools.ToolSpec;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.function.Function;
import tools.jackson.databind.node.ObjectNode;

/**
 * Synthetic DOM input on an element of a snapshot: click, fill, key and scroll. Each is a durable
 * operation (a retry with the same key answers the earlier operation and dispatches nothing) that
 * needs the open's lease and a snapshot of the current navigation, and answers the page afterwards.
 */
final class BrowserInput {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(BrowserCalls.class);

    private final PanelTargets panels;
    private final OperationRunner runner;
    private final BrowserPanels live;

    BrowserInput(PanelTargets panels, OperationRunner runner, BrowserPanels live) {
        this.panels = panels;
        this.runner = runner;
        this.live = live;
    }

    /** The element an input acts on, as every input tool names it (for a scroll, a frame's viewportRef). */
    record ElementTarget(
            WorkspaceId workspaceId,
            Token panelId,
            Token browserGeneration,
            String navigationId,
            String snapshotId,
            String elementRef,
            String leaseId) {

        static ElementTarget of(ElementInput in) {
            return new ElementTarget(
                    in.workspaceId(),
                    in.panelId(),
                    in.browserGeneration(),
                    in.navigationId().value(),
                    in.snapshotId().value(),
                    in.elementRef().value(),
                    in.leaseId().value());
        }

        static ElementTarget of(BrowserSpecs.ScrollInput in) {
            return new ElementTarget(
                    in.workspaceId(),
                    in.panelId(),
                    in.browserGeneration(),
                    in.navigationId().value(),
                    in.snapshotId().value(),
                    in.viewportRef(),
                    in.leaseId().value());
        }
    }

    Object click(Session session, BrowserSpecs.ClickInput in) {
        ElementTarget target = ElementTarget.of(in);
        return interact(
                session,
                BrowserSpecs.CLICK,
                in,
                target,
                page -> page.click(target.snapshotId(), target.navigationId(), target.elementRef()));
    }

    Object fill(Session session, BrowserSpecs.FillInput in) {
        ElementTarget target = ElementTarget.of(in);
        return interact(
                session,
                BrowserSpecs.FILL,
                in,
                target,
                page -> page.fill(target.snapshotId(), target.navigationId(), target.elementRef(), in.text()));
    }

    Object key(Session session, BrowserSpecs.KeyInput in) {
        String key = keyName(in.key());
        ElementTarget target = ElementTarget.of(in);
        return interact(
                session,
                BrowserSpecs.KEY,
                in,
                target,
                page -> page.key(target.snapshotId(), target.navigationId(), target.elementRef(), key));
    }

    Object scroll(Session session, BrowserSpecs.ScrollInput in) {
        double dx = in.deltaX().asDouble();
        double dy = in.deltaY().asDouble();
        ElementTarget target = ElementTarget.of(in);
        return interact(
                session,
                BrowserSpecs.SCROLL,
                in,
                target,
                page -> page.scroll(target.snapshotId(), target.navigationId(), target.elementRef(), dx, dy));
    }

    private Object interact(
            Session session,
            ToolSpec<?> spec,
            Durable in,
            ElementTarget target,
            Function<BrowserPage, BrowserPage.Action> action) {
        long started = System.nanoTime();
        LiveBrowser browser = live.bound(session, target.workspaceId(), target.panelId(), target.browserGeneration());
        WorkspaceAccess.Listed listed = panels.workspace(session, target.workspaceId());
        String navigation = target.navigationId();
        String snapshot = target.snapshotId();
        ObjectNode answer = runner.immediate(
                OperationRunner.Request.of(
                        session,
                        spec,
                        in,
                        listed,
                        browser.page().generation() + ":" + snapshot + ":" + target.elementRef(),
                        OptionalLong.empty()),
                () -> {
                    browser.requireLease(session, target.leaseId());
                    browser.requireNavigation(navigation);
                    browser.page().requireCurrent(snapshot, navigation);
                },
                operation -> {
                    BrowserPage.Action done = action.apply(browser.page());
                    return Encoder.encode(new BrowserResults.Interaction(
                            browser.workspace(),
                            browser.panelId(),
                            browser.page().generation(),
                            navigation,
                            snapshot,
                            target.elementRef(),
                            done.dispatched(),
                            "synthetic_dom",
                            done.defaultAction(),
                            done.scrollPosition(),
                            done.valueLength(),
                            after(session, browser)));
                });
        log.debug("timing {}: handler={} (ms, receipt included)", spec.name(), millis(System.nanoTime() - started));
        return answer;
    }

    private static String keyName(Key key) {
        String[] words = key.name().toLowerCase(Locale.ROOT).split("_");
        StringBuilder out = new StringBuilder();
        for (String word : words) {
            out.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
        }
        return out.toString();
    }
}
