package dev.lomicontrol.console;

import dev.lomicontrol.ledger.LedgerStatus;
import java.util.ArrayList;
import java.util.List;

/** The text of {@code ledger status}: one labelled line per fact, warnings where the admin must act. */
final class LedgerStatusText {

    private LedgerStatusText() {}

    static String render(LedgerStatus s) {
        List<String[]> lines = new ArrayList<>();
        lines.add(new String[] {"database", s.database()});
        lines.add(new String[] {"instance", s.instance()});
        lines.add(new String[] {"receipts", s.receipts() + " / " + s.receiptCap() + (s.atReceiptCap() ? "  AT CAP: new work is refused; purge" : "")});
        lines.add(new String[] {"retry epochs", s.epochs() + " / " + s.epochCap() + (s.atEpochCap() ? "  AT CAP: new connections are refused; purge" : "")});
        StringBuilder states = new StringBuilder();
        s.byState().forEach((state, count) -> states.append(states.length() == 0 ? "" : ", ").append(state).append('=').append(count));
        lines.add(new String[] {"by state", states.toString()});
        lines.add(new String[] {"expired", s.expiredReceipts() + " receipts, " + s.expiredEpochs() + " epochs (kept until 'ledger purge')"});
        lines.add(new String[] {"unreconciled", s.unreconciledOutcomeUnknown() + " outcome_unknown"
                + (s.unreconciledOutcomeUnknown() > 0 ? " (check each, then 'ledger reconcile')" : "")});
        lines.add(new String[] {"oldest", s.oldestOperation().map(Text::time).orElse("-")});
        lines.add(new String[] {"last export", s.lastExport().map(e -> e.path() + " at " + Text.time(e.at())
                + (e.historyHead() == s.historyHead() ? " (current)" : " (stale: history moved on)")).orElse("never")});
        lines.add(new String[] {"history head", Long.toString(s.historyHead())});
        lines.add(new String[] {"integrity", s.integrity()});
        lines.add(new String[] {"writer", s.writerHealthy() ? "healthy (" + s.commits() + " commits)" : "STOPPED after an I/O error: restart the broker"});
        s.lastStorageRefusal().ifPresent(r -> lines.add(new String[] {"last refusal", Text.time(r.at()) + " " + r.detail()
                + (r.recovered() ? " (writes have worked since)" : " — agents' changes are blocked: free space or make the data directory writable; no restart needed")}));
        return Table.pairs(lines);
    }
}
