package dev.lomicontrol.ledger.internal;

import dev.lomicontrol.ledger.LedgerStatus;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The RESOURCE_EXHAUSTED messages at the caps: what is full (receipts or retry epochs), the counts,
 * how many rows the admin's maintenance can free now, and the exact console commands, in order.
 */
final class CapRefusals {

    static final String CONSOLE = "lomi-control console ";

    private CapRefusals() {}

    /** {@code what} is "receipts" or "retry epochs"; {@code refused} names what is refused ("new work", "a new connection's retry epoch"). */
    static String message(Connection c, ReclaimSql.Scope scope, String what, long count, int cap, String refused)
            throws SQLException {
        long[] counts = ReclaimSql.counts(c, scope);
        List<LedgerStatus.LiveHolder> live = ReclaimSql.liveHolders(c, scope);
        long liveReceipts =
                live.stream().mapToLong(LedgerStatus.LiveHolder::receipts).sum();
        StringBuilder text = new StringBuilder("the ledger's ")
                .append(what)
                .append(" are full (")
                .append(count)
                .append(" of cap ")
                .append(cap)
                .append("): ")
                .append(refused)
                .append(" is refused and nothing was written. ");
        text.append(counts[0])
                .append(" receipts and ")
                .append(counts[1])
                .append(" retry epochs of ended connections or earlier broker runs can be freed now");
        if (counts[2] > 0) {
            text.append("; ").append(counts[2]).append(" outcome_unknown receipts need the admin's finding first");
        }
        if (!live.isEmpty()) {
            text.append("; ")
                    .append(live.size())
                    .append(" live sessions hold ")
                    .append(liveReceipts)
                    .append(" receipts");
        }
        text.append(". An admin frees rows with: ")
                .append(String.join(", then ", steps(counts[2] > 0, !live.isEmpty())))
                .append(". Nothing ran: do not work around this with new requestKeys; once the admin has freed rows, ")
                .append(
                        what.equals("retry epochs")
                                ? "call lomi_connect again."
                                : "send the request again (after lomi_connect if this connection was ended).");
        return text.toString();
    }

    private static List<String> steps(boolean reconcile, boolean revoke) {
        List<String> steps = new ArrayList<>();
        steps.add("'" + CONSOLE + "ledger status' (the steps and the rows each frees)");
        if (reconcile) {
            steps.add(
                    "'" + CONSOLE
                            + "ledger reconcile <operationId> --resolution succeeded|failed|cancelled --note \"what you checked\"'");
        }
        if (revoke) {
            steps.add("'" + CONSOLE + "session revoke <id> --confirm' for sessions that are done");
        }
        steps.add("'" + CONSOLE + "ledger export <file>'");
        steps.add("'" + CONSOLE + "ledger purge --expired --confirm'");
        return steps;
    }
}
