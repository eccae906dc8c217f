/**
 * Ledger implementation: store directory and owner lock, the read-only startup preflight, SQLite
 * connections with read-back pragmas, the group-commit writer and the SQL of every rule. Only the
 * {@code dev.lomicontrol.ledger} package uses it (guarded by {@code ArchitectureTests}).
 */
@NullMarked
package dev.lomicontrol.ledger.internal;

import org.jspecify.annotations.NullMarked;
