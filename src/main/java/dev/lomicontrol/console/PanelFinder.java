package dev.lomicontrol.console;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.Visible;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.PanelKind;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.projects.Workspace;
import java.util.Locale;
import org.springframework.stereotype.Component;

/**
 * A panel named by its id alone, as the admin types it: searched in every workspace of every
 * project (the admin sees them all). An unknown panel and a panel of another kind than the command
 * needs are refused TARGET_NOT_FOUND (exit 1) with a message that says which.
 */
@Component
final class PanelFinder {

    private final Projects projects;
    private final Layout layout;

    PanelFinder(Projects projects, Layout layout) {
        this.projects = projects;
        this.layout = layout;
    }

    /** A panel and the project it belongs to. */
    record Found(Project project, Panel panel) {}

    /** The panel {@code panelId} in any workspace, of the {@code kind} the command needs. */
    Found find(String panelId, PanelKind kind) {
        String id = Text.required(panelId, "panel").strip();
        for (Project project : projects.list()) {
            for (Workspace workspace : project.workspaces()) {
                var panel = layout.view(workspace.id()).panel(id);
                if (panel.isPresent()) {
                    if (panel.get().kind() != kind) {
                        throw new LomiException(
                                ErrorCode.TARGET_NOT_FOUND,
                                "panel " + panel.get().id() + " is a "
                                        + name(panel.get().kind()) + " panel, not a " + name(kind));
                    }
                    return new Found(project, panel.get());
                }
            }
        }
        throw new LomiException(
                ErrorCode.TARGET_NOT_FOUND,
                "no panel " + Visible.line(id) + " in any workspace (panel list shows them)");
    }

    private static String name(PanelKind kind) {
        return kind.name().toLowerCase(Locale.ROOT);
    }
}
