package dev.lomicontrol.transport;

import dev.lomicontrol.testing.Eventually;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;

/** A plain JDK Unix-socket client that writes exact bytes, for frames our own client would never send. */
final class RawClient implements AutoCloseable {

    final SocketChannel channel;

    private RawClient(SocketChannel channel) {
        this.channel = channel;
    }

    static RawClient connect(Path socket) throws IOException {
        SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        channel.connect(UnixDomainSocketAddress.of(socket));
        return new RawClient(channel);
    }

    void write(byte[] bytes) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    /** Writes one byte at a time with {@code pause} between bytes. */
    void trickle(byte[] bytes, Duration pause) throws IOException, InterruptedException {
        for (byte b : bytes) {
            write(new byte[] {b});
            // intentional, not synchronisation (docs/adr/0011): a slow peer is the point of the test
            Thread.sleep(pause.toMillis());
        }
    }

    byte[] readFrame() throws IOException {
        int length = readFully(4).getInt();
        return readFully(length).array();
    }

    private ByteBuffer readFully(int count) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(count);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer) < 0) {
                throw new IOException("end of stream");
            }
        }
        return buffer.flip();
    }

    /** True when the peer closed this connection within {@code within} (end of stream or reset). */
    boolean closedByPeerWithin(Duration within) throws IOException {
        channel.configureBlocking(false);
        ByteBuffer sink = ByteBuffer.allocate(64 * 1024);
        try {
            return Eventually.holdsWithin(within, Duration.ofMillis(10), () -> {
                sink.clear();
                try {
                    return channel.read(sink) < 0;
                } catch (IOException reset) {
                    return true;
                }
            });
        } finally {
            channel.configureBlocking(true);
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
