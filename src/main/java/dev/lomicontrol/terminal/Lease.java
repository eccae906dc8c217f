package dev.lomicontrol.terminal;

/**
 * Temporary input authority over one terminal, held in RAM only. A new grant, an explicit
 * revocation or the shell's exit ends it, and a dead lease never comes back.
 *
 * @param id random 32 lower-case hex
 * @param holder who holds it (a session id, for example); used by {@link Terminal#revokeLeasesOf}
 */
public record Lease(String id, String holder) {}
