package dev.lomicontrol.transport;

/**
 * The peer process as the kernel saw it when the Unix-domain socket connected ({@code SO_PEERCRED}):
 * user id and process id. Not forgeable by the peer; the pid may be reused once that process exits.
 */
public record PeerCredentials(long uid, long pid) {}
