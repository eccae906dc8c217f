package dev.lomicontrol.transport;

import java.security.cert.X509Certificate;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * A blocking view of one connection. Thread-safe for one reader thread plus one writer thread; {@link
 * #startTls} must not overlap a read or a write. Never call the blocking methods on a Netty event loop.
 * Two implementations: the broker's Netty channels ({@link UnixSocketServer}) and the helper's JDK socket
 * channel ({@link UnixSocketClient}).
 */
public interface FrameChannel extends AutoCloseable {

    /** The peer process ({@code SO_PEERCRED}, taken when the connection was set up). */
    PeerCredentials peer();

    /**
     * Waits up to {@code idleTimeout} ({@code null} = forever) for the first byte of the next frame, then up
     * to the frame deadline (measured from that byte's arrival) for the rest. The length prefix must be
     * 1..maxBytes; a zero (EMPTY) or larger (TOO_LARGE) prefix is refused before any payload is read.
     * Frames that arrived completely before the peer closed are still delivered.
     *
     * <p>Every failure closes the channel, including an idle timeout with no byte received: that is
     * reported as DEADLINE too, so a caller that gives up waiting can never read a late answer later.
     *
     * @param maxBytes 1..{@link Frames#MAX_FRAME_BYTES}, otherwise IllegalArgumentException
     */
    byte[] read(@Nullable Duration idleTimeout, int maxBytes) throws FrameException;

    /**
     * Writes one frame (4-byte big-endian length + payload). A frame not flushed to the socket within the
     * frame deadline closes the channel (DEADLINE). The helper's socket channel flushes it on the calling
     * thread before returning; the broker's Netty channels hand it to their event loop and return at once
     * (a write while the previous frame is still waiting waits for that one first), and a frame the loop
     * cannot flush in time fails the next read or write. A payload over {@link Frames#MAX_FRAME_BYTES}
     * (TOO_LARGE) or an empty one (EMPTY) is refused without writing anything and the channel stays open.
     * The payload array must not change after it is passed.
     */
    void write(byte[] payload) throws FrameException;

    /**
     * Switches this connection to TLS 1.3 in place (server or client side per {@code context}) and waits
     * up to {@code timeout} until both sides accepted each other. Bytes that arrived before the switch and
     * were not yet read as frames are handed to TLS, never lost and never read as plaintext frames.
     *
     * <p>On return the peer's certificate matched our pin, and (client side) the server has confirmed that
     * ours matched its pin: the server writes one internal confirmation frame inside TLS that the client
     * consumes here, so a refused client fails here rather than on a later read. Failures: TLS_FAILED, or
     * DEADLINE when {@code timeout} passes; the channel is closed in both cases.
     *
     * @return the peer's (pinned) certificate
     */
    X509Certificate startTls(PinnedTls.Context context, Duration timeout) throws FrameException;

    /**
     * While strict, ANY inbound (post-TLS: decrypted) byte closes the channel with PIPELINED: one request in
     * flight. Turning strict on while unread bytes are already buffered closes the channel at once.
     *
     * <p>Usage: {@code read(request); setStrict(true); ...work...; setStrict(false); write(response)} —
     * leave strict mode <em>before</em> writing the response, since a prompt client may send its next
     * request as soon as the response reaches it. Never be strict while a peer may be starting TLS.
     */
    void setStrict(boolean strict);

    boolean isOpen();

    /**
     * Runs {@code action} once when the channel closes for any reason (peer close, violation, close()),
     * immediately if it already has. The broker's Netty channels notice a peer's close at once and run it on
     * their event loop; the helper's socket channel notices it at its next read, write or {@link #isOpen} and
     * runs it on that thread. Either way it must not block.
     */
    void onClose(Runnable action);

    /** Closes the connection (sending a TLS close_notify when TLS is active). Idempotent. */
    @Override
    void close();
}
