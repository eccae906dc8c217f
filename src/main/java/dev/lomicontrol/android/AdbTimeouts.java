package dev.lomicontrol.android;

import java.time.Duration;

/**
 * How long the bridge waits on the adb server, so that a stalled server or device never holds a
 * broker thread: every call also has its own deadline, and a call ends at whichever comes first.
 *
 * @param connect connecting to the server's socket on 127.0.0.1 (a local connect either succeeds at
 *     once or is refused; 2 s covers a loaded machine)
 * @param idle how long a read may wait for the next byte before the call fails with
 *     DEADLINE_EXCEEDED, even within its deadline: a device that stops answering is given up on
 * @param startServer how long {@code adb start-server} may take when no server listens
 */
public record AdbTimeouts(Duration connect, Duration idle, Duration startServer) {

    /** 2 s to connect, 10 s of silence, 15 s to start a server. */
    public static final AdbTimeouts DEFAULT =
            new AdbTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofSeconds(15));

    public AdbTimeouts {
        for (Duration d : new Duration[] {connect, idle, startServer}) {
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("adb timeouts must be positive: " + d);
            }
        }
    }
}
