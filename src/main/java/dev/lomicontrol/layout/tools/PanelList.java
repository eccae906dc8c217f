package dev.lomicontrol.layout.tools;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.layout.api.LayoutSpecs;
import dev.lomicontrol.operations.LivePanels;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.LayoutJson;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.PanelKind;
import dev.lomicontrol.projects.Tab;
import dev.lomicontrol.projects.WorkspaceView;
import dev.lomicontrol.tools.Decimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code lomi_panel_list}, the layout's one read: a workspace's tabs and a page of its panels in tab
 * order, each with what its feature says about it live; the cursor is bound to the
 * {@code domainRevision}, the broker instance and the workspace (CURSOR_EXPIRED once any differs).
 */
final class PanelList {

    private static final Pattern CURSOR =
            Pattern.compile("([0-9]{1,18}):([0-9]{1,9}):([^:]{1,64}):([A-Za-z0-9._-]{1,128})");

    private final Layout layout;
    private final WorkspaceAccess workspaces;
    private final LivePanels live;

    PanelList(Layout layout, WorkspaceAccess workspaces, LivePanels live) {
        this.layout = layout;
        this.workspaces = workspaces;
        this.live = live;
    }

    LayoutSpecs.Panels list(Session session, LayoutSpecs.PanelList input) {
        WorkspaceView view = layout.view(
                workspaces.resolve(session, input.workspaceId()).workspace().id());
        int offset = input.cursor().map(cursor -> offsetOf(cursor, view)).orElse(0);
        List<Panel> ordered = new ArrayList<>();
        for (Tab tab : view.tabs()) {
            tab.root().panelIds().forEach(id -> view.panel(id).ifPresent(ordered::add));
        }
        int end = Math.min(ordered.size(), offset + input.limit());
        List<LayoutSpecs.TabItem> tabs = view.tabs().stream()
                .map(tab -> new LayoutSpecs.TabItem(
                        tab.id(), List.copyOf(tab.root().panelIds()), LayoutJson.json(tab.root())))
                .toList();
        List<LayoutSpecs.PanelItem> items = ordered.subList(Math.min(offset, end), end).stream()
                .map(panel -> item(session, view, panel))
                .toList();
        boolean hasMore = end < ordered.size();
        return new LayoutSpecs.Panels(
                view.workspace().id(),
                Decimal.of(view.revision()),
                view.activePanelId(),
                tabs,
                items,
                hasMore,
                hasMore
                        ? Optional.of(view.revision() + ":" + end + ":" + workspaces.instanceId() + ":"
                                + view.workspace().id().value())
                        : Optional.empty());
    }

    private LayoutSpecs.PanelItem item(Session session, WorkspaceView view, Panel panel) {
        return new LayoutSpecs.PanelItem(
                panel.id(),
                view.tabOf(panel.id()).map(Tab::id).orElseThrow(),
                LayoutChecks.wire(LayoutSpecs.PanelKind.class, panel.kind().name()),
                panel.title(),
                panel.terminalSessionId(),
                live.browserGeneration(panel),
                ownership(session, panel),
                LayoutChecks.wire(LayoutSpecs.RuntimeState.class, live.runtimeState(panel)),
                panel.documentId(),
                live.view(panel),
                (panel.kind() == PanelKind.TERMINAL
                                || panel.kind() == PanelKind.BROWSER
                                || panel.kind() == PanelKind.ANDROID)
                        && live.controlledBy(session, panel),
                view.activePanelId().filter(panel.id()::equals).isPresent());
    }

    private static LayoutSpecs.Ownership ownership(Session session, Panel panel) {
        if (panel.ownerSession().isEmpty()) {
            return LayoutSpecs.Ownership.NONE;
        }
        return panel.ownerSession().get().equals(session.id().value())
                ? LayoutSpecs.Ownership.THIS_SESSION
                : LayoutSpecs.Ownership.OTHER_SESSION;
    }

    private int offsetOf(String cursor, WorkspaceView view) {
        Matcher matcher = CURSOR.matcher(cursor);
        if (!matcher.matches()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "cursor is not a panel_list cursor");
        }
        if (Long.parseLong(matcher.group(1)) != view.revision()
                || !matcher.group(3).equals(workspaces.instanceId())
                || !matcher.group(4).equals(view.workspace().id().value())) {
            throw new LomiException(
                    ErrorCode.CURSOR_EXPIRED,
                    "the panels changed since this cursor (domainRevision is now " + view.revision()
                            + "); list again without a cursor");
        }
        return Integer.parseInt(matcher.group(2));
    }
}
