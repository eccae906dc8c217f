package dev.lomicontrol.ledger;

import java.util.List;

/**
 * What a purge removed, and what it kept and why: retired outcome_unknown rows without the admin's
 * finding ({@code keptUnreconciled}), purgeable receipts the last export does not hold as they are
 * now ({@code keptChanged}: export again), and the rows of live connections ({@code liveSessions};
 * end them with {@code session revoke} to free them). Everything else it kept was not settled or not retired.
 */
public record PurgeResult(
        long operations,
        long historyRows,
        long epochs,
        long keptUnreconciled,
        long keptChanged,
        List<LedgerStatus.LiveHolder> liveSessions) {}
