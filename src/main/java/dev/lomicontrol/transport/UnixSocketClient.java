package dev.lomicontrol.transport;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Connects to a {@link UnixSocketServer} (or any frame peer) over a Unix-domain socket with the JDK's own
 * socket channel ({@link SocketFrameChannel}): no Netty, no Reactor and no event-loop thread in the MCP
 * helper, which is this client's user (docs/adr/0014-helper-socket-channel.md says why).
 */
public final class UnixSocketClient {

    private UnixSocketClient() {}

    /** Connects within {@code timeout}; the channel starts in plaintext with the standard frame deadline. */
    public static FrameChannel connect(Path socket, Duration timeout) throws IOException {
        return connect(socket, timeout, Frames.FRAME_DEADLINE);
    }

    /** As {@link #connect(Path, Duration)} with another frame deadline (tests use a short one). */
    static FrameChannel connect(Path socket, Duration timeout, Duration frameDeadline) throws IOException {
        Frames.requirePositive(timeout, "connect timeout");
        Frames.requirePositive(frameDeadline, "frame deadline");
        SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            channel.configureBlocking(false);
            if (!channel.connect(UnixDomainSocketAddress.of(socket))) {
                awaitConnected(channel, socket, timeout);
            }
            return SocketFrameChannel.open(channel, frameDeadline);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e instanceof IOException io
                            && io.getMessage() != null
                            && io.getMessage().contains(socket.toString())
                    ? io
                    : new IOException("cannot connect to " + socket + ": " + e, e);
        }
    }

    /** A Unix-domain connect normally completes at once; a full backlog makes it pending. */
    private static void awaitConnected(SocketChannel channel, Path socket, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Selector selector = Selector.open()) {
            channel.register(selector, SelectionKey.OP_CONNECT);
            while (!channel.finishConnect()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new IOException("cannot connect to " + socket + " within " + timeout);
                }
                selector.select(Math.max(1, left / 1_000_000));
            }
        }
    }
}
