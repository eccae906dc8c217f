/**
 * Execution episodes (SPEC §8, seed 003): per-client episodes the shared broker holds, opened by
 * attach, kept alive by the holder's own traffic, detached (not closed) when its connection is
 * lost, and closed deliberately (detach), at shutdown, or by the reaper after the reattach grace
 * (interrupted). The board is in memory; open and close records are durable in the broker's store.
 * Depends on {@code core} and {@code ledger} (its single writer) only. Entry point:
 * {@link dev.lomicontrol.episodes.Episodes}.
 */
@NullMarked
package dev.lomicontrol.episodes;

import org.jspecify.annotations.NullMarked;
