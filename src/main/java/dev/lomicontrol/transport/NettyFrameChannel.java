package dev.lomicontrol.transport;

import dev.lomicontrol.transport.FrameException.Reason;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.channel.unix.DomainSocketChannel;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
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
    private volatile @Nullable ChannelFuture lastWrite;

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

    /**
     * Hands the frame to the event loop, which writes it at once, and returns without waiting for the
     * flush: the thread that waited was woken once more per call, beside the threads the answer must
     * wake. A frame the loop cannot flush within the frame deadline closes the channel (DEADLINE, timed on
     * the loop only then), a failed write closes it (CLOSED), and either is what the next read or write
     * reports. One frame at a time: a write while the previous frame is still waiting waits for it (the
     * deadline again), so a peer that stops reading is never sent a growing queue.
     */
    @Override
    public void write(byte[] payload) throws FrameException {
        Frames.requireWritable(payload);
        FrameException closed = inbound.closedFailure();
        if (closed != null) {
            throw closed;
        }
        ChannelFuture previous = lastWrite;
        if (previous != null && !previous.isDone()) {
            awaitPrevious(previous); // one frame at a time: a peer that does not read gets no queue of answers
        }
        ByteBuf frame = Unpooled.wrappedBuffer(Unpooled.copyInt(payload.length), Unpooled.wrappedBuffer(payload));
        ChannelPromise written = channel.newPromise();
        lastWrite = written;
        try {
            channel.eventLoop().execute(() -> send(frame, written));
        } catch (RejectedExecutionException e) {
            frame.release();
            throw inbound.fail(Reason.CLOSED, "the event loop has stopped");
        }
    }

    private void awaitPrevious(ChannelFuture previous) throws FrameException {
        try {
            previous.await(frameDeadline.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw inbound.fail(Reason.CLOSED, "the writing thread was interrupted");
        }
        FrameException closed = inbound.closedFailure();
        if (closed != null) {
            throw closed;
        }
        if (!previous.isDone()) {
            throw inbound.fail(Reason.DEADLINE, "the previous frame was not flushed within " + frameDeadline);
        }
    }

    /** Event loop: writes and flushes the frame; only a frame left waiting gets a deadline. */
    private void send(ByteBuf frame, ChannelPromise written) {
        channel.writeAndFlush(frame, written);
        if (written.isDone()) {
            reportFailure(written);
            return;
        }
        ScheduledFuture<?> late = channel.eventLoop()
                .schedule(
                        () -> {
                            if (!written.isDone()) {
                                inbound.fail(Reason.DEADLINE, "the frame was not flushed within " + frameDeadline);
                            }
                        },
                        frameDeadline.toNanos(),
                        TimeUnit.NANOSECONDS);
        written.addListener(done -> {
            late.cancel(false);
            reportFailure(written);
        });
    }

    private void reportFailure(ChannelFuture written) {
        if (!written.isSuccess()) {
            inbound.fail(Reason.CLOSED, String.valueOf(written.cause()));
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

    /**
     * Closes after any frame already written: the write and the close are tasks of the same event loop,
     * run in the order they were given, so a last answer (a refusal, say) leaves before the close.
     */
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
