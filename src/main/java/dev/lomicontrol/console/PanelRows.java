package dev.lomicontrol.console;

import dev.lomicontrol.operations.PanelsByKind;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.pairing.Sessions;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.Tab;
import dev.lomicontrol.projects.WorkspaceView;
import dev.lomicontrol.terminal.CommandRun;
import dev.lomicontrol.terminal.HumanHold;
import dev.lomicontrol.terminal.Lease;
import dev.lomicontrol.terminal.Terminal;
import dev.lomicontrol.terminal.Terminals;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.springframework.stereotype.Component;

/**
 * What {@code panel list} says about each panel: the layout's record of it, what the feature that
 * owns its kind says live ({@link PanelsByKind}: the same answers lomi_panel_list gives agents) and,
 * for a terminal, its live {@link Terminal} (input holder, current or last command). Reads only:
 * nothing here touches a terminal's input or output.
 */
@Component
class PanelRows {

    private final Layout layout;
    private final PanelsByKind live;
    private final Terminals terminals;
    private final Sessions sessions;

    PanelRows(Layout layout, PanelsByKind live, Terminals terminals, Sessions sessions) {
        this.layout = layout;
        this.live = live;
        this.terminals = terminals;
        this.sessions = sessions;
    }

    /**
     * Who holds the terminal's input, as {@code panel list} shows it: the admin's console connection
     * while attached ({@code admin console connection N}), else the session id of the lease holder, if any.
     */
    static Optional<String> inputHolder(Terminal terminal) {
        return terminal.humanHold()
                .map(HumanHold::holder)
                .or(() -> terminal.lease().map(Lease::holder));
    }

    /** The workspace's panels in tab order (panels no tab shows last), as of the layout's last commit. */
    List<ConsoleJson.PanelRow> of(WorkspaceView view) {
        Set<String> ordered = new LinkedHashSet<>();
        for (Tab tab : view.tabs()) {
            ordered.addAll(tab.root().panelIds());
        }
        view.panels().forEach(panel -> ordered.add(panel.id()));
        List<ConsoleJson.PanelRow> rows = new ArrayList<>();
        for (String id : ordered) {
            view.panel(id).ifPresent(panel -> rows.add(row(panel)));
        }
        return rows;
    }

    /** The workspace's layout now. */
    WorkspaceView view(dev.lomicontrol.projects.Workspace workspace) {
        return layout.view(workspace.id());
    }

    private ConsoleJson.PanelRow row(Panel panel) {
        Optional<Terminal> terminal = panel.terminalSessionId().flatMap(terminals::find);
        Optional<CommandRun> latest = terminal.flatMap(Terminal::latest);
        return new ConsoleJson.PanelRow(
                panel.workspace().value(),
                panel.id(),
                panel.kind().wire(),
                panel.title(),
                panel.ownerSession(),
                panel.ownerSession().flatMap(this::clientOf),
                live.runtimeState(panel),
                panel.terminalSessionId(),
                terminal.flatMap(PanelRows::inputHolder),
                latest.map(CommandRun::command),
                latest.flatMap(run ->
                        run.exitCode().isPresent() ? Optional.of(run.exitCode().getAsInt()) : Optional.empty()));
    }

    /** The client label of a connected session (empty once it is gone, or for an owner that is no session id). */
    Optional<String> clientOf(String session) {
        return sessions.list().stream()
                .filter(s -> s.id().value().equals(session))
                .map(Session::clientLabel)
                .findFirst();
    }
}
