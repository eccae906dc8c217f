package dev.lomicontrol.console;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.projects.Workspace;

/**
 * A panel named by its id alone, as the admin types it: searched in every workspace of every
 * project (the admin sees them all).
 */
final class PanelFinder {

    private final Projects projects;
    private final Layout layout;

    PanelFinder(Projects projects, Layout layout) {
        this.projects = projects;
        this.layout = layout;
    }

    /** A panel and the project it belongs to. */
    record Found(Project project, Panel panel) {}

    /** The panel {@code panelId} in any workspace; TARGET_NOT_FOUND when no workspace has it. */
    Found find(String panelId) {
        for (Project project : projects.list()) {
            for (Workspace workspace : project.workspaces()) {
                var panel = layout.view(workspace.id()).panel(panelId);
                if (panel.isPresent()) {
                    return new Found(project, panel.get());
                }
            }
        }
        throw new LomiException(
                ErrorCode.TARGET_NOT_FOUND,
                "no panel " + panelId + " in any workspace (panels are listed by an agent's lomi_panel_list)");
    }
}
