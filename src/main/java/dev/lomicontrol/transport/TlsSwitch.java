package dev.lomicontrol.transport;

import dev.lomicontrol.transport.FrameException.Reason;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.Future;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.jspecify.annotations.Nullable;

/**
 * One in-place switch of a {@link NettyFrameChannel} to TLS (see {@link FrameChannel#startTls}). The
 * SslHandler goes to the head of the pipeline on the event loop, and in the same event-loop task every byte
 * the frame buffer had not yet delivered is replayed through it: a ClientHello that overtook the switch
 * is decrypted-and-handled by TLS, not lost and not misread as a plaintext frame.
 */
final class TlsSwitch {

    static final String HANDLER_NAME = "lomi.tls";

    private static final Duration CLOSE_NOTIFY_FLUSH = Duration.ofSeconds(1);

    private final NettyFrameChannel frames;
    private final PinnedTls.Context context;
    private final Duration timeout;
    private final long deadlineNanos;

    TlsSwitch(NettyFrameChannel frames, PinnedTls.Context context, Duration timeout) {
        this.frames = frames;
        this.context = context;
        this.timeout = timeout;
        this.deadlineNanos = System.nanoTime() + timeout.toNanos();
    }

    X509Certificate run() throws FrameException {
        FrameException closed = frames.inbound().closedFailure();
        if (closed != null) {
            throw closed;
        }
        SslHandler ssl = new SslHandler(context.newEngine());
        ssl.setHandshakeTimeoutMillis(0); // our own deadline governs, reported as DEADLINE
        ssl.setCloseNotifyFlushTimeoutMillis(CLOSE_NOTIFY_FLUSH.toMillis()); // bounds close() on a stuck peer
        install(ssl);
        awaitHandshake(ssl);
        X509Certificate peer = peerCertificate(ssl);
        confirm();
        return peer;
    }

    private void install(SslHandler ssl) throws FrameException {
        Channel channel = frames.channel();
        Future<Boolean> installed = channel.eventLoop().submit(() -> insertAndReplay(channel, ssl));
        awaitOrDeadline(installed, "the TLS switch");
        if (installed.cause() instanceof IllegalStateException alreadyStarted) {
            throw alreadyStarted;
        }
        if (!installed.isSuccess()) {
            throw tlsFailed("the TLS handler could not be installed", installed.cause());
        }
        if (!installed.getNow()) {
            // the peer left before the switch (a frame written just before it may have failed on the loop): a
            // handler added to a closed channel would never finish its handshake
            FrameException closed = frames.inbound().closedFailure();
            throw closed != null ? closed : frames.inbound().fail(Reason.CLOSED, "the connection closed before TLS");
        }
    }

    /**
     * Event loop: adds the TLS handler and hands it the bytes that came early; false when the channel is closed.
     *
     * <p>A frame written just before the switch runs on this loop first, so a write that failed (the peer
     * stopped reading: EPIPE) has already recorded CLOSED here and the switch ends at once. What no check can
     * see is a peer that stops reading after that frame reached it: a Unix socket tells the writer of the
     * peer's {@code shutdown(SHUT_RD)} only when it writes again (no poll event), and a TLS server writes
     * nothing before the ClientHello. Such a connection is a silent peer and holds its slot until the switch's
     * deadline, no longer (PinnedTlsTests#theSwitchOfAPeerThatStopsReadingAfterTheLastPlaintextFrameEndsAtItsDeadline).
     */
    private boolean insertAndReplay(Channel channel, SslHandler ssl) {
        if (channel.pipeline().get(HANDLER_NAME) != null) {
            throw new IllegalStateException("TLS was already started on this connection");
        }
        if (!channel.isActive() || frames.inbound().closedFailure() != null) {
            return false;
        }
        channel.pipeline().addFirst(HANDLER_NAME, ssl);
        byte[] early = frames.inbound().drainForTls();
        if (early.length > 0) {
            channel.pipeline().fireChannelRead(Unpooled.wrappedBuffer(early));
            channel.pipeline().fireChannelReadComplete();
        }
        return true;
    }

    private void awaitHandshake(SslHandler ssl) throws FrameException {
        Future<Channel> handshake = ssl.handshakeFuture();
        awaitOrDeadline(handshake, "the TLS handshake");
        if (!handshake.isSuccess()) {
            throw tlsFailed("the TLS handshake failed", handshake.cause());
        }
    }

    private static X509Certificate peerCertificate(SslHandler ssl) throws FrameException {
        try {
            Certificate[] chain = ssl.engine().getSession().getPeerCertificates();
            return (X509Certificate) chain[0];
        } catch (SSLPeerUnverifiedException e) {
            throw new FrameException(Reason.TLS_FAILED, "the peer presented no certificate", e);
        }
    }

    /** Server: sends the confirmation. Client: waits for it, so a refused client certificate fails here. */
    private void confirm() throws FrameException {
        try {
            if (context.isServer()) {
                frames.write(PinnedTls.CONFIRMATION);
                return;
            }
            byte[] answer =
                    frames.inbound().awaitFrame(remaining(), PinnedTls.CONFIRMATION.length, frames.frameDeadline());
            if (!Arrays.equals(answer, PinnedTls.CONFIRMATION)) {
                throw tlsFailed("the server sent no TLS confirmation", null);
            }
        } catch (FrameException e) {
            if (e.reason() == Reason.DEADLINE || e.reason() == Reason.TLS_FAILED) {
                throw e;
            }
            throw tlsFailed("the peer refused our certificate (" + e.getMessage() + ")", e);
        }
    }

    private void awaitOrDeadline(Future<?> future, String what) throws FrameException {
        try {
            future.get(Math.max(0, deadlineNanos - System.nanoTime()), java.util.concurrent.TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw frames.inbound().fail(Reason.DEADLINE, what + " did not complete within " + timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw frames.inbound().fail(Reason.CLOSED, "the thread was interrupted during " + what);
        } catch (ExecutionException | java.util.concurrent.CancellationException e) {
            // outcome inspected by the caller through the future
        }
    }

    private FrameException tlsFailed(String detail, @Nullable Throwable cause) {
        frames.inbound().fail(Reason.TLS_FAILED, detail);
        return new FrameException(Reason.TLS_FAILED, detail + (cause == null ? "" : ": " + cause), cause);
    }

    private Duration remaining() {
        return Duration.ofNanos(Math.max(1, deadlineNanos - System.nanoTime()));
    }
}
