package dev.lomicontrol.transport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A Unix-socket proxy for exactly one connection that records every client→server byte, as an attacker
 * with access to the socket traffic could.
 */
final class RecordingRelay implements AutoCloseable {

    private final ServerSocketChannel listener;
    private final Path target;
    private final ByteArrayOutputStream clientToServer = new ByteArrayOutputStream();
    private final CountDownLatch finished = new CountDownLatch(2);

    RecordingRelay(Path listen, Path target) throws IOException {
        this.listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX).bind(UnixDomainSocketAddress.of(listen));
        this.target = target;
        Thread acceptor = new Thread(this::relayOneConnection, "recording-relay");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void relayOneConnection() {
        try {
            SocketChannel client = listener.accept();
            SocketChannel server = SocketChannel.open(UnixDomainSocketAddress.of(target));
            pump(client, server, true);
            pump(server, client, false);
        } catch (IOException e) {
            finished.countDown();
            finished.countDown();
        }
    }

    private void pump(SocketChannel from, SocketChannel to, boolean record) {
        Thread thread = new Thread(
                () -> {
                    ByteBuffer buffer = ByteBuffer.allocate(16 * 1024);
                    try {
                        while (from.read(buffer.clear()) >= 0) {
                            buffer.flip();
                            if (record) {
                                synchronized (clientToServer) {
                                    clientToServer.write(buffer.array(), 0, buffer.limit());
                                }
                            }
                            while (buffer.hasRemaining()) {
                                to.write(buffer);
                            }
                        }
                        to.shutdownOutput();
                    } catch (IOException e) {
                        // one side went away: stop relaying this direction
                    } finally {
                        finished.countDown();
                    }
                },
                "recording-relay-pump");
        thread.setDaemon(true);
        thread.start();
    }

    /** Waits until both directions ended, then returns every byte the client sent. */
    byte[] recordedClientBytes() throws InterruptedException {
        if (!finished.await(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the relayed session did not end");
        }
        synchronized (clientToServer) {
            return clientToServer.toByteArray();
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }
}
