package dev.lomicontrol.transport;

import dev.lomicontrol.transport.FrameException.Reason;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSession;
import org.jspecify.annotations.Nullable;

/**
 * {@link FrameChannel} over the JDK's own non-blocking Unix-domain {@link SocketChannel}, driven by the threads
 * that call it: a read waits on a selector in the reading thread, a write flushes in the writing thread, and
 * after {@link #startTls} the same threads run the {@link SSLEngine} (TLS records are decrypted as the reader
 * needs them and encrypted as the writer sends). No event loop, no hand-off between threads, no Netty: this is
 * the MCP helper's channel, one request at a time (docs/adr/0014-helper-socket-channel.md).
 *
 * <p>Differences from the broker's Netty channels, all on the client side's terms: bytes are taken from the
 * socket when a reader asks for them, so a frame's deadline runs from when its first byte was read rather than
 * from when the kernel received it, and a peer's close is noticed by the next {@link #read}, {@link #write} or
 * {@link #isOpen} (which looks without blocking), which then runs the {@link #onClose} actions on that thread.
 * SO_PEERCRED through the JDK names the peer's user but not its process: {@link #peer()} carries our uid when the
 * peer runs as our user, {@link PeerCredentials#UNKNOWN} otherwise, and {@code UNKNOWN} as the pid. Strict mode
 * is the server's ({@link #setStrict} refuses to turn it on).
 *
 * <p>This class frames bytes and drives the socket; the TLS half (switch, handshake, records) is {@link
 * SocketTls}, which shares this channel's locks and plaintext buffer, and why and whether it closed is {@link
 * ChannelClose}.
 */
final class SocketFrameChannel implements FrameChannel {

    static final int CHUNK = 16 * 1024;
    private static final int SHRINK_ABOVE = 1024 * 1024;
    private static final Duration CLOSE_NOTIFY_FLUSH = Duration.ofSeconds(1);
    static final ByteBuffer NOTHING = ByteBuffer.allocate(0);

    final SocketChannel socket;
    final Selector readable;
    private final Selector writable;
    private final PeerCredentials peer;
    final Duration frameDeadline;
    final ReentrantLock readLock = new ReentrantLock();
    final ReentrantLock writeLock = new ReentrantLock();
    final ChannelClose closing = new ChannelClose();
    private final SocketTls tlsSide = new SocketTls(this);

    // reader side (readLock); plain is kept in write mode: its bytes are [0, position)
    ByteBuffer plain = ByteBuffer.allocate(CHUNK);
    private long firstByteNanos;
    private long lastReceiveNanos;

    volatile @Nullable SSLEngine engine;

    private SocketFrameChannel(
            SocketChannel socket, Selector readable, Selector writable, PeerCredentials peer, Duration frameDeadline) {
        this.socket = socket;
        this.readable = readable;
        this.writable = writable;
        this.peer = peer;
        this.frameDeadline = frameDeadline;
    }

    /** Wraps a connected non-blocking channel; closes nothing on failure (the caller closes the channel). */
    static SocketFrameChannel open(SocketChannel socket, Duration frameDeadline) throws IOException {
        PeerCredentials peer = OwnUser.peerOf(socket);
        Selector readable = Selector.open();
        Selector writable = Selector.open();
        try {
            socket.register(readable, SelectionKey.OP_READ);
            socket.register(writable, SelectionKey.OP_WRITE);
        } catch (IOException | RuntimeException e) {
            readable.close();
            writable.close();
            throw e;
        }
        return new SocketFrameChannel(socket, readable, writable, peer, frameDeadline);
    }

    @Override
    public PeerCredentials peer() {
        return peer;
    }

    // ---- reading ----

    @Override
    public byte[] read(@Nullable Duration idleTimeout, int maxBytes) throws FrameException {
        Frames.requireLimit(maxBytes);
        readLock.lock();
        try {
            closing.throwIfClosed();
            String late = "the frame did not complete within " + frameDeadline;
            fill(1, Frames.deadlineAfter(System.nanoTime(), idleTimeout), "no frame began within " + idleTimeout);
            long frameEnd = Frames.deadlineAfter(firstByteNanos, frameDeadline);
            fill(Frames.PREFIX_BYTES, frameEnd, late);
            int length = plain.getInt(0);
            Frames.requireAnnounced(length, maxBytes, this::fail);
            fill(Frames.PREFIX_BYTES + length, frameEnd, late);
            return take(length);
        } finally {
            readLock.unlock();
        }
    }

