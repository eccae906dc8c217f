package dev.lomicontrol.console;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.PanelKind;
import dev.lomicontrol.terminal.Terminal;
import dev.lomicontrol.terminal.Terminals;
import org.springframework.stereotype.Component;

/**
 * The live terminal behind a terminal panel, for the admin's {@code terminal …} commands: the
 * panel is looked up in every workspace of every project. An unknown panel, a panel of another
 * kind, and a terminal this broker does not run are refused (TARGET_NOT_FOUND, exit 1) with a
 * message that says which.
 */
@Component
class SharedTerminals {

    private final PanelFinder panels;
    private final Terminals terminals;

    SharedTerminals(PanelFinder panels, Terminals terminals) {
        this.panels = panels;
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
        Panel panel = panels.find(panelId, PanelKind.TERMINAL).panel();
        Terminal terminal = panel.terminalSessionId()
                .flatMap(terminals::find)
                .orElseThrow(() -> new LomiException(
                        ErrorCode.TARGET_NOT_FOUND,
                        "the terminal of panel " + panel.id()
                                + " is not running (terminals do not survive a broker restart)"));
        return new Shared(panel, terminal);
    }
}
