package dev.lomicontrol.console;

import java.io.Closeable;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import jdk.net.ExtendedSocketOptions;
import org.jspecify.annotations.Nullable;

/**
 * The console client's connection to a running broker's admin socket (no Spring): finds it through
 * {@code agent-control/admin.token}, checks that the socket's peer is this user, and sends lines
 * and completion requests with the token, the console's cwd and home.
 */
final class AdminClient implements Closeable {

    /** No usable broker for this data directory; the message says why and what to do. */
    static final class NoBroker extends Exception {
        private static final long serialVersionUID = 1L;

        NoBroker(String message) {
            super(message);
        }
    }

    private final SocketChannel channel;
    private final AdminToken token;
    private final Path cwd;
    private final Path home;

    private AdminClient(SocketChannel channel, AdminToken token, Path cwd, Path home) {
        this.channel = channel;
        this.token = token;
        this.cwd = cwd;
        this.home = home;
    }

    static AdminClient connect(Path dataDirectory, Path store, Path cwd, Path home) throws NoBroker {
        Path file = AdminToken.file(store);
        Optional<AdminToken> token;
        try {
            token = AdminToken.read(file);
        } catch (IOException e) {
            throw new NoBroker("cannot use " + file + ": " + e.getMessage());
        }
        if (token.isEmpty()) {
            throw new NoBroker("no broker is running for data directory " + dataDirectory + " (no " + file
                    + "); start one with: lomi-control serve");
        }
        @Nullable SocketChannel channel = null;
        try {
            channel = SocketChannel.open(StandardProtocolFamily.UNIX);
            channel.connect(UnixDomainSocketAddress.of(token.get().socket()));
            if (!channel.getOption(ExtendedSocketOptions.SO_PEERCRED).user().equals(LocalUser.current())) {
                throw new IOException("the socket's peer is another user");
            }
            return new AdminClient(channel, token.get(), cwd, home);
        } catch (IOException | RuntimeException e) {
            closeQuietly(channel);
            boolean alive = ProcessHandle.of(token.get().pid())
                    .map(ProcessHandle::isAlive)
                    .orElse(false);
            throw new NoBroker("no broker is running for data directory " + dataDirectory + ": " + file + " names pid "
                    + token.get().pid()
                    + (alive ? ", which does not answer on " : ", which is not running; its socket was ")
                    + token.get().socket() + " (" + e.getMessage()
                    + "); start one with: lomi-control serve");
        }
    }

    ConsoleResult run(String line) throws IOException {
        send(AdminProtocol.Request.run(token.token(), line, cwd.toString(), home.toString()));
        AdminProtocol.Result result = receive(AdminProtocol.Result.class);
        return new ConsoleResult(result.exitCode(), result.stdout(), result.stderr());
    }

    List<String> complete(String buffer) throws IOException {
        send(AdminProtocol.Request.complete(token.token(), buffer, cwd.toString(), home.toString()));
        AdminProtocol.Candidates candidates = receive(AdminProtocol.Candidates.class);
        return candidates.candidates() == null ? List.of() : candidates.candidates();
    }

    @Override
    public void close() {
        closeQuietly(channel);
    }

    private void send(AdminProtocol.Request request) throws IOException {
        AdminFrames.write(channel, AdminProtocol.write(request), AdminFrames.MAX_REQUEST);
    }

    private <T> T receive(Class<T> type) throws IOException {
        byte[] frame = AdminFrames.read(channel, AdminFrames.MAX_RESPONSE)
                .orElseThrow(() -> new IOException("the broker closed the connection"));
        try {
            return AdminProtocol.read(frame, type);
        } catch (AdminProtocol.MalformedException e) {
            if (type != AdminProtocol.Result.class) {
                AdminProtocol.Result refusal = readResult(frame);
                throw new IOException(refusal.stderr());
            }
            throw new IOException("unexpected answer from the broker: " + e.getMessage(), e);
        }
    }

    private static AdminProtocol.Result readResult(byte[] frame) throws IOException {
        try {
            return AdminProtocol.read(frame, AdminProtocol.Result.class);
        } catch (AdminProtocol.MalformedException e) {
            throw new IOException("unexpected answer from the broker: " + e.getMessage(), e);
        }
    }

    private static void closeQuietly(@Nullable SocketChannel channel) {
        try {
            if (channel != null) {
                channel.close();
            }
        } catch (IOException e) {
            // nothing more to release
        }
    }
}
