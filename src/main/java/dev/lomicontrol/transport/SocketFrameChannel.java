package dev.lomicontrol.transport;

import com.sun.security.auth.module.UnixSystem;
import dev.lomicontrol.transport.FrameException.Reason;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.FileSystems;
import java.nio.file.attribute.UserPrincipal;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;
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
 */
final class SocketFrameChannel implements FrameChannel {

    private static final int CHUNK = 16 * 1024;
    private static final int SHRINK_ABOVE = 1024 * 1024;
    private static final Duration CLOSE_NOTIFY_FLUSH = Duration.ofSeconds(1);
    private static final ByteBuffer NOTHING = ByteBuffer.allocate(0);

    private final SocketChannel socket;
    private final Selector readable;
    private final Selector writable;
    private final PeerCredentials peer;
    private final Duration frameDeadline;
    private final ReentrantLock readLock = new ReentrantLock();
    private final ReentrantLock writeLock = new ReentrantLock();
    private final Object state = new Object();

    // reader side (readLock); plain and netIn are kept in write mode: their bytes are [0, position)
    private ByteBuffer plain = ByteBuffer.allocate(CHUNK);
    private ByteBuffer netIn = NOTHING;
    private long firstByteNanos;
    private long lastReceiveNanos;
    // writer side (writeLock)
    private ByteBuffer netOut = NOTHING;

    private volatile @Nullable SSLEngine engine;

    // state lock
    private @Nullable Reason closeReason;
    private String closeDetail = "";
    private final List<Runnable> closeActions = new ArrayList<>();

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
        PeerCredentials peer = peerOf(socket);
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

    private static PeerCredentials peerOf(SocketChannel socket) throws IOException {
        UnixDomainPrincipal principal = socket.getOption(ExtendedSocketOptions.SO_PEERCRED);
        boolean ours = principal.user().equals(OwnUser.PRINCIPAL);
        return new PeerCredentials(ours ? OwnUser.UID : PeerCredentials.UNKNOWN, PeerCredentials.UNKNOWN);
    }

    /** This process's user as the JDK's principals compare it (by uid), looked up once. */
    private static final class OwnUser {
        static final long UID = new UnixSystem().getUid();
        static final UserPrincipal PRINCIPAL = lookUp();

        private static UserPrincipal lookUp() {
            try {
                // a name that is all digits and names no user is taken as that uid
                return FileSystems.getDefault()
                        .getUserPrincipalLookupService()
                        .lookupPrincipalByName(Long.toString(UID));
            } catch (IOException e) {
                throw new IllegalStateException("cannot look up this process's user " + UID, e);
            }
        }
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
            throwIfClosed();
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
            throwIfClosed();
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
                int step = unwrapStep(tls);
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

    /**
     * One TLS step: decrypts one record from {@code netIn} if a whole one is there, otherwise reads more from the
     * socket. Returns 1 on progress, 0 when the socket has nothing now, -1 at the end of the stream.
     */
    private int unwrapStep(SSLEngine tls) throws IOException {
        netIn.flip();
        SSLEngineResult result;
        try {
            result = tls.unwrap(netIn, plain);
        } finally {
            netIn.compact();
        }
        switch (result.getStatus()) {
            case OK:
                boolean moved = result.bytesConsumed() > 0 || result.bytesProduced() > 0;
                return afterEngine(tls, result.getHandshakeStatus()) || moved ? 1 : 0;
            case BUFFER_OVERFLOW:
                plain = grown(plain, plain.position() + applicationBytes());
                return 1;
            case CLOSED:
                return -1;
            case BUFFER_UNDERFLOW:
            default:
                if (!netIn.hasRemaining()) {
                    netIn = grown(netIn, netIn.capacity() + tls.getSession().getPacketBufferSize());
                }
                int n = socket.read(netIn);
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
            wrapHandshake(tls, System.nanoTime() + frameDeadline.toNanos());
            return true;
        }
        return false;
    }

    /** Sends what the engine has to send outside application data (handshake messages, alerts, close_notify). */
    private void wrapHandshake(SSLEngine tls, long deadline) throws IOException {
        writeLock.lock();
        try {
            do {
                netOut.clear();
                SSLEngineResult result = tls.wrap(NOTHING, netOut);
                if (result.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
                    netOut = grown(netOut, netOut.capacity() + tls.getSession().getPacketBufferSize());
                    continue;
                }
                netOut.flip();
                flush(new ByteBuffer[] {netOut}, deadline, "a TLS record was not flushed in time");
                if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
                    return;
                }
            } while (tls.getHandshakeStatus() == HandshakeStatus.NEED_WRAP);
        } finally {
            writeLock.unlock();
        }
    }

    private void makeRoom(int wanted, int chunk) {
        int needed = Math.max(wanted, plain.position() + chunk);
        if (plain.capacity() < needed) {
            plain = grown(plain, needed);
        }
    }

    private static ByteBuffer grown(ByteBuffer buffer, int capacity) {
        ByteBuffer larger = ByteBuffer.allocate(capacity);
        larger.put(buffer.array(), 0, buffer.position());
        return larger;
    }

