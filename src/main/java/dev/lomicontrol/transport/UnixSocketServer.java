package dev.lomicontrol.transport;

import io.netty.channel.Channel;
import io.netty.channel.unix.DomainSocketAddress;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Exceptions;
import reactor.netty.DisposableServer;
import reactor.netty.resources.LoopResources;
import reactor.netty.tcp.TcpServer;

/**
 * Listens on a Unix-domain socket (never TCP) with reactor-netty's TcpServer on the epoll transport, and
 * runs one handler per connection on its own thread from a pool of at most {@code maxConnections} threads
 * (started as connections arrive, ended after a minute unused). A connection over the cap is answered on
 * the event loop by the {@link WhenFull} frame, if any, and closed (docs/adr/0019-agent-connections.md).
 */
public final class UnixSocketServer implements AutoCloseable {

    /** The frame a connection over the cap is sent before it is closed ({@code open} of {@code max} are taken). */
    @FunctionalInterface
    public interface WhenFull {
        byte[] refusal(int open, int max);
    }

    /** How long a refused connection stays open for its peer to read the refusal (its close ends it sooner). */
    static final Duration REFUSAL_LINGER = Duration.ofSeconds(5);
    /** Refused connections lingering at once; beyond this a refused connection is closed without a word. */
    static final int MAX_LINGERING = 64;

    private static final Duration SHUTDOWN_WAIT = Duration.ofSeconds(5);
    private static final Logger log = LoggerFactory.getLogger(UnixSocketServer.class);

    private final Path socket;
    private final int maxConnections;
    private final Consumer<FrameChannel> handler;
    private final Duration frameDeadline;
    private final @Nullable WhenFull whenFull;
    private final AtomicInteger lingering = new AtomicInteger();
    private final java.util.concurrent.atomic.AtomicLong refused = new java.util.concurrent.atomic.AtomicLong();
    private final LoopResources loops = LoopResources.create("lomi-uds-server", 1, 2, true);
    private final ExecutorService handlers;
    private final AtomicInteger slots = new AtomicInteger();
    private final Set<FrameChannel> open = ConcurrentHashMap.newKeySet();
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile boolean serving;
    private volatile boolean bound;
    private @Nullable DisposableServer server;

    private UnixSocketServer(
            Path socket,
            int maxConnections,
            Consumer<FrameChannel> handler,
            Duration frameDeadline,
            @Nullable WhenFull whenFull) {
        this.socket = socket;
        this.maxConnections = maxConnections;
        this.handler = handler;
        this.whenFull = whenFull;
        this.frameDeadline = Frames.requirePositive(frameDeadline, "frame deadline");
        this.handlers = newPool(maxConnections);
    }

    /**
     * Binds {@code socket} (its parent directory must exist and the path must not), sets the socket file to
     * 0600 before any connection is served (connections accepted earlier are closed), and serves at most
     * {@code maxConnections} at a time: a connection beyond that is closed immediately. When the handler
     * returns (or throws, which is logged), its channel is closed.
     */
    public static UnixSocketServer bind(Path socket, int maxConnections, Consumer<FrameChannel> handler)
            throws IOException {
        return bind(socket, maxConnections, handler, Frames.FRAME_DEADLINE, null);
    }

    /** As {@link #bind(Path, int, Consumer)}; a connection over the cap is first sent {@code whenFull}'s frame. */
    public static UnixSocketServer bind(
            Path socket, int maxConnections, Consumer<FrameChannel> handler, WhenFull whenFull) throws IOException {
        return bind(socket, maxConnections, handler, Frames.FRAME_DEADLINE, whenFull);
    }

    /** As {@link #bind(Path, int, Consumer)} with another frame deadline (tests use a short one). */
    static UnixSocketServer bind(
            Path socket, int maxConnections, Consumer<FrameChannel> handler, Duration frameDeadline)
            throws IOException {
        return bind(socket, maxConnections, handler, frameDeadline, null);
    }

