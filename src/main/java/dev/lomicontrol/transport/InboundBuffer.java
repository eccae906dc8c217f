package dev.lomicontrol.transport;

import dev.lomicontrol.transport.FrameException.Reason;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import javax.net.ssl.SSLException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Netty end of a {@link FrameChannel}: keeps inbound (plaintext or decrypted) bytes with their arrival
 * time for one blocking reader, enforces strict mode, and records the first reason the channel closed.
 * Inbound bytes stop here: nothing reaches reactor-netty's bridge behind it. Reads are requested
 * explicitly (reactor-netty turns auto-read off) and pause while one largest frame is already waiting.
 */
final class InboundBuffer extends ChannelInboundHandlerAdapter {

    static final String NAME = "lomi.frames";
    static final long HIGH_WATERMARK = (long) Frames.MAX_FRAME_BYTES + Frames.PREFIX_BYTES;
    private static final Logger log = LoggerFactory.getLogger(InboundBuffer.class);

    private final Channel channel;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrivalQueue bytes = new ArrivalQueue();
    private boolean strict;
    private boolean paused;
    private @Nullable Reason closeReason;
    private String closeDetail = "";
    private volatile @Nullable PeerCredentials peer;
    private volatile @Nullable IOException peerFailure;

    InboundBuffer(Channel channel) {
        this.channel = channel;
    }

    // ---- event loop side ----

    /** Captures SO_PEERCRED while the socket is certainly open, before anyone learns of the connection. */
    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        try {
            peer = NettyFrameChannel.peerOf(ctx.channel());
        } catch (IOException e) {
            peerFailure = e;
        }
        ctx.fireChannelActive();
        ctx.read();
    }

    /** The peer's credentials, captured when the connection became active. */
    PeerCredentials peer() throws IOException {
        if (peer == null) {
            throw peerFailure != null ? peerFailure : new IOException("the connection never became active");
        }
        return peer;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof ByteBuf received && received.isReadable()) {
                append(received);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        boolean more;
        lock.lock();
        try {
            more = closeReason == null && bytes.size() < HIGH_WATERMARK;
            paused = !more;
        } finally {
            lock.unlock();
        }
        if (more) {
            ctx.read();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        markClosed(Reason.CLOSED, "the connection closed");
        ctx.fireChannelInactive();
    }

    /** Consumed here (reactor-netty would log it as an error): records the reason and closes. */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("connection failed: {}", cause.toString());
        markClosed(isTls(cause) ? Reason.TLS_FAILED : Reason.CLOSED, cause.toString());
        ctx.close();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof SslHandshakeCompletionEvent done && !done.isSuccess()) {
            markClosed(Reason.TLS_FAILED, String.valueOf(done.cause()));
        }
        ctx.fireUserEventTriggered(event);
    }

    /** Event loop only: takes every unread byte, to be handed to TLS at the switch. */
    byte[] drainForTls() {
        lock.lock();
        try {
            byte[] early = bytes.take((int) bytes.size());
            resumeIfPaused();
            return early;
        } finally {
            lock.unlock();
        }
    }

    private void append(ByteBuf received) {
        lock.lock();
        try {
            if (closeReason != null) {
                return;
            }
            if (strict) {
                failLocked(Reason.PIPELINED, "a byte arrived while a request was in flight");
                return;
            }
            byte[] data = new byte[received.readableBytes()];
            received.readBytes(data);
            bytes.add(data, System.nanoTime());
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private static boolean isTls(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof SSLException) {
                return true;
            }
        }
        return false;
    }

    // ---- reader side ----

    /** See {@link FrameChannel#read}. */
    byte[] awaitFrame(@Nullable Duration idleTimeout, int maxBytes, Duration frameDeadline) throws FrameException {
        lock.lock();
        try {
            awaitBytes(1, Frames.deadlineAfter(System.nanoTime(), idleTimeout), "no frame began within " + idleTimeout);
            long frameEnd = Frames.deadlineAfter(bytes.firstArrivalNanos(), frameDeadline);
            String late = "the frame did not complete within " + frameDeadline;
            awaitBytes(Frames.PREFIX_BYTES, frameEnd, late);
            int length = ByteBuffer.wrap(bytes.peek(Frames.PREFIX_BYTES)).getInt();
            Frames.requireAnnounced(length, maxBytes, this::failLocked);
            awaitBytes(Frames.PREFIX_BYTES + length, frameEnd, late);
            bytes.take(Frames.PREFIX_BYTES);
            byte[] frame = bytes.take(length);
            resumeIfPaused();
            return frame;
        } finally {
            lock.unlock();
        }
    }

    /** Turns strict mode on or off; on with unread bytes waiting closes the channel (PIPELINED). */
    void setStrict(boolean on) {
        lock.lock();
        try {
            strict = on;
            if (on && bytes.size() > 0) {
                failLocked(Reason.PIPELINED, "bytes were waiting when the request began");
            }
        } finally {
            lock.unlock();
        }
    }

    /** Records {@code reason} (unless one is already recorded), closes the channel and returns the failure to throw. */
    FrameException fail(Reason reason, String detail) {
        lock.lock();
        try {
            return failLocked(reason, detail);
        } finally {
            lock.unlock();
        }
    }

    /** Records the first close reason without closing (the channel is closing or closed already). */
    void markClosed(Reason reason, String detail) {
        lock.lock();
        try {
            if (closeReason == null) {
                closeReason = reason;
                closeDetail = detail;
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The failure describing why the channel closed, or null while it is open. */
    @Nullable
    FrameException closedFailure() {
        lock.lock();
        try {
            return closeReason == null ? null : new FrameException(closeReason, closeDetail);
        } finally {
            lock.unlock();
        }
    }

    private void awaitBytes(long wanted, long deadline, String lateDetail) throws FrameException {
        while (bytes.size() < wanted) {
            if (closeReason != null) {
                throw new FrameException(closeReason, closeDetail);
            }
            long remaining = deadline == Frames.FOREVER ? Frames.FOREVER : deadline - System.nanoTime();
            if (remaining <= 0) {
                throw failLocked(Reason.DEADLINE, lateDetail);
            }
            try {
                if (remaining == Frames.FOREVER) {
                    changed.await();
                } else {
                    changed.awaitNanos(remaining);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw failLocked(Reason.CLOSED, "the reading thread was interrupted");
            }
        }
    }

    private FrameException failLocked(Reason reason, String detail) {
        if (closeReason == null) {
            closeReason = reason;
            closeDetail = detail;
        }
        changed.signalAll();
        channel.close();
        return new FrameException(reason, detail);
    }

    private void resumeIfPaused() {
        if (paused && bytes.size() < HIGH_WATERMARK && closeReason == null) {
            paused = false;
            channel.eventLoop().execute(channel::read);
        }
    }
}
