package dev.lomicontrol.browser.tools;

import static dev.lomicontrol.browser.tools.PageAnswers.after;
import static dev.lomicontrol.browser.tools.PageAnswers.millis;

import dev.lomicontrol.browser.BrowserPage;
import dev.lomicontrol.browser.Browsers;
import dev.lomicontrol.browser.Origins;
import dev.lomicontrol.browser.api.BrowserResults;
import dev.lomicontrol.browser.api.BrowserSpecs;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.PanelTargets;
import dev.lomicontrol.operations.Revisions;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.BrowserOrigins;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.PanelKind;
import dev.lomicontrol.tools.Encoder;
import java.security.SecureRandom;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Opening and navigating pages: {@code lomi_browser_open} (a new Chromium page in a new browser
 * panel, after the admin approved its origin once for the project) and {@code lomi_browser_navigate}
 * (within approved origins, with the open's lease).
 */
final class BrowserPages {

    static final String ENGINE = "chromium";
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(BrowserCalls.class);

    private final Browsers browsers;
    private final BrowserOrigins origins;
    private final Layout layout;
    private final PanelTargets panels;
    private final OperationRunner runner;
    private final BrowserPanels live;
    private final SecureRandom random = new SecureRandom();

    BrowserPages(
            Browsers browsers,
            BrowserOrigins origins,
            Layout layout,
            PanelTargets panels,
            OperationRunner runner,
            BrowserPanels live) {
        this.browsers = browsers;
        this.origins = origins;
        this.layout = layout;
        this.panels = panels;
        this.runner = runner;
        this.live = live;
    }

    /** The origin of an address the page would load; empty for about:blank. */
    private static Optional<String> originOf(String url) {
        return url.equalsIgnoreCase("about:blank") ? Optional.empty() : Optional.of(Origins.required(url));
    }

    Object open(Session session, BrowserSpecs.OpenInput in) {
        WorkspaceAccess.Listed listed = panels.workspace(session, in.workspaceId());
        long expected = in.expectedRevision().asLong();
        ProjectId project = listed.project().id();
        Optional<String> origin = originOf(in.url());
        OperationRunner.Request request =
                OperationRunner.Request.of(session, BrowserSpecs.OPEN, in, listed, in.url(), OptionalLong.of(expected));
        OperationRunner.Admission admission = () -> Revisions.require(expected, layout.revision());
        if (origin.isEmpty() || origins.approved(project, origin.get())) {
            long started = System.nanoTime();
            ObjectNode answer = runner.immediate(
                    request, admission, operation -> openPage(session, listed, in, OptionalLong.of(expected)));
            log.debug("timing open: handler={} (ms, receipt included)", millis(System.nanoTime() - started));
            return answer;
        }
        ObjectNode plan = JsonNodeFactory.instance.objectNode();
        plan.put("action", "approve a browser origin");
        plan.put("origin", origin.get());
        plan.put("url", in.url());
        plan.put("projectId", project.value());
        plan.put("project", listed.project().name());
        plan.put("approve", "remember " + origin.get() + " for this project and open it");
        plan.put("client", session.clientLabel());
        plan.put("session", session.id().value());
        String summary = "let " + session.clientLabel() + " browse " + origin.get() + " in project '"
                + listed.project().name() + "' (opens " + in.url() + ")";
        return runner.afterApproval(request, admission, summary, plan, operation -> {
            origins.approve(project, origin.get(), "decision " + operation.id());
            return openPage(session, listed, in, OptionalLong.empty());
        });
    }

    private JsonNode openPage(
            Session session, WorkspaceAccess.Listed listed, BrowserSpecs.OpenInput in, OptionalLong expected) {
        ProjectId project = listed.project().id();
        long started = System.nanoTime();
        BrowserPage page = browsers.open(session.id().value(), origin -> origins.approved(project, origin));
        long created = System.nanoTime();
        try {
            if (!in.url().equalsIgnoreCase("about:blank")) {
                page.navigate(in.url(), true);
            }
            long navigated = System.nanoTime();
            String lease = Ids.randomHex(random, 16);
            LiveBrowser opened = layout.change(expected, edit -> {
                WorkspaceId workspace = listed.workspace().id();
                Optional<String> before = edit.view(workspace).activePanelId();
                Panel panel = edit.addPanel(
                        workspace,
                        PanelKind.BROWSER,
                        page.origin().equals("null") ? "Browser" : page.origin(),
                        Optional.empty(),
                        Optional.of(session.id().value()),
                        Optional.empty(),
                        ".");
                if (!in.visible() && before.isPresent()) {
                    edit.focus(workspace, before.get());
                }
                LiveBrowser added = new LiveBrowser(
                        panel.id(),
                        workspace,
                        project,
                        session.id().value(),
                        page,
                        lease,
                        new AtomicBoolean(in.visible()));
                live.add(added);
                return added;
            });
            JsonNode answer = Encoder.encode(new BrowserSpecs.Opened(
                    opened.workspace(),
                    opened.panelId(),
                    page.generation(),
                    page.profileId(),
                    page.navigationId(),
                    Optional.of(lease),
                    true,
                    ENGINE,
                    "none",
                    in.url().equalsIgnoreCase("about:blank") ? Optional.empty() : after(session, opened)));
            log.debug(
                    "timing {} open: page={} navigate={} panel={} (ms)",
                    page.generation(),
                    millis(created - started),
                    millis(navigated - created),
                    millis(System.nanoTime() - navigated));
            return answer;
        } catch (RuntimeException e) {
            browsers.close(page.generation());
            throw e;
        }
    }

    Object navigate(Session session, BrowserSpecs.NavigateInput in) {
        LiveBrowser browser = live.bound(session, in.workspaceId(), in.panelId(), in.browserGeneration());
        Optional<String> origin = originOf(in.url());
        WorkspaceAccess.Listed listed = panels.workspace(session, in.workspaceId());
        long started = System.nanoTime();
        ObjectNode answer = runner.immediate(
                OperationRunner.Request.of(
                        session,
                        BrowserSpecs.NAVIGATE,
                        in,
                        listed,
                        browser.page().generation(),
                        OptionalLong.empty()),
                () -> {
                    browser.requireLease(session, in.leaseId().value());
                    if (origin.isPresent() && !origins.approved(browser.project(), origin.get())) {
                        throw new LomiException(
                                ErrorCode.SCOPE_DENIED,
                                origin.get() + " is not an approved origin of this project; open it with "
                                        + "lomi_browser_open so the admin can approve it");
                    }
                },
                operation -> {
                    BrowserPage.Navigation done =
                            browser.page().navigate(in.url(), in.waitUntil() == BrowserSpecs.WaitUntil.LOAD);
                    return Encoder.encode(new BrowserResults.Navigated(
                            browser.workspace(),
                            browser.panelId(),
                            browser.page().generation(),
                            done.navigationId(),
                            browser.page().url(),
                            done.committed(),
                            done.loaded(),
                            done.committed() ? after(session, browser) : Optional.empty()));
                });
        log.debug("timing navigate: handler={} (ms, receipt included)", millis(System.nanoTime() - started));
        return answer;
    }
}
