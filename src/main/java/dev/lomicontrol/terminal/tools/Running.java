package dev.lomicontrol.terminal.tools;

import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.terminal.CommandRun;
import dev.lomicontrol.terminal.Terminal;
import dev.lomicontrol.terminal.api.TerminalSpecs;
import dev.lomicontrol.tools.Token;
import java.util.Optional;

/**
 * A dispatched run: its terminal, the run, the lease it was sent with, whether a cancel asked to stop
 * it, and — for a lomi_terminal_create's command — the terminal the create made (its result then
 * carries the run).
 */
final class Running {
    final Terminal terminal;
    final CommandRun run;
    final String leaseId;
    final String session;
    final WorkspaceId workspace;
    final Token panel;
    final Optional<TerminalSpecs.Created> created;
    volatile boolean cancelRequested;

    Running(
            Terminal terminal,
            CommandRun run,
            String leaseId,
            String session,
            WorkspaceId workspace,
            Token panel,
            Optional<TerminalSpecs.Created> created) {
        this.terminal = terminal;
        this.run = run;
        this.leaseId = leaseId;
        this.session = session;
        this.workspace = workspace;
        this.panel = panel;
        this.created = created;
    }
}
