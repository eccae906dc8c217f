package dev.lomicontrol.transport;

import dev.lomicontrol.transport.FrameException.Reason;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import javax.net.ssl.SSLException;
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
    private static final long FOREVER = Long.MAX_VALUE;
    private static final Logger log = LoggerFactory.getLogger(InboundBuffer.class);

    private final Channel channel;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<Chunk> chunks = new ArrayDeque<>();
    private long buffered;
    private boolean strict;
    private boolean paused;
    private Reason closeReason;
    private String closeDetail;
    private volatile PeerCredentials peer;
    private volatile IOException peerFailure;

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
            if (msg instanceof ByteBuf bytes && bytes.isReadable()) {
                append(bytes);
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
            more = closeReason == null && buffered < HIGH_WATERMARK;
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
            return take((int) buffered);
        } finally {
            lock.unlock();
        }
    }

    private void append(ByteBuf bytes) {
        lock.lock();
        try {
            if (closeReason != null) {
                return;
            }
            if (strict) {
                failLocked(Reason.PIPELINED, "a byte arrived while a request was in flight");
                return;
            }
            byte[] data = new byte[bytes.readableBytes()];
            bytes.readBytes(data);
            chunks.add(new Chunk(data, System.nanoTime()));
            buffered += data.length;
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
    byte[] awaitFrame(Duration idleTimeout, int maxBytes, Duration frameDeadline) throws FrameException {
        lock.lock();
        try {
            awaitBytes(1, deadlineAfter(System.nanoTime(), idleTimeout), "no frame began within " + idleTimeout);
            long frameEnd = deadlineAfter(chunks.getFirst().arrivalNanos, frameDeadline);
            String late = "the frame did not complete within " + frameDeadline;
            awaitBytes(Frames.PREFIX_BYTES, frameEnd, late);
            int length = java.nio.ByteBuffer.wrap(peek(Frames.PREFIX_BYTES)).getInt();
            if (length == 0) {
                throw failLocked(Reason.EMPTY, "a frame announced zero bytes");
            }
            if (length < 0 || length > maxBytes) {
                throw failLocked(Reason.TOO_LARGE, "a frame announced " + Integer.toUnsignedString(length) + " bytes, limit " + maxBytes);
            }
            awaitBytes(Frames.PREFIX_BYTES + length, frameEnd, late);
            take(Frames.PREFIX_BYTES);
            byte[] frame = take(length);
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
            if (on && buffered > 0) {
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
    FrameException closedFailure() {
        lock.lock();
        try {
            return closeReason == null ? null : new FrameException(closeReason, closeDetail);
        } finally {
            lock.unlock();
        }
    }

    private void awaitBytes(long wanted, long deadline, String lateDetail) throws FrameException {
        while (buffered < wanted) {
            if (closeReason != null) {
                throw new FrameException(closeReason, closeDetail);
            }
            long remaining = deadline == FOREVER ? FOREVER : deadline - System.nanoTime();
            if (remaining <= 0) {
                throw failLocked(Reason.DEADLINE, lateDetail);
            }
            try {
                if (remaining == FOREVER) {
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
        if (paused && buffered < HIGH_WATERMARK && closeReason == null) {
            paused = false;
            channel.eventLoop().execute(channel::read);
        }
    }

    private byte[] peek(int count) {
        byte[] out = new byte[count];
        int filled = 0;
        for (Chunk chunk : chunks) {
            int n = Math.min(count - filled, chunk.data.length - chunk.offset);
            System.arraycopy(chunk.data, chunk.offset, out, filled, n);
            filled += n;
            if (filled == count) {
                break;
            }
        }
        return out;
    }

    private byte[] take(int count) {
        byte[] out = new byte[count];
        int filled = 0;
        while (filled < count) {
            Chunk chunk = chunks.getFirst();
            int n = Math.min(count - filled, chunk.data.length - chunk.offset);
            System.arraycopy(chunk.data, chunk.offset, out, filled, n);
            filled += n;
            chunk.offset += n;
            if (chunk.offset == chunk.data.length) {
                chunks.removeFirst();
            }
        }
        buffered -= count;
        return out;
    }

    private static long deadlineAfter(long startNanos, Duration duration) {
        if (duration == null || duration.compareTo(Duration.ofDays(365)) > 0) {
            return FOREVER;
        }
        return startNanos + Math.max(0, duration.toNanos());
    }

    /** Bytes from one socket read and when they arrived; {@code offset} advances as they are consumed. */
    private static final class Chunk {
        final byte[] data;
        final long arrivalNanos;
        int offset;

        Chunk(byte[] data, long arrivalNanos) {
            this.data = data;
            this.arrivalNanos = arrivalNanos;
        }
    }
}
