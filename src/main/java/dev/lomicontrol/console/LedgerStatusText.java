package dev.lomicontrol.console;

import dev.lomicontrol.ledger.CapLevel;
import dev.lomicontrol.ledger.LedgerStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The text of {@code ledger status}: one labelled line per fact, warnings where the admin must act,
 * and — from 80 % of a cap — the maintenance steps in order with the rows each frees.
 */
final class LedgerStatusText {

    /** The console command of the last step, also named by refusals and docs/OPERATIONS.md. */
    static final String PURGE = "ledger purge --expired --confirm";

    private LedgerStatusText() {}

    /** {@code liveLabel} describes a session id for the admin (its client, or that it is no longer live). */
    static String render(LedgerStatus s, Function<String, String> liveLabel) {
        List<String[]> lines = new ArrayList<>();
        lines.add(new String[] {"database", s.database()});
        lines.add(new String[] {"instance", s.instance()});
        lines.add(new String[] {
            "receipts", s.receipts() + " / " + s.receiptCap() + level(s.receiptLevel(), "new work is refused")
        });
        lines.add(new String[] {
            "retry epochs",
            s.epochs() + " / " + s.epochCap() + level(s.epochLevel(), "new connections' lomi_connect is refused")
        });
        StringBuilder states = new StringBuilder();
        s.byState()
                .forEach((state, count) -> states.append(states.length() == 0 ? "" : ", ")
                        .append(state)
                        .append('=')
                        .append(count));
        lines.add(new String[] {"by state", states.toString()});
        lines.add(new String[] {
            "expired",
            s.expiredReceipts() + " receipts, " + s.expiredEpochs() + " epochs past 24 h (kept until 'ledger purge')"
        });
        LedgerStatus.Reclaim r = s.reclaim();
        lines.add(new String[] {
            "purgeable",
            r.purgeableReceipts() + " receipts, " + r.purgeableEpochs() + " retry epochs now"
                    + " (settled; their connection ended, an earlier broker run issued them, or 24 h passed)"
        });
        lines.add(new String[] {
            "unreconciled",
            s.unreconciledOutcomeUnknown() + " outcome_unknown"
                    + (s.unreconciledOutcomeUnknown() > 0
                            ? " (check each, then 'ledger reconcile'; " + r.awaitingFinding()
                                    + " of them purgeable after that)"
                            : "")
        });
        lines.add(new String[] {
            "live rows",
            r.liveSessions().isEmpty()
                    ? "no live session holds rows"
                    : r.liveSessions().size() + " live sessions hold " + r.liveReceipts()
                            + " receipts (kept while they are connected; 'session revoke' ends one)"
        });
        lines.add(new String[] {"oldest", s.oldestOperation().map(Text::time).orElse("-")});
        lines.add(new String[] {
            "last export",
            s.lastExport()
                    .map(e -> e.path() + " at " + Text.time(e.at())
                            + (exportCurrent(s) ? " (current)" : " (stale: history moved on)"))
                    .orElse("never")
        });
        lines.add(new String[] {"history head", Long.toString(s.historyHead())});
        lines.add(new String[] {"integrity", s.integrity()});
        lines.add(new String[] {
            "writer",
            s.writerHealthy()
                    ? "healthy (" + s.commits() + " commits)"
                    : "STOPPED after an I/O error: restart the broker"
        });
        s.lastStorageRefusal()
                .ifPresent(x -> lines.add(new String[] {
                    "last refusal",
                    Text.time(x.at()) + " " + x.detail()
                            + (x.recovered()
                                    ? " (writes have worked since)"
                                    : " — agents' changes are blocked: free space or make the data directory writable; no restart needed")
                }));
        String text = Table.pairs(lines);
        return s.receiptLevel().warns() || s.epochLevel().warns() ? text + "\n\n" + steps(s, liveLabel) : text;
    }

    /** The one-line summary for {@code status}: counts, and a warning from 80 % of a cap. */
    static String summary(LedgerStatus s) {
        String text = "receipts " + s.receipts() + " / " + s.receiptCap() + ", epochs " + s.epochs() + " / "
                + s.epochCap() + ", " + s.unreconciledOutcomeUnknown() + " unreconciled outcome_unknown";
        CapLevel worst = s.receiptLevel().compareTo(s.epochLevel()) >= 0 ? s.receiptLevel() : s.epochLevel();
        if (!worst.warns()) {
            return text;
        }
        return text
                + (worst == CapLevel.FULL
                        ? "  AT CAP: new work is refused"
                        : "  WARNING: " + worst.words() + " of a cap")
                + "; 'ledger status' lists the steps (" + s.reclaim().purgeableReceipts() + " receipts purgeable now)";
    }

    /** The maintenance steps in order, each with the rows it frees; steps that free nothing are left out. */
    static String steps(LedgerStatus s, Function<String, String> liveLabel) {
        LedgerStatus.Reclaim r = s.reclaim();
        List<String> steps = new ArrayList<>();
        if (r.awaitingFinding() > 0) {
            steps.add(
                    "ledger operations --state outcome_unknown; check each resource, then\n     ledger reconcile <operationId> --resolution"
                            + " succeeded|failed|cancelled --note \"what you checked\"   frees " + r.awaitingFinding()
                            + " receipts");
        }
        for (LedgerStatus.LiveHolder holder : r.liveSessions()) {
            if (holder.receipts() == 0 && holder.epochs() == 0) {
                continue;
            }
            steps.add("session revoke " + holder.sessionId() + " --confirm   (" + liveLabel.apply(holder.sessionId())
                    + ") frees " + holder.receipts()
                    + " receipts and " + holder.epochs() + " retry epochs once its work is settled"
                    + (holder.unfinished() > 0
                            ? "; " + holder.unfinished() + " unfinished become outcome_unknown or cancelled"
                            : "")
                    + " — only if that agent is done");
        }
        steps.add("ledger export <file>   "
                + (exportCurrent(s)
                        ? "(the last export is current; needed again after any step above)"
                        : "(needed: the last export is " + (s.lastExport().isPresent() ? "stale" : "missing") + ")"));
        steps.add(PURGE + "   frees " + r.purgeableReceipts() + " receipts and " + r.purgeableEpochs()
                + " retry epochs now" + (steps.size() > 1 ? ", plus what the steps above free" : ""));
        StringBuilder text = new StringBuilder("steps to free rows, in order:");
        for (int i = 0; i < steps.size(); i++) {
            text.append("\n  ").append(i + 1).append(". ").append(steps.get(i));
        }
        return text.append("\nthe export keeps every purged row and its history; see docs/OPERATIONS.md")
                .toString();
    }

    private static boolean exportCurrent(LedgerStatus s) {
        return s.lastExport().map(e -> e.historyHead() == s.historyHead()).orElse(false);
    }

    private static String level(CapLevel level, String refused) {
        switch (level) {
            case FULL:
                return "  AT CAP: " + refused + "; see the steps below";
            case FROM_95:
            case FROM_80:
                return "  WARNING: " + level.words() + " of the cap; at the cap " + refused + " (steps below)";
            default:
                return "";
        }
    }
}
