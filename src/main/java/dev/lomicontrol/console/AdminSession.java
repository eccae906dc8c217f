package dev.lomicontrol.console;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.security.MessageDigest;
import java.util.Objects;
import java.util.Optional;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One admin connection: peer check, then request/answer frames until the console closes it. The
 * peer must be {@code owner} (the broker's user, via SO_PEERCRED); every request must carry the
 * token (compared in constant time). A request that is malformed or has a wrong token is answered
 * with exit status 2 and ends the connection. What its commands keep for the connection's life
 * ({@link ConnectionScope}: the admin's hold on a terminal) is released when it ends, however it ends.
 */
final class AdminSession {

    private static final Logger log = LoggerFactory.getLogger(AdminSession.class);

    private final SocketChannel channel;
    private final ConsoleExecutor executor;
    private final byte[] token;
    private final ConnectionScope scope;

    AdminSession(SocketChannel channel, ConsoleExecutor executor, String token, String name) {
        this.channel = channel;
        this.executor = executor;
        this.token = token.getBytes(StandardCharsets.UTF_8);
        this.scope = new ConnectionScope(name);
    }

    void serve(UserPrincipal owner) throws IOException {
        UnixDomainPrincipal peer = channel.getOption(ExtendedSocketOptions.SO_PEERCRED);
        if (!peer.user().equals(owner)) {
            log.warn("admin socket: refused a connection from user {}", peer.user());
            return;
        }
        try {
            while (true) {
                Optional<byte[]> frame = AdminFrames.read(channel, AdminFrames.MAX_REQUEST);
                if (frame.isEmpty() || !answer(frame.get())) {
                    return;
                }
            }
        } finally {
            scope.close();
        }
    }

    /** Answers one request; false when the connection must end. */
    private boolean answer(byte[] frame) throws IOException {
        AdminProtocol.Request request;
        try {
            request = AdminProtocol.readRequest(frame);
        } catch (AdminProtocol.MalformedException e) {
            reply(new AdminProtocol.Result(ConsoleResult.USAGE, "", "admin socket: " + e.getMessage()));
            return false;
        }
        if (!MessageDigest.isEqual(token, request.token().getBytes(StandardCharsets.UTF_8))) {
            reply(new AdminProtocol.Result(
                    ConsoleResult.USAGE, "", "admin socket: wrong token (is admin.token from another broker run?)"));
            return false;
        }
        Caller caller = new Caller(Path.of(request.cwd()), Path.of(request.home()));
        if (request.line() != null) {
            ConsoleResult result = executor.run(request.line(), caller, Optional.of(scope));
            reply(new AdminProtocol.Result(result.exitCode(), result.stdout(), result.stderr()));
        } else {
            reply(new AdminProtocol.Candidates(executor.complete(
                    Objects.requireNonNull(request.complete(), "a request has a line or a buffer to complete"))));
        }
        return true;
    }

    private void reply(Object message) throws IOException {
        AdminFrames.write(channel, AdminProtocol.write(message), AdminFrames.MAX_RESPONSE);
    }
}
