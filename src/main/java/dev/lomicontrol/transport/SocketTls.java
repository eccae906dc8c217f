package dev.lomicontrol.transport;

import dev.lomicontrol.transport.FrameException.Reason;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * The TLS half of a {@link SocketFrameChannel}: the switch to TLS and the handshake with its
 * confirmation, then the records — decrypting what the socket has into the channel's plaintext
 * buffer, encrypting frames, and sending what the engine has to send besides (handshake messages,
 * alerts, close_notify). It runs on the channel's calling threads under the channel's locks: what it
 * does for a reader holds the read lock, what it sends holds the write lock. It owns the encrypted
 * buffers ({@link #netIn} in write mode under the read lock, {@link #netOut} under the write lock);
 * the plaintext buffer and the engine stay the channel's.
 */
final class SocketTls {

    private final SocketFrameChannel channel;

    // reader side (readLock), kept in write mode: its bytes are [0, position)
    private ByteBuffer netIn = SocketFrameChannel.NOTHING;
    // writer side (writeLock)
    private ByteBuffer netOut = SocketFrameChannel.NOTHING;

    SocketTls(SocketFrameChannel channel) {
        this.channel = channel;
    }

    /** See {@link SocketFrameChannel#startTls}. */
    X509Certificate start(PinnedTls.Context context, Duration timeout) throws FrameException {
        Frames.requirePositive(timeout, "TLS timeout");
        long deadline = System.nanoTime() + timeout.toNanos();
        channel.readLock.lock();
        channel.writeLock.lock();
        try {
            if (channel.engine != null) {
                throw new IllegalStateException("TLS was already started on this connection");
            }
            channel.closing.throwIfClosed();
            SSLEngine tls = context.newEngine();
            int packet = tls.getSession().getPacketBufferSize();
            // bytes that came before the switch and were not read as frames are TLS records, never plaintext frames
            channel.plain.flip();
            netIn = ByteBuffer.allocate(packet + channel.plain.remaining());
            netIn.put(channel.plain);
            channel.plain = ByteBuffer.allocate(
                    Math.max(SocketFrameChannel.CHUNK, tls.getSession().getApplicationBufferSize()));
            netOut = ByteBuffer.allocate(packet);
            channel.engine = tls;
            handshake(tls, deadline, timeout);
            X509Certificate peerCertificate = peerCertificate(tls);
            confirm(context, deadline);
            return peerCertificate;
        } finally {
            channel.writeLock.unlock();
            channel.readLock.unlock();
        }
    }

    private void handshake(SSLEngine tls, long deadline, Duration timeout) throws FrameException {
        String late = "the TLS handshake did not complete within " + timeout;
        try {
            tls.beginHandshake();
            while (true) {
                HandshakeStatus status = tls.getHandshakeStatus();
                if (status == HandshakeStatus.NOT_HANDSHAKING || status == HandshakeStatus.FINISHED) {
                    return;
                }
                if (afterEngine(tls, status)) {
                    continue;
                }
                int step = unwrapStep(tls);
                if (step < 0) {
                    throw channel.tlsFailure("the peer closed the connection during the TLS handshake", null);
                }
                if (step == 0) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        throw channel.fail(Reason.DEADLINE, late);
                    }
                    channel.await(channel.readable, left);
                    channel.closing.throwIfClosed();
                }
            }
        } catch (SSLException e) {
            sendAlert(tls);
            throw channel.tlsFailure("the TLS handshake failed", e);
        } catch (FrameException e) {
            throw e;
        } catch (IOException e) {
            throw channel.fail(Reason.CLOSED, String.valueOf(e));
        }
    }

    /**
     * One TLS step: decrypts one record from {@code netIn} if a whole one is there, otherwise reads more from the
     * socket. Returns 1 on progress, 0 when the socket has nothing now, -1 at the end of the stream.
     */
    int unwrapStep(SSLEngine tls) throws IOException {
        netIn.flip();
        SSLEngineResult result;
        try {
            result = tls.unwrap(netIn, channel.plain);
        } finally {
            netIn.compact();
        }
        switch (result.getStatus()) {
            case OK:
                boolean moved = result.bytesConsumed() > 0 || result.bytesProduced() > 0;
                return afterEngine(tls, result.getHandshakeStatus()) || moved ? 1 : 0;
            case BUFFER_OVERFLOW:
                channel.plain =
                        SocketFrameChannel.grown(channel.plain, channel.plain.position() + channel.applicationBytes());
                return 1;
            case CLOSED:
                return -1;
            case BUFFER_UNDERFLOW:
            default:
                if (!netIn.hasRemaining()) {
                    netIn = SocketFrameChannel.grown(
                            netIn, netIn.capacity() + tls.getSession().getPacketBufferSize());
                }
                int n = channel.socket.read(netIn);
                return Integer.signum(n);
        }
    }

    /** Runs what the engine asks for after a step (delegated tasks, a handshake record to send); true if it did. */
    private boolean afterEngine(SSLEngine tls, HandshakeStatus status) throws IOException {
        if (status == HandshakeStatus.NEED_TASK) {
            for (Runnable task = tls.getDelegatedTask(); task != null; task = tls.getDelegatedTask()) {
                task.run();
            }
            return true;
        }
        if (status == HandshakeStatus.NEED_WRAP) {
            wrapHandshake(tls, System.nanoTime() + channel.frameDeadline.toNanos());
            return true;
        }
        return false;
    }

    /** Sends what the engine has to send outside application data (handshake messages, alerts, close_notify). */
    void wrapHandshake(SSLEngine tls, long deadline) throws IOException {
        channel.writeLock.lock();
        try {
            do {
                netOut.clear();
                SSLEngineResult result = tls.wrap(SocketFrameChannel.NOTHING, netOut);
                if (result.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
                    netOut = SocketFrameChannel.grown(
                            netOut, netOut.capacity() + tls.getSession().getPacketBufferSize());
                    continue;
                }
                netOut.flip();
                channel.flush(new ByteBuffer[] {netOut}, deadline, "a TLS record was not flushed in time");
                if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
                    return;
                }
            } while (tls.getHandshakeStatus() == HandshakeStatus.NEED_WRAP);
        } finally {
            channel.writeLock.unlock();
        }
    }

    /** Encrypts and sends {@code frame} (prefix and payload) with the write lock held, until {@code deadline}. */
    void writeFrame(SSLEngine tls, ByteBuffer[] frame, long deadline, String late) throws IOException {
        if (netOut.capacity() < tls.getSession().getPacketBufferSize()) {
            netOut = ByteBuffer.allocate(tls.getSession().getPacketBufferSize());
        }
        while (frame[1].hasRemaining()) {
            netOut.clear();
            SSLEngineResult result = tls.wrap(frame, netOut);
            if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
                throw channel.fail(Reason.CLOSED, "TLS was closed");
            }
            if (result.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
                netOut =
                        ByteBuffer.allocate(netOut.capacity() + tls.getSession().getPacketBufferSize());
                continue;
            }
            netOut.flip();
            channel.flush(new ByteBuffer[] {netOut}, deadline, late);
        }
    }

    /** After a failed handshake the engine holds an alert for the peer; sent if the socket takes it at once. */
    private void sendAlert(SSLEngine tls) {
        try {
            wrapHandshake(tls, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100));
        } catch (IOException | RuntimeException ignored) {
            // the failure being reported matters, not the alert
        }
    }

    private X509Certificate peerCertificate(SSLEngine tls) throws FrameException {
        try {
            Certificate[] chain = tls.getSession().getPeerCertificates();
            return (X509Certificate) chain[0];
        } catch (SSLPeerUnverifiedException e) {
            throw channel.tlsFailure("the peer presented no certificate", e);
        }
    }

    /** As the broker's side ({@link TlsSwitch}): the server sends the confirmation, the client waits for it. */
    private void confirm(PinnedTls.Context context, long deadline) throws FrameException {
        try {
            if (context.isServer()) {
                channel.write(PinnedTls.CONFIRMATION);
                return;
            }
            Duration left = Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
            byte[] answer = channel.read(left, PinnedTls.CONFIRMATION.length);
            if (!Arrays.equals(answer, PinnedTls.CONFIRMATION)) {
                throw channel.tlsFailure("the server sent no TLS confirmation", null);
            }
        } catch (FrameException e) {
            if (e.reason() == Reason.DEADLINE || e.reason() == Reason.TLS_FAILED) {
                throw e;
            }
            throw channel.tlsFailure("the peer refused our certificate (" + e.getMessage() + ")", e);
        }
    }
}