    /** Removes the frame at the front of {@code plain}: its prefix and {@code length} bytes. */
    private byte[] take(int length) {
        int end = Frames.PREFIX_BYTES + length;
        byte[] frame = Arrays.copyOfRange(plain.array(), Frames.PREFIX_BYTES, end);
        int rest = plain.position() - end;
        if (plain.capacity() > SHRINK_ABOVE && rest < CHUNK) {
            ByteBuffer smaller = ByteBuffer.allocate(Math.max(CHUNK, applicationBytes()));
            smaller.put(plain.array(), end, rest);
            plain = smaller;
        } else {
            System.arraycopy(plain.array(), end, plain.array(), 0, rest);
            plain.position(rest);
        }
        firstByteNanos = lastReceiveNanos; // the rest came with the last read (or earlier)
        return frame;
    }

    /** Receives until {@code plain} holds {@code wanted} bytes, waiting until {@code deadline}. */
    private void fill(int wanted, long deadline, String lateDetail) throws FrameException {
        while (plain.position() < wanted) {
            int step = receive(wanted);
            if (step > 0) {
                continue;
            }
            if (step < 0) {
                throw fail(Reason.CLOSED, "the connection closed");
            }
            closing.throwIfClosed();
            long left = deadline == Frames.FOREVER ? Frames.FOREVER : deadline - System.nanoTime();
            if (left <= 0) {
                throw fail(Reason.DEADLINE, lateDetail);
            }
            await(readable, left);
        }
    }

    /**
     * Takes what the socket has now, without blocking, into {@code plain} (decrypted once TLS runs), with room
     * for {@code wanted} bytes. Returns 1 when bytes were added, 0 when nothing is there yet, -1 at the end of
     * the stream (or the peer's close_notify) with nothing added.
     */
    private int receive(int wanted) throws FrameException {
        SSLEngine tls = engine;
        boolean wasEmpty = plain.position() == 0;
        try {
            if (tls == null) {
                makeRoom(wanted, CHUNK);
                int n = socket.read(plain);
                if (n > 0) {
                    stamp(wasEmpty);
                }
                return Integer.signum(n);
            }
            int added = 0;
            while (added == 0) {
                makeRoom(wanted, applicationBytes());
                int before = plain.position();
                int step = tlsSide.unwrapStep(tls);
                added = plain.position() - before;
                if (step <= 0) {
                    if (added > 0) {
                        stamp(wasEmpty);
                        return 1;
                    }
                    return step;
                }
            }
            stamp(wasEmpty);
            return 1;
        } catch (SSLException e) {
            throw tlsFailure("TLS failed on the connection", e);
        } catch (IOException e) {
            if (e instanceof FrameException frame) {
                throw frame;
            }
            throw fail(Reason.CLOSED, String.valueOf(e));
        }
    }

    private void makeRoom(int wanted, int chunk) {
        int needed = Math.max(wanted, plain.position() + chunk);
        if (plain.capacity() < needed) {
            plain = grown(plain, needed);
        }
    }

    static ByteBuffer grown(ByteBuffer buffer, int capacity) {
        ByteBuffer larger = ByteBuffer.allocate(capacity);
        larger.put(buffer.array(), 0, buffer.position());
        return larger;
    }

    int applicationBytes() {
        SSLEngine tls = engine;
        return tls == null ? CHUNK : tls.getSession().getApplicationBufferSize();
    }

    /** Bytes were added to {@code plain}; if it was empty, the next frame's first byte came now. */
    private void stamp(boolean wasEmpty) {
        long now = System.nanoTime();
        lastReceiveNanos = now;
        if (wasEmpty) {
            firstByteNanos = now;
        }
    }

    // ---- writing ----

    @Override
    public void write(byte[] payload) throws FrameException {
        Frames.requireWritable(payload);
        writeLock.lock();
        try {
            closing.throwIfClosed();
            long deadline = System.nanoTime() + frameDeadline.toNanos();
            String late = "the frame was not flushed within " + frameDeadline;
            ByteBuffer[] frame = {
                ByteBuffer.allocate(Frames.PREFIX_BYTES).putInt(0, payload.length), ByteBuffer.wrap(payload)
            };
            SSLEngine tls = engine;
            if (tls == null) {
                flush(frame, deadline, late);
                return;
            }
            tlsSide.writeFrame(tls, frame, deadline, late);
        } catch (SSLException e) {
            throw tlsFailure("TLS failed while writing", e);
        } catch (FrameException e) {
            throw e;
        } catch (IOException e) {
            throw fail(Reason.CLOSED, String.valueOf(e));
        } finally {
            writeLock.unlock();
        }
    }

