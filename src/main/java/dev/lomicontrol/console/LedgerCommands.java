package dev.lomicontrol.console;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.ledger.ExportResult;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.LedgerMaintenance;
import dev.lomicontrol.ledger.LedgerStatus;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.ledger.OperationState;
import dev.lomicontrol.ledger.PurgeResult;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.pairing.Sessions;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.springframework.shell.core.command.CommandContext;
import org.springframework.shell.core.command.annotation.Argument;
import org.springframework.shell.core.command.annotation.Command;
import org.springframework.shell.core.command.annotation.Option;
import org.springframework.stereotype.Component;

/** {@code ledger status | operations | reconcile | export | purge | check} over {@link LedgerMaintenance}. */
@Component
class LedgerCommands implements CommandGroup {

    static final int MAX_LIMIT = 1000;

    private final Ledger ledger;
    private final Sessions sessions;

    LedgerCommands(Ledger ledger, Sessions sessions) {
        this.ledger = ledger;
        this.sessions = sessions;
    }

    @Command(
            name = "ledger status",
            group = "Ledger",
            description = "Counts vs caps, what a purge frees, last export, integrity",
            help =
                    "ledger status\n  Receipts and retry epochs against their caps (warnings from 80 % and 95 %), counts per state, rows past"
                            + " retention, rows a purge frees now, unreconciled outcome_unknown rows, live sessions holding rows, the oldest row, the last"
                            + " export, integrity and writer health. From 80 % of a cap: the steps that free rows, in order, with the rows each frees. --json: one JSON document.")
    public String status(
            @org.springframework.shell.core.command.annotation.Option(
                            longName = "json",
                            description = "print one JSON document (docs/OPERATIONS.md \"Scripting\")",
                            defaultValue = "false")
                    boolean json) {
        if (json) {
            return ConsoleJson.write(ledgerDocument(ledger.maintenance().status()));
        }
        return LedgerStatusText.render(ledger.maintenance().status(), this::describeSession);
    }