    private static UnixSocketServer bind(
            Path socket,
            int maxConnections,
            Consumer<FrameChannel> handler,
            Duration frameDeadline,
            @Nullable WhenFull whenFull)
            throws IOException {
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be at least 1");
        }
        requireEpoll();
        Path path = socket.toAbsolutePath();
        Path directory = path.getParent();
        if (directory == null || !Files.isDirectory(directory)) {
            throw new NoSuchFileException(String.valueOf(directory), null, "the socket's directory does not exist");
        }
        if (Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            throw new FileAlreadyExistsException(path.toString());
        }
        UnixSocketServer server = new UnixSocketServer(path, maxConnections, handler, frameDeadline, whenFull);
        server.start();
        return server;
    }

    private void start() throws IOException {
        try {
            server = TcpServer.create()
                    .bindAddress(() -> new DomainSocketAddress(socket.toString()))
                    .runOn(loops, true)
                    .doOnChannelInit((observer, channel, address) -> NettyFrameChannel.install(channel))
                    .doOnConnection(connection -> accept(connection.channel()))
                    .bindNow(SHUTDOWN_WAIT);
            bound = true;
            Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
            serving = true;
            log.info("listening on {}", socket);
        } catch (IOException | RuntimeException e) {
            close();
            Throwable cause = Exceptions.unwrap(e);
            throw cause instanceof IOException io ? io : new IOException("cannot bind " + socket + ": " + cause, cause);
        }
    }

    /** Event loop: admits the connection into a free slot and hands it to a handler thread, or closes it. */
    private void accept(Channel channel) {
        if (!serving) {
            channel.close();
            return;
        }
        int taken = slots.incrementAndGet();
        if (taken > maxConnections) {
            slots.decrementAndGet();
            refuse(channel, taken - 1);
            return;
        }
        NettyFrameChannel frames = null;
        try {
            frames = NettyFrameChannel.open(channel, frameDeadline);
            open.add(frames);
            NettyFrameChannel admitted = frames;
            handlers.execute(() -> serve(admitted));
        } catch (IOException | RuntimeException e) {
            if (frames != null) {
                open.remove(frames);
            }
            slots.decrementAndGet();
            log.warn("refused a connection: {}", e.toString());
            channel.close();
        }
    }

    /**
     * Over the cap: sends the refusal frame at once and closes the connection when the peer has read it and
     * closed, or after {@link #REFUSAL_LINGER} (a peer that writes first must not meet a closed socket).
     */
    private void refuse(Channel channel, int open) {
        refused.incrementAndGet();
        WhenFull answer = whenFull;
        if (answer == null) {
            log.warn("refused a connection: {} connections are open already", maxConnections);
            channel.close();
            return;
        }
        if (lingering.incrementAndGet() > MAX_LINGERING) {
            lingering.decrementAndGet();
            channel.close();
            return;
        }
        channel.closeFuture().addListener(closed -> lingering.decrementAndGet());
        try {
            byte[] payload = answer.refusal(open, maxConnections);
            channel.writeAndFlush(io.netty.buffer.Unpooled.wrappedBuffer(
                    io.netty.buffer.Unpooled.copyInt(payload.length), io.netty.buffer.Unpooled.wrappedBuffer(payload)));
            channel.eventLoop().schedule(() -> channel.close(), REFUSAL_LINGER.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            log.warn("cannot answer a refused connection: {}", e.toString());
            channel.close();
        }
    }

    private void serve(NettyFrameChannel frames) {
        try {
            handler.accept(frames);
        } catch (RuntimeException e) {
            log.warn("the connection handler for {} failed", frames, e);
        } finally {
            frames.close();
            open.remove(frames);
            slots.decrementAndGet();
        }
    }

    public Path socket() {
        return socket;
    }

    /** Connections admitted whose handler has not yet returned. */
    public int openConnections() {
        return slots.get();
    }

    public int maxConnections() {
        return maxConnections;
    }

    /** Connections refused because {@link #maxConnections()} were open, since the start. */
    public long refusedConnections() {
        return refused.get();
    }

    /**
     * Stops accepting, closes every connection (their blocked reads fail with CLOSED), waits up to 5 s for
     * handlers to return (then interrupts them) and deletes the socket file. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        serving = false;
        stopAccepting();
        open.forEach(FrameChannel::close);
        handlers.shutdown();
        try {
            if (!handlers.awaitTermination(SHUTDOWN_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                handlers.shutdownNow();
            }
        } catch (InterruptedException e) {
            handlers.shutdownNow();
            Thread.currentThread().interrupt();
        }
        disposeLoops();
        deleteSocketFile();
    }

    private void stopAccepting() {
        try {
            if (server != null) {
                server.disposeNow(SHUTDOWN_WAIT);
            }
        } catch (RuntimeException e) {
            log.warn("the listener on {} did not stop cleanly: {}", socket, e.toString());
        }
    }

    private void disposeLoops() {
        try {
            loops.disposeLater(Duration.ZERO, SHUTDOWN_WAIT).block(SHUTDOWN_WAIT);
        } catch (RuntimeException e) {
            log.warn("the event loops of {} did not stop cleanly: {}", socket, e.toString());
        }
    }

    private void deleteSocketFile() {
        if (!bound) {
            return; // never delete a file this server did not create
        }
        try {
            Files.deleteIfExists(socket);
        } catch (IOException e) {
            log.warn("cannot delete {}: {}", socket, e.toString());
        }
    }

    /** One thread per admitted connection, created as connections come and ended after a minute unused. */
    private static ExecutorService newPool(int threads) {
        AtomicInteger number = new AtomicInteger();
        ThreadPoolExecutor pool =
                new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), task -> {
                    Thread thread = new Thread(task, "lomi-connection-" + number.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    private static void requireEpoll() throws IOException {
        if (!LoopResources.hasNativeSupport()) {
            throw new IOException("no native transport (epoll) is available for Unix-domain sockets");
        }
    }
}
