package dev.lomicontrol.ledger;

/** What a purge removed; rows that were not expired, not terminal or not reconciled are kept. */
public record PurgeResult(long operations, long historyRows, long epochs, long keptUnreconciled) {}
