package dev.lomicontrol.console;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.Visible;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.projects.Workspace;
import dev.lomicontrol.projects.WorkspaceView;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.shell.core.command.annotation.Command;
import org.springframework.shell.core.command.annotation.Option;
import org.springframework.stereotype.Component;

/**
 * {@code workspace list} and {@code panel list}: what the agents have open, as the layout holds it
 * and as the panels' features say it is now (a terminal's state, who holds its input, its command).
 * Titles, commands and client labels are the agents' words: they are printed through
 * {@link Visible}.
 */
@Component
class LayoutCommands implements CommandGroup {

    private static final int COMMAND_WIDTH = 60;

    private final Projects projects;
    private final PanelRows rows;

    LayoutCommands(Projects projects, PanelRows rows) {
        this.projects = projects;
        this.rows = rows;
    }

    @Command(
            name = "workspace list",
            group = "Layout",
            description = "List every workspace of every project",
            help =
                    "workspace list [--json] [--watch]\n  Each workspace: id, project (id and name), name, tabs, panels, the active panel and the"
                            + " revision its layout was read at. --json: one JSON document; --watch (from a shell): each workspace as it appears"
                            + " or changes, and gone: as it goes.")
    public String workspaces(
            @Option(
                            longName = "json",
                            description = "print one JSON document (docs/OPERATIONS.md \"Scripting\")",
                            defaultValue = "false")
                    boolean json) {
        List<ConsoleJson.WorkspaceRow> all = workspaceRows();
        if (json) {
            return ConsoleJson.write(new ConsoleJson.WorkspaceList(all));
        }
        if (all.isEmpty()) {
            return "no workspaces: add a project (project add <folder>); each project starts with one";
        }
        Table table = new Table("WORKSPACE", "PROJECT", "NAME", "TABS", "PANELS", "ACTIVE", "REVISION");
        all.forEach(w -> table.row(
                w.workspaceId(),
                w.projectId() + " '" + Visible.line(w.projectName()) + "'",
                Visible.line(w.name()),
                w.tabs(),
                w.panels(),
                w.activePanelId().orElse("-"),
                w.revision()));
        return table.toString();
    }

    private List<ConsoleJson.WorkspaceRow> workspaceRows() {
        List<ConsoleJson.WorkspaceRow> all = new ArrayList<>();
        for (Project project : projects.list()) {
            for (Workspace workspace : project.workspaces()) {
                WorkspaceView view = rows.view(workspace);
                all.add(new ConsoleJson.WorkspaceRow(
                        workspace.id().value(),
                        project.id().value(),
                        project.name(),
                        workspace.name(),
                        view.tabs().size(),
                        view.panels().size(),
                        view.activePanelId(),
                        view.revision()));
            }
        }
        return all;
    }

    @Command(
            name = "panel list",
            group = "Layout",
            description = "List the panels of every workspace (or of one) with what runs in them",
            completionProvider = "workspaceCompletions",
            help =
                    "panel list [--workspace ID] [--json] [--watch]\n  Each panel: workspace, id, kind, title, owner (the session that"
                            + " created it, with its client while connected; - when no agent did), state (not_started, starting,"
                            + " running, ready, unobserved or exited), who holds a terminal's input (a session id; - for nobody),"
                            + " and a terminal's current or last command with its exit code. --json: one JSON document; --watch"
                            + " (from a shell): each panel as it appears or changes, and gone: as it goes.")
    public String panels(
            @Option(longName = "workspace", description = "only this workspace (id, see workspace list)")
                    String workspace,
            @Option(
                            longName = "json",
                            description = "print one JSON document (docs/OPERATIONS.md \"Scripting\")",
                            defaultValue = "false")
                    boolean json) {
        Optional<String> only =
                Optional.ofNullable(workspace).map(String::strip).filter(w -> !w.isEmpty());
        List<ConsoleJson.PanelRow> all = new ArrayList<>();
        workspaces(only).forEach(w -> all.addAll(rows.of(rows.view(w))));
        if (json) {
            return ConsoleJson.write(new ConsoleJson.PanelList(all));
        }
        if (all.isEmpty()) {
            return "no panels" + only.map(w -> " in workspace " + w).orElse("")
                    + "; an agent's lomi_terminal_create, lomi_editor_open or lomi_browser_open adds one";
        }
        Table table = new Table("WORKSPACE", "PANEL", "KIND", "TITLE", "OWNER", "STATE", "INPUT", "COMMAND", "EXIT");
        all.forEach(p -> table.row(
                p.workspaceId(),
                p.panelId(),
                p.kind(),
                Visible.line(p.title()),
                owner(p),
                p.state(),
                p.inputHolder().orElse("-"),
                p.command().map(LayoutCommands::shortened).orElse("-"),
                p.exitCode().map(String::valueOf).orElse("-")));
        return table.toString();
    }

    /** Every project's workspaces, or the one named (TARGET_NOT_FOUND when no project has it). */
    private List<Workspace> workspaces(Optional<String> only) {
        List<Workspace> workspaces = projects.list().stream()
                .flatMap(p -> p.workspaces().stream())
                .filter(w -> only.isEmpty() || w.id().value().equals(only.get()))
                .toList();
        if (only.isPresent() && workspaces.isEmpty()) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND, "no workspace " + Visible.line(only.get()) + " (see workspace list)");
        }
        return workspaces;
    }

    private static String owner(ConsoleJson.PanelRow panel) {
        if (panel.ownerSession().isEmpty()) {
            return "-";
        }
        return panel.ownerSession().get()
                + panel.ownerClient().map(c -> " (" + Visible.line(c) + ")").orElse("");
    }

    /** A command on one line of the table, cut to its first characters (--json has it whole). */
    private static String shortened(String command) {
        String line = Visible.line(command);
        return line.length() <= COMMAND_WIDTH ? line : line.substring(0, COMMAND_WIDTH - 1) + "…";
    }
}
