package dev.lomicontrol.transport;

import dev.lomicontrol.transport.FrameException.Reason;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.unix.DomainSocketChannel;
import io.netty.util.AttributeKey;
import java.io.IOException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link FrameChannel} over one Netty epoll Unix-domain socket channel whose pipeline holds an {@link InboundBuffer}. */
final class NettyFrameChannel implements FrameChannel {

    private static final AttributeKey<InboundBuffer> INBOUND =
            AttributeKey.valueOf(InboundBuffer.class, "lomi.inbound");
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);
    private static final Logger log = LoggerFactory.getLogger(NettyFrameChannel.class);

    private final Channel channel;
    private final InboundBuffer inbound;
    private final PeerCredentials peer;
    private final Duration frameDeadline;

    private NettyFrameChannel(Channel channel, InboundBuffer inbound, PeerCredentials peer, Duration frameDeadline) {
        this.channel = channel;
        this.inbound = inbound;
        this.peer = peer;
        this.frameDeadline = frameDeadline;
    }

    /**
     * Wraps a channel set up by {@link #install} once it is active. Works on a channel the peer already
     * closed (its reads then report CLOSED): the buffer and the credentials were captured while it was open.
     */
    static NettyFrameChannel open(Channel channel, Duration frameDeadline) throws IOException {
        InboundBuffer inbound = channel.attr(INBOUND).get();
        if (inbound == null) {
            throw new IOException("channel was not set up for frames");
        }
        return new NettyFrameChannel(
                channel, inbound, inbound.peer(), Frames.requirePositive(frameDeadline, "frame deadline"));
    }

    /**
     * Adds the frame buffer in front of reactor-netty's reactive bridge, so inbound bytes stop at it (call
     * from {@code doOnChannelInit}: reactor-netty adds its bridge before running that callback). The buffer
     * is also kept as a channel attribute: Netty empties the pipeline of a closed channel.
     */
    static void install(Channel channel) {
        InboundBuffer inbound = new InboundBuffer(channel);
        channel.attr(INBOUND).set(inbound);
        channel.pipeline().addBefore(reactor.netty.NettyPipeline.ReactiveBridge, InboundBuffer.NAME, inbound);
    }

    /**
     * SO_PEERCRED through the native channel's {@code peerCredentials()}. Called reflectively because the
     * epoll classes are a runtime-scoped dependency here (not on the compile classpath).
     */
    static PeerCredentials peerOf(Channel channel) throws IOException {
        if (!(channel instanceof DomainSocketChannel)) {
            throw new IOException(
                    "not a Unix-domain socket: " + channel.getClass().getName());
        }
        try {
            Object credentials = channel.getClass().getMethod("peerCredentials").invoke(channel);
            io.netty.channel.unix.PeerCredentials peer = (io.netty.channel.unix.PeerCredentials) credentials;
            return new PeerCredentials(Integer.toUnsignedLong(peer.uid()), peer.pid());
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw new IOException("cannot read the peer's credentials", e.getCause());
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IOException(
                    "this transport cannot read peer credentials: "
                            + channel.getClass().getName(),
                    e);
        }
    }

    @Override
    public PeerCredentials peer() {
        return peer;
    }

    @Override
    public byte[] read(@Nullable Duration idleTimeout, int maxBytes) throws FrameException {
        return inbound.awaitFrame(idleTimeout, Frames.requireLimit(maxBytes), frameDeadline);
    }

    @Override
    public void write(byte[] payload) throws FrameException {
        Frames.requireWritable(payload);
        FrameException closed = inbound.closedFailure();
        if (closed != null) {
            throw closed;
        }
        ByteBuf frame = Unpooled.wrappedBuffer(Unpooled.copyInt(payload.length), Unpooled.wrappedBuffer(payload));
        awaitWritten(channel.writeAndFlush(frame), "the frame was not flushed within " + frameDeadline);
    }

    /**
     * Waits for a write. Success means flushed, even if the channel closed right after (the peer may
     * have reacted to these very bytes); a timeout closes the channel (DEADLINE); a failure reports why
     * the channel closed.
     */
    private void awaitWritten(ChannelFuture written, String lateDetail) throws FrameException {
        try {
            if (!written.await(frameDeadline.toMillis())) {
                throw inbound.fail(Reason.DEADLINE, lateDetail);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw inbound.fail(Reason.CLOSED, "the writing thread was interrupted");
        }
        if (!written.isSuccess()) {
            inbound.fail(Reason.CLOSED, String.valueOf(written.cause()));
            throw inbound.closedFailure();
        }
    }

    @Override
    public X509Certificate startTls(PinnedTls.Context context, Duration timeout) throws FrameException {
        return new TlsSwitch(this, context, Frames.requirePositive(timeout, "TLS timeout")).run();
    }

    @Override
    public void setStrict(boolean strict) {
        inbound.setStrict(strict);
    }

    @Override
    public boolean isOpen() {
        return channel.isActive() && inbound.closedFailure() == null;
    }

    @Override
    public void onClose(Runnable action) {
        channel.closeFuture().addListener(closed -> {
            try {
                action.run();
            } catch (RuntimeException e) {
                log.warn("an on-close action failed", e);
            }
        });
    }

    @Override
    public void close() {
        inbound.markClosed(Reason.CLOSED, "closed locally");
        ChannelFuture closing = channel.close();
        if (!channel.eventLoop().inEventLoop()) {
            closing.awaitUninterruptibly(CLOSE_WAIT.toMillis());
        }
    }

    Channel channel() {
        return channel;
    }

    InboundBuffer inbound() {
        return inbound;
    }

    Duration frameDeadline() {
        return frameDeadline;
    }

    @Override
    public String toString() {
        return "FrameChannel[" + channel.id().asShortText() + ", peer pid " + peer.pid() + "]";
    }
}
