package dev.lomicontrol.terminal.tools;

import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.terminal.CommandRun;
import dev.lomicontrol.terminal.Terminal;
import dev.lomicontrol.terminal.api.TerminalResults;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Hex32;
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
    final SessionId session;
    final WorkspaceId workspace;
    final Token panel;
    final Optional<TerminalResults.Created> created;
    volatile boolean cancelRequested;

    Running(
            Terminal terminal,
            CommandRun run,
            String leaseId,
            SessionId session,
            WorkspaceId workspace,
            Token panel,
            Optional<TerminalResults.Created> created) {
        this.terminal = terminal;
        this.run = run;
        this.leaseId = leaseId;
        this.session = session;
        this.workspace = workspace;
        this.panel = panel;
        this.created = created;
    }

    /** The run as lomi_terminal_run's result states it now (no output tail: answers add it, the ledger never holds it). */
    TerminalResults.RunResult result() {
        return new TerminalResults.RunResult(
                workspace,
                panel,
                new Hex32(terminal.id()),
                run.id(),
                WireValues.boxed(run.exitCode()),
                run.completed(),
                Decimal.of(run.startCursor()),
                WireValues.decimal(run.endCursor()),
                Optional.empty());
    }
}
