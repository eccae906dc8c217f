package dev.lomicontrol.transport;

/**
 * The peer process as the kernel saw it when the Unix-domain socket connected ({@code SO_PEERCRED}):
 * user id and process id (the broker's Netty channels read both; the helper's channel only whether the peer
 * is this process's user). Not forgeable by the peer; the pid may be reused once that process exits.
 */
public record PeerCredentials(long uid, long pid) {

    /**
     * What the helper's {@link SocketFrameChannel} reports where the JDK gives no number: the pid always, and the
     * uid of a peer that runs as another user (the JDK names that user but compares principals by uid).
     */
    public static final long UNKNOWN = -1;
}
