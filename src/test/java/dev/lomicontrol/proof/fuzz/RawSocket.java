package dev.lomicontrol.proof.fuzz;

import java.io.EOFException;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A plain JDK Unix-socket client that writes exactly the bytes it is given (our own transport
 * would never send a bad frame), with deadlines on every read and write. Plaintext frames and the
 * transport under {@link TlsPipe}.
 */
final class RawSocket implements AutoCloseable {

    private final SocketChannel channel;
    private final Selector selector;
    private final SelectionKey key;

    private RawSocket(SocketChannel channel, Selector selector, SelectionKey key) {
        this.channel = channel;
        this.selector = selector;
        this.key = key;
    }

    static RawSocket connect(Path socket) throws IOException {
        SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            channel.connect(UnixDomainSocketAddress.of(socket));
            channel.configureBlocking(false);
            Selector selector = Selector.open();
            return new RawSocket(channel, selector, channel.register(selector, SelectionKey.OP_READ));
        } catch (IOException e) {
            channel.close();
            throw e;
        }
    }

    /** Writes all of {@code bytes} within {@code timeout}; an IOException means the peer is gone (or stopped reading). */
    void write(ByteBuffer bytes, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (bytes.hasRemaining()) {
            if (channel.write(bytes) == 0) {
                await(SelectionKey.OP_WRITE, deadline);
            }
        }
    }

    void write(byte[] bytes, Duration timeout) throws IOException {
        write(ByteBuffer.wrap(bytes), timeout);
    }

    /** Reads what is available into {@code into}, waiting up to the deadline: the count, or -1 at end of stream. */
    int read(ByteBuffer into, long deadlineNanos) throws IOException {
        while (true) {
            int read = channel.read(into);
            if (read != 0 || !into.hasRemaining()) {
                return read;
            }
            await(SelectionKey.OP_READ, deadlineNanos);
        }
    }

    /** One plaintext frame of at most {@code max} bytes. */
    byte[] readFrame(int max, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int length = readFully(ByteBuffer.allocate(4), deadline).getInt();
        if (length < 1 || length > max) {
            throw new IOException("the peer sent a frame of " + length + " bytes");
        }
        return readFully(ByteBuffer.allocate(length), deadline).array();
    }

    /** True when the peer closes (end of stream or reset) within {@code within}; whatever it sends meanwhile is discarded. */
    boolean closedByPeerWithin(Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        ByteBuffer sink = ByteBuffer.allocate(64 * 1024);
        try {
            while (true) {
                sink.clear();
                if (read(sink, deadline) < 0) {
                    return true;
                }
            }
        } catch (DeadlineException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    /** Stops sending (the peer reads end of stream) but keeps reading. */
    void shutdownOutput() {
        try {
            channel.shutdownOutput();
        } catch (IOException e) {
            // already closed by the peer
        }
    }

    private ByteBuffer readFully(ByteBuffer buffer, long deadline) throws IOException {
        while (buffer.hasRemaining()) {
            if (read(buffer, deadline) < 0) {
                throw new EOFException("end of stream");
            }
        }
        return buffer.flip();
    }

    private void await(int operation, long deadlineNanos) throws IOException {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
            throw new DeadlineException();
        }
        key.interestOps(operation);
        try {
            selector.select(Math.max(1, left / 1_000_000));
            selector.selectedKeys().clear();
        } finally {
            key.interestOps(SelectionKey.OP_READ);
        }
    }

    /** The deadline passed with the peer still connected. */
    static final class DeadlineException extends IOException {
        DeadlineException() {
            super("deadline passed");
        }
    }

    @Override
    public void close() {
        try {
            selector.close();
            channel.close();
        } catch (IOException e) {
            // nothing left to release
        }
    }
}
