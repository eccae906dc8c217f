/**
 * The durable operations ledger (SPEC §6): receipts, retry epochs, the state machine, the event
 * feed and the admin's maintenance, on SQLite (WAL, synchronous=FULL) with one group-commit writer.
 * Public entry point: {@link dev.lomicontrol.ledger.Ledger}.
 */
@NullMarked
package dev.lomicontrol.ledger;

import org.jspecify.annotations.NullMarked;
