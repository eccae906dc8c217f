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
import dev.lomicontrol.terminal.Terminal;
import dev.lomicontrol.terminal.Terminals;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * The live terminal behind a terminal panel, for the admin's {@code terminal …} commands: the
 * panel is looked up in every workspace of every project. An unknown panel, a panel of another
 * kind, and a terminal this broker does not run are refused (TARGET_NOT_FOUND, exit 1) with a
 * message that says which.
 */
@Component
class SharedTerminals {

    private final Projects projects;
    private final Layout layout;
    private final Terminals terminals;

    SharedTerminals(Projects projects, Layout layout, Terminals terminals) {
        this.projects = projects;
        this.layout = layout;
        this.terminals = terminals;
    }

    /** A terminal panel and the terminal this broker runs for it (alive or exited). */
    record Shared(Panel panel, Terminal terminal) {

        /** The shell still runs; else TARGET_NOT_FOUND naming its exit status. */
        Shared requireAlive() {
            if (!terminal.isAlive()) {
                throw new LomiException(
                        ErrorCode.TARGET_NOT_FOUND,
                        "the shell of panel " + panel.id() + " has exited (status "
                                + terminal.exitCode().orElse(-1) + ")");
            }
            return this;
        }
    }

    Shared find(String panelId) {
        String id = Text.required(panelId, "panel").strip();
        Panel panel = panel(id)
                .orElseThrow(() -> new LomiException(
                        ErrorCode.TARGET_NOT_FOUND, "no panel " + Visible.line(id) + " in any workspace"));
        if (panel.kind() != PanelKind.TERMINAL) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND,
                    "panel " + panel.id() + " is a " + panel.kind().name().toLowerCase(java.util.Locale.ROOT)
                            + " panel, not a terminal");
        }
        Terminal terminal = panel.terminalSessionId()
                .flatMap(terminals::find)
                .orElseThrow(() -> new LomiException(
                        ErrorCode.TARGET_NOT_FOUND,
                        "the terminal of panel " + panel.id()
                                + " is not running (terminals do not survive a broker restart)"));
        return new Shared(panel, terminal);
    }

    private Optional<Panel> panel(String id) {
        for (Project project : projects.list()) {
            for (Workspace workspace : project.workspaces()) {
                Optional<Panel> panel = layout.view(workspace.id()).panel(id);
                if (panel.isPresent()) {
                    return panel;
                }
            }
        }
        return Optional.empty();
    }
}