    /** Writes every byte of {@code buffers}, waiting for the socket to take them until {@code deadline}. */
    void flush(ByteBuffer[] buffers, long deadline, String lateDetail) throws IOException {
        while (buffers[buffers.length - 1].hasRemaining() || buffers[0].hasRemaining()) {
            if (socket.write(buffers) > 0) {
                continue;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw fail(Reason.DEADLINE, lateDetail);
            }
            await(writable, left);
            closing.throwIfClosed();
        }
    }

    /** Waits up to {@code nanos} ({@code Frames.FOREVER}: no limit) for {@code selector}'s channel to be ready. */
    void await(Selector selector, long nanos) throws FrameException {
        try {
            selector.select(nanos == Frames.FOREVER ? 0 : Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos + 999_999)));
            selector.selectedKeys().clear();
        } catch (ClosedSelectorException e) {
            closing.throwIfClosed();
            throw fail(Reason.CLOSED, "closed while waiting");
        } catch (IOException e) {
            throw fail(Reason.CLOSED, String.valueOf(e));
        }
        if (Thread.interrupted()) {
            Thread.currentThread().interrupt();
            throw fail(Reason.CLOSED, "the thread was interrupted");
        }
    }

    // ---- TLS ----

    @Override
    public X509Certificate startTls(PinnedTls.Context context, Duration timeout) throws FrameException {
        return tlsSide.start(context, timeout);
    }

    FrameException tlsFailure(String detail, @Nullable Throwable cause) {
        fail(Reason.TLS_FAILED, detail);
        return new FrameException(Reason.TLS_FAILED, detail + (cause == null ? "" : ": " + cause), cause);
    }

    // ---- state ----

    @Override
    public void setStrict(boolean strict) {
        if (strict) {
            throw new UnsupportedOperationException("strict mode is the server's (Netty channels)");
        }
    }

    /** Open unless a close was recorded; looks at the socket without blocking, so a peer's close is seen here. */
    @Override
    public boolean isOpen() {
        if (closing.failure() != null) {
            return false;
        }
        if (readLock.tryLock()) {
            try {
                if (receive(plain.position() + 1) < 0) {
                    fail(Reason.CLOSED, "the connection closed");
                }
            } catch (FrameException e) {
                // recorded as the close reason
            } finally {
                readLock.unlock();
            }
        }
        return closing.failure() == null;
    }

    @Override
    public void onClose(Runnable action) {
        closing.onClose(action);
    }

    @Override
    public void close() {
        if (!closing.record(Reason.CLOSED, "closed locally")) {
            return;
        }
        SSLEngine tls = engine;
        if (tls != null && writeLock.tryLock()) {
            try {
                tls.closeOutbound();
                tlsSide.wrapHandshake(tls, System.nanoTime() + CLOSE_NOTIFY_FLUSH.toNanos());
            } catch (IOException | RuntimeException ignored) {
                // close_notify is a courtesy; the socket closes regardless
            } finally {
                writeLock.unlock();
            }
        }
        release();
    }

    /** Records {@code reason} (the first one wins), closes the socket and returns the failure to throw. */
    FrameException fail(Reason reason, String detail) {
        if (closing.record(reason, detail)) {
            release();
        }
        FrameException recorded = closing.failure();
        return recorded != null ? recorded : new FrameException(reason, detail);
    }

    /** Closes the socket and both selectors; a thread waiting on one wakes and reports the recorded reason. */
    private void release() {
        for (AutoCloseable resource : new AutoCloseable[] {socket, readable, writable}) {
            try {
                resource.close();
            } catch (Exception ignored) {
                // closing is best effort: the reason is recorded
            }
        }
    }

    /** The TLS session once {@link #startTls} ran (what the tests read the negotiated suite from). */
    @Nullable
    SSLSession tlsSession() {
        SSLEngine tls = engine;
        return tls == null ? null : tls.getSession();
    }

    @Override
    public String toString() {
        return "FrameChannel[socket, peer uid " + peer.uid() + "]";
    }
}
