package dev.lomicontrol.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.unix.DomainSocketAddress;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import reactor.core.Exceptions;
import reactor.netty.Connection;
import reactor.netty.resources.LoopResources;
import reactor.netty.tcp.TcpClient;

/** Connects to a {@link UnixSocketServer} (or any frame peer) over a Unix-domain socket, epoll transport. */
public final class UnixSocketClient {

    /** Shared by every client in this JVM; daemon threads, never disposed. */
    private static final LoopResources LOOPS = LoopResources.create("lomi-uds-client", 1, 1, true);

    private UnixSocketClient() {}

    /** Connects within {@code timeout}; the channel starts in plaintext with the standard frame deadline. */
    public static FrameChannel connect(Path socket, Duration timeout) throws IOException {
        return connect(socket, timeout, Frames.FRAME_DEADLINE);
    }

    /** As {@link #connect(Path, Duration)} with another frame deadline (tests use a short one). */
    static FrameChannel connect(Path socket, Duration timeout, Duration frameDeadline) throws IOException {
        Frames.requirePositive(timeout, "connect timeout");
        requireEpoll();
        AtomicReference<Channel> initialized = new AtomicReference<>();
        Connection connection;
        try {
            connection = TcpClient.newConnection()
                    .remoteAddress(() -> new DomainSocketAddress(socket.toString()))
                    .runOn(LOOPS, true)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()))
                    .doOnChannelInit((observer, channel, address) -> {
                        NettyFrameChannel.install(channel);
                        initialized.set(channel);
                    })
                    .connect()
                    .block(timeout);
        } catch (RuntimeException e) {
            Throwable cause = Exceptions.unwrap(e);
            throw cause instanceof IOException io
                    ? io
                    : new IOException("cannot connect to " + socket + ": " + cause, cause);
        }
        if (connection == null) {
            throw new IOException("cannot connect to " + socket);
        }
        // not connection.channel(): a connection the server closed at once is reported as a placeholder
        // channel; the real one still tells the caller (reads fail with CLOSED) and carries the credentials
        Channel channel = initialized.get();
        if (channel == null) {
            throw new IOException("cannot connect to " + socket);
        }
        try {
            return NettyFrameChannel.open(channel, frameDeadline);
        } catch (IOException e) {
            channel.close();
            throw e;
        }
    }

    static void requireEpoll() throws IOException {
        if (!LoopResources.hasNativeSupport()) {
            throw new IOException("no native transport (epoll) is available for Unix-domain sockets");
        }
    }
}
