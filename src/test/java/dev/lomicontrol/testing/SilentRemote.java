package dev.lomicontrol.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP server on 127.0.0.1 that accepts every connection and never says a word: a remote that
 * stalls. It counts the connections, so a test can also show that nothing contacted it.
 */
public final class SilentRemote implements AutoCloseable {

    private final ServerSocket server;
    private final AtomicInteger connections = new AtomicInteger();
    private final List<Socket> held = new CopyOnWriteArrayList<>();

    public SilentRemote() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "silent-remote");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                held.add(server.accept());
                connections.incrementAndGet();
            } catch (IOException e) {
                return;
            }
        }
    }

    /** An {@code http://} URL of a repository on this server. */
    public String httpUrl() {
        return "http://127.0.0.1:" + server.getLocalPort() + "/stalled.git";
    }

    /** A {@code git://} URL of a repository on this server. */
    public String gitUrl() {
        return "git://127.0.0.1:" + server.getLocalPort() + "/stalled.git";
    }

    /** How many connections it has accepted so far. */
    public int connections() {
        return connections.get();
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : held) {
            socket.close();
        }
    }
}
