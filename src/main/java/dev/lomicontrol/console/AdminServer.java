package dev.lomicontrol.console;

import dev.lomicontrol.broker.BrokerRuntime;
import dev.lomicontrol.core.DataDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The admin socket: {@code admin.sock} (0600) in the broker's private runtime directory, plus
 * {@code agent-control/admin.token} (0600) naming it with a fresh random token. A connection is
 * served only if its peer (SO_PEERCRED) is this broker's own user; each request must carry the
 * token. Requests run through {@link ConsoleExecutor}; a malformed request gets an exit-2 answer
 * and its connection is closed, an unreadable frame just closes it — never the broker. Stopping
 * closes the socket and every connection and removes the token file if it still names this run.
 */
@Component
class AdminServer implements SmartLifecycle {

    static final String SOCKET = "admin.sock";
    private static final Logger log = LoggerFactory.getLogger(AdminServer.class);

    private final ConsoleProperties properties;
    private final BrokerRuntime runtime;
    private final DataDirectory dataDirectory;
    private final ConsoleExecutor executor;
    private final Set<SocketChannel> connections = ConcurrentHashMap.newKeySet();
    private final java.util.concurrent.atomic.AtomicLong served = new java.util.concurrent.atomic.AtomicLong();
    private volatile @Nullable ServerSocketChannel server;
    private volatile @Nullable Semaphore slots;

    AdminServer(
            ConsoleProperties properties,
            BrokerRuntime runtime,
            DataDirectory dataDirectory,
            ConsoleExecutor executor) {
        this.properties = properties;
        this.runtime = runtime;
        this.dataDirectory = dataDirectory;
        this.executor = executor;
    }

    @Override
    public void start() {
        if (!properties.adminSocket()) {
            return;
        }
        Path socket = runtime.runtimeDirectory().resolve(SOCKET);
        try {
            ServerSocketChannel channel = bind(socket);
            UserPrincipal owner = Files.getOwner(socket, LinkOption.NOFOLLOW_LINKS);
            String token = randomToken();
            new AdminToken(
                            socket.toString(),
                            token,
                            runtime.instanceId(),
                            ProcessHandle.current().pid())
                    .write(tokenFile());
            slots = new Semaphore(properties.maxConnections());
            server = channel;
            runtime.adminEndpoint(socket);
            Thread acceptor = new Thread(() -> accept(channel, owner, token), "admin-accept");
            acceptor.setDaemon(true);
            acceptor.start();
            log.info("admin socket {} (token in {})", socket, tokenFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the admin socket " + socket, e);
        }
    }

    /** A listening socket at {@code path} (a stale file there is replaced), mode 0600 inside the 0700 runtime directory. */
    private static ServerSocketChannel bind(Path path) throws IOException {
        Files.deleteIfExists(path);
        ServerSocketChannel channel = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            channel.bind(UnixDomainSocketAddress.of(path), 16);
            Files.setPosixFilePermissions(path, AtomicFiles.PRIVATE);
            return channel;
        } catch (IOException e) {
            channel.close();
            throw e;
        }
    }

    @Override
    public void stop() {
        ServerSocketChannel running = server;
        server = null;
        if (running == null) {
            return;
        }
        close(running);
        connections.forEach(AdminServer::close);
        AdminToken.removeIfOwned(tokenFile(), runtime.instanceId());
        runtime.adminSocket().ifPresent(socket -> {
            try {
                Files.deleteIfExists(socket);
            } catch (IOException e) {
                log.debug("cannot remove {}", socket, e);
            }
        });
    }

    @Override
    public boolean isRunning() {
        return server != null;
    }

    private Path tokenFile() {
        return AdminToken.file(dataDirectory.store());
    }

    private void accept(ServerSocketChannel channel, UserPrincipal owner, String token) {
        while (server == channel) {
            try {
                SocketChannel connection = channel.accept();
                if (!slots().tryAcquire()) {
                    log.warn(
                            "admin socket: {} connections already open; refusing another", properties.maxConnections());
                    close(connection);
                    continue;
                }
                connections.add(connection);
                String name = "admin console connection " + served.incrementAndGet();
                Thread worker = new Thread(() -> serve(connection, owner, token, name), "admin-connection");
                worker.setDaemon(true);
                worker.start();
            } catch (IOException e) {
                if (server == channel) {
                    log.warn("admin socket accept failed: {}", e.getMessage());
                }
            }
        }
    }

    /** The connection slots of the running socket: set by start before the first accept. */
    private Semaphore slots() {
        return Objects.requireNonNull(slots, "the admin socket is started");
    }

    private void serve(SocketChannel connection, UserPrincipal owner, String token, String name) {
        try (connection) {
            new AdminSession(connection, executor, token, name).serve(owner);
        } catch (IOException e) {
            log.debug("admin connection closed: {}", e.getMessage());
        } finally {
            connections.remove(connection);
            slots().release();
        }
    }

    private static String randomToken() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    private static void close(java.io.Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException e) {
            log.debug("close failed", e);
        }
    }
}