    private int applicationBytes() {
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
            throwIfClosed();
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
            if (netOut.capacity() < tls.getSession().getPacketBufferSize()) {
                netOut = ByteBuffer.allocate(tls.getSession().getPacketBufferSize());
            }
            while (frame[1].hasRemaining()) {
                netOut.clear();
                SSLEngineResult result = tls.wrap(frame, netOut);
                if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
                    throw fail(Reason.CLOSED, "TLS was closed");
                }
                if (result.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
                    netOut = ByteBuffer.allocate(
                            netOut.capacity() + tls.getSession().getPacketBufferSize());
                    continue;
                }
                netOut.flip();
                flush(new ByteBuffer[] {netOut}, deadline, late);
            }
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
    private void flush(ByteBuffer[] buffers, long deadline, String lateDetail) throws IOException {
        while (buffers[buffers.length - 1].hasRemaining() || buffers[0].hasRemaining()) {
            if (socket.write(buffers) > 0) {
                continue;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw fail(Reason.DEADLINE, lateDetail);
            }
            await(writable, left);
            throwIfClosed();
        }
    }

    /** Waits up to {@code nanos} ({@code Frames.FOREVER}: no limit) for {@code selector}'s channel to be ready. */
    private void await(Selector selector, long nanos) throws FrameException {
        try {
            selector.select(nanos == Frames.FOREVER ? 0 : Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos + 999_999)));
            selector.selectedKeys().clear();
        } catch (ClosedSelectorException e) {
            throwIfClosed();
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
        Frames.requirePositive(timeout, "TLS timeout");
        long deadline = System.nanoTime() + timeout.toNanos();
        readLock.lock();
        writeLock.lock();
        try {
            if (engine != null) {
                throw new IllegalStateException("TLS was already started on this connection");
            }
            throwIfClosed();
            SSLEngine tls = context.newEngine();
            int packet = tls.getSession().getPacketBufferSize();
            // bytes that came before the switch and were not read as frames are TLS records, never plaintext frames
            plain.flip();
            netIn = ByteBuffer.allocate(packet + plain.remaining());
            netIn.put(plain);
            plain = ByteBuffer.allocate(Math.max(CHUNK, tls.getSession().getApplicationBufferSize()));
            netOut = ByteBuffer.allocate(packet);
            engine = tls;
            handshake(tls, deadline, timeout);
            X509Certificate peerCertificate = peerCertificate(tls);
            confirm(context, deadline);
            return peerCertificate;
        } finally {
            writeLock.unlock();
            readLock.unlock();
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
                    throw tlsFailure("the peer closed the connection during the TLS handshake", null);
                }
                if (step == 0) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        throw fail(Reason.DEADLINE, late);
                    }
                    await(readable, left);
                    throwIfClosed();
                }
            }
        } catch (SSLException e) {
            sendAlert(tls);
            throw tlsFailure("the TLS handshake failed", e);
        } catch (FrameException e) {
            throw e;
        } catch (IOException e) {
            throw fail(Reason.CLOSED, String.valueOf(e));
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
            throw tlsFailure("the peer presented no certificate", e);
        }
    }

    /** As the broker's side ({@link TlsSwitch}): the server sends the confirmation, the client waits for it. */
    private void confirm(PinnedTls.Context context, long deadline) throws FrameException {
        try {
            if (context.isServer()) {
                write(PinnedTls.CONFIRMATION);
                return;
            }
            Duration left = Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
            byte[] answer = read(left, PinnedTls.CONFIRMATION.length);
            if (!Arrays.equals(answer, PinnedTls.CONFIRMATION)) {
                throw tlsFailure("the server sent no TLS confirmation", null);
            }
        } catch (FrameException e) {
            if (e.reason() == Reason.DEADLINE || e.reason() == Reason.TLS_FAILED) {
                throw e;
            }
            throw tlsFailure("the peer refused our certificate (" + e.getMessage() + ")", e);
        }
    }

    private FrameException tlsFailure(String detail, @Nullable Throwable cause) {
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
        if (closedFailure() != null) {
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
        return closedFailure() == null;
    }

    @Override
    public void onClose(Runnable action) {
        synchronized (state) {
            if (closeReason == null) {
                closeActions.add(action);
                return;
            }
        }
        action.run();
    }

    @Override
    public void close() {
        if (!record(Reason.CLOSED, "closed locally")) {
            return;
        }
        SSLEngine tls = engine;
        if (tls != null && writeLock.tryLock()) {
            try {
                tls.closeOutbound();
                wrapHandshake(tls, System.nanoTime() + CLOSE_NOTIFY_FLUSH.toNanos());
            } catch (IOException | RuntimeException ignored) {
                // close_notify is a courtesy; the socket closes regardless
            } finally {
                writeLock.unlock();
            }
        }
        release();
    }

    /** Records {@code reason} (the first one wins), closes the socket and returns the failure to throw. */
    private FrameException fail(Reason reason, String detail) {
        if (record(reason, detail)) {
            release();
        }
        FrameException recorded = closedFailure();
        return recorded != null ? recorded : new FrameException(reason, detail);
    }

    /** True for the first close: records why and runs the close actions. */
    private boolean record(Reason reason, String detail) {
        List<Runnable> actions;
        synchronized (state) {
            if (closeReason != null) {
                return false;
            }
            closeReason = reason;
            closeDetail = detail;
            actions = new ArrayList<>(closeActions);
            closeActions.clear();
        }
        actions.forEach(Runnable::run);
        return true;
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

    private @Nullable FrameException closedFailure() {
        synchronized (state) {
            return closeReason == null ? null : new FrameException(closeReason, closeDetail);
        }
    }

    private void throwIfClosed() throws FrameException {
        FrameException closed = closedFailure();
        if (closed != null) {
            throw closed;
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