    @Command(
            name = "ledger operations",
            group = "Ledger",
            description = "List operations, oldest first",
            completionProvider = "ledgerCompletions",
            help =
                    "ledger operations [--state STATE] [--limit N]\n  Operations oldest first (default 50, at most "
                            + MAX_LIMIT + "),"
                            + " optionally only one state: queued, awaiting_user, running, cancelling, succeeded, failed, cancelled, outcome_unknown.")
    public String operations(
            @Option(longName = "state", description = "only this state") String state,
            @Option(longName = "limit", description = "at most this many rows", defaultValue = "50") int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new UsageException("--limit must be 1-" + MAX_LIMIT);
        }
        List<Operation> rows =
                ledger.maintenance().operations(state.isEmpty() ? Optional.empty() : Optional.of(state(state)), limit);
        if (rows.isEmpty()) {
            return "no operations" + (state.isEmpty() ? "" : " in state " + state);
        }
        Table table = new Table("ID", "STATE", "EFFECT", "TOOL", "PROJECT", "CREATED", "RESOLUTION");
        rows.forEach(o -> table.row(
                o.id(),
                o.state().wire(),
                o.effect().wire(),
                o.tool(),
                o.project(),
                Text.time(o.createdAt()),
                o.resolution().map(r -> r.finding().wire() + ": " + r.note()).orElse("-")));
        return table + (rows.size() == limit ? "\n(first " + limit + "; raise --limit for more)" : "");
    }

    @Command(
            name = "ledger reconcile",
            group = "Ledger",
            description = "Record the admin's finding for an outcome_unknown operation",
            completionProvider = "ledgerCompletions",
            help =
                    "ledger reconcile <operationId> --resolution succeeded|failed|cancelled --note \"what you checked\"\n"
                            + "  Records what really happened; the state stays outcome_unknown and nothing is re-run. Makes the row purgeable once expired.")
    public String reconcile(
            @Argument(index = 0, description = "operationId") String id,
            @Option(longName = "resolution", description = "succeeded, failed or cancelled", required = true)
                    String resolution,
            @Option(longName = "note", description = "what was checked", required = true) String note) {
        OperationState finding = state(resolution);
        Operation operation =
                ledger.maintenance().reconcile(new OperationId(Text.required(id, "operationId")), finding, note);
        return "recorded for " + operation.id() + ": " + finding.wire() + " (state stays "
                + operation.state().wire() + ")";
    }

    @Command(
            name = "ledger export",
            group = "Ledger",
            description = "Write a consistent backup of the ledger to a new file",
            help =
                    "ledger export <file>\n  A consistent SQLite copy (0600, fsynced; the file must not exist). Relative paths resolve against"
                            + " the console's working directory. Its SHA-256 is recorded; purge needs a fresh export.")
    public String export(@Argument(index = 0, description = "file") String file, CommandContext context) {
        ExportResult result = ledger.maintenance().export(Caller.of(context).resolve(Text.required(file, "file")));
        return "exported " + result.operations() + " operations (history head " + result.historyHead() + ") to "
                + result.file() + ": " + result.bytes() + " bytes, sha256 " + result.sha256();
    }

    @Command(
            name = "ledger purge",
            group = "Ledger",
            description =
                    "Delete settled rows whose retry epoch is dead (needs --expired --confirm and an export holding them)",
            help =
                    "ledger purge --expired [--before ISO-INSTANT] --confirm\n  In one transaction, deletes settled receipts whose retry epoch"
                            + " can no longer be used (its connection ended, an earlier broker run issued it, or 24 h passed), reconciled ones of"
                            + " outcome_unknown, their history, and retry epochs that can no longer be used and no kept receipt refers to. With --before,"
                            + " only rows settled before that instant. A live session's rows are kept (it names the session to revoke)."
                            + " Refused without --confirm or without an export, and when the last export's file is missing or changed; deletes only rows"
                            + " that export holds as they are now (rows changed since are kept: export again).")
    public String purge(
            @Option(longName = "expired", description = "purge expired rows", defaultValue = "false") boolean expired,
            @Option(longName = "before", description = "cutoff instant, e.g. 2026-01-01T00:00:00Z") String before,
            @Option(longName = "confirm", description = "really delete", defaultValue = "false") boolean confirm) {
        if (!expired) {
            throw new UsageException(
                    "ledger purge needs --expired (the only purge mode); usage: ledger purge --expired [--before ISO-INSTANT] --confirm");
        }
        PurgeResult result =
                ledger.maintenance().purge(before.isEmpty() ? Optional.empty() : Optional.of(instant(before)), confirm);
        StringBuilder text = new StringBuilder("purged " + result.operations() + " operations, " + result.historyRows()
                + " history rows, " + result.epochs() + " retry epochs");
        if (result.keptUnreconciled() > 0) {
            text.append("\nkept ")
                    .append(result.keptUnreconciled())
                    .append(
                            " outcome_unknown receipts without a finding: check each resource, then"
                                    + " 'ledger reconcile <operationId> --resolution succeeded|failed|cancelled --note \"…\"', export and purge again");
        }
        if (result.keptChanged() > 0) {
            text.append("\nkept ")
                    .append(result.keptChanged())
                    .append(" purgeable receipts that changed since the last export: export again and purge again");
        }
        for (LedgerStatus.LiveHolder holder : result.liveSessions()) {
            if (holder.receipts() > 0 || holder.epochs() > 0) {
                text.append("\nkept ")
                        .append(holder.receipts())
                        .append(" receipts and ")
                        .append(holder.epochs())
                        .append(" retry epochs of live session ")
                        .append(holder.sessionId())
                        .append(" (")
                        .append(describeSession(holder.sessionId()))
                        .append("): if that agent is done, 'session revoke ")
                        .append(holder.sessionId())
                        .append(" --confirm', then export and purge again");
            }
        }
        return text.toString();
    }

    /** The client of a live session, or why its rows are still held although it is not live. */
    String describeSession(String id) {
        Optional<Session> live;
        try {
            live = sessions.get(new SessionId(id));
        } catch (LomiException e) {
            live = Optional.empty();
        }
        return live.map(s -> "client '" + s.clientLabel() + "', pid " + s.peerPid() + ", connected "
                        + Text.time(s.connectedAt()))
                .orElse("not live any more: its rows are freed once its work is settled, or by a broker restart");
    }

    @Command(
            name = "ledger check",
            group = "Ledger",
            description = "Run a fresh integrity and foreign-key check",
            help =
                    "ledger check\n  SQLite quick_check and foreign_key_check on a reader connection; exit status 1 when anything is wrong.")
    public String check() {
        String verdict = ledger.maintenance().check();
        if (!verdict.equals("ok")) {
            throw new LomiException(ErrorCode.STORAGE_UNAVAILABLE, "integrity check found problems: " + verdict);
        }
        return "integrity: ok";
    }

    static OperationState state(String wire) {
        try {
            return OperationState.fromWire(wire);
        } catch (IllegalArgumentException e) {
            throw new UsageException("unknown state '" + wire + "'; one of: "
                    + String.join(
                            ", ",
                            Arrays.stream(OperationState.values())
                                    .map(OperationState::wire)
                                    .toList()));
        }
    }

    private static Instant instant(String text) {
        try {
            return Instant.parse(text.toUpperCase(Locale.ROOT));
        } catch (DateTimeParseException e) {
            throw new UsageException(
                    "--before must be an ISO-8601 instant such as 2026-01-01T00:00:00Z, not '" + text + "'");
        }
    }

    static ConsoleJson.Ledger ledgerDocument(dev.lomicontrol.ledger.LedgerStatus status) {
        return new ConsoleJson.Ledger(
                status.database(),
                status.instance(),
                status.receipts(),
                status.receiptCap(),
                status.epochs(),
                status.epochCap(),
                status.byState().entrySet().stream()
                        .sorted(java.util.Map.Entry.comparingByKey())
                        .map(entry -> new ConsoleJson.StateCount(entry.getKey(), entry.getValue()))
                        .toList(),
                status.expiredReceipts(),
                status.expiredEpochs(),
                status.unreconciledOutcomeUnknown(),
                ConsoleJson.time(status.oldestOperation()),
                status.lastExport()
                        .map(e -> new ConsoleJson.LastExport(e.path(), e.sha256(), e.historyHead(), e.at().toString())),
                status.historyHead(),
                status.integrity(),
                status.writerHealthy(),
                status.commits(),
                status.reclaim().purgeableReceipts(),
                status.reclaim().purgeableEpochs(),
                status.receiptLevel(),
                status.epochLevel());
    }
}
