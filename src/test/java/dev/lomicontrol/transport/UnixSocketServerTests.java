package dev.lomicontrol.transport;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.testing.Eventually;
import dev.lomicontrol.transport.FrameException.Reason;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The listening side: socket file, peer credentials, connection cap, handler isolation and shutdown. */
class UnixSocketServerTests {

    static final Duration WAIT = Duration.ofSeconds(5);

    @TempDir
    Path dir;

    static void echo(FrameChannel channel) {
        try {
            while (true) {
                channel.write(channel.read(null, 1024));
            }
        } catch (FrameException e) {
            // connection over
        }
    }

    static void assertRoundTrip(FrameChannel client, String text) throws FrameException {
        client.write(text.getBytes(UTF_8));
        assertThat(client.read(WAIT, 1024)).asString(UTF_8).isEqualTo(text);
    }

    @Test
    void theSocketFileIsAPrivateSocketOfItsOwner() throws Exception {
        try (UnixSocketServer server =
                UnixSocketServer.bind(dir.resolve("control.sock"), 1, UnixSocketServerTests::echo)) {
            assertThat(Files.getPosixFilePermissions(server.socket(), LinkOption.NOFOLLOW_LINKS))
                    .isEqualTo(PosixFilePermissions.fromString("rw-------"));
            assertThat(Files.isRegularFile(server.socket(), LinkOption.NOFOLLOW_LINKS))
                    .isFalse();
            assertThat(Files.getAttribute(server.socket(), "unix:mode", LinkOption.NOFOLLOW_LINKS))
                    .as("S_IFSOCK with 0600")
                    .isEqualTo(0140600);
        }
    }

    @Test
    void theServerSeesOurUidAndTheClientsPidAndTheClientSeesThatTheServerIsOurUser() throws Exception {
        BlockingQueue<PeerCredentials> seen = new LinkedBlockingQueue<>();
        long ourUid = ((Number) Files.getAttribute(dir, "unix:uid")).longValue();
        long ourPid = ProcessHandle.current().pid();
        try (UnixSocketServer server =
                        UnixSocketServer.bind(dir.resolve("control.sock"), 1, channel -> seen.add(channel.peer()));
                FrameChannel client = UnixSocketClient.connect(server.socket(), WAIT)) {
            assertThat(seen.poll(5, TimeUnit.SECONDS)).isEqualTo(new PeerCredentials(ourUid, ourPid));
            assertThat(client.peer())
                    .as("the client (the JDK's SO_PEERCRED) sees the server's user, not its pid")
                    .isEqualTo(new PeerCredentials(ourUid, PeerCredentials.UNKNOWN));
        }
    }

    @Test
    void theConnectionBeyondMaxConnectionsIsClosedWhileTheFirstOnesWork() throws Exception {
        List<FrameChannel> clients = new ArrayList<>();
        try (UnixSocketServer server =
                UnixSocketServer.bind(dir.resolve("control.sock"), 2, UnixSocketServerTests::echo)) {
            for (int i = 0; i < 2; i++) {
                clients.add(UnixSocketClient.connect(server.socket(), WAIT));
                assertRoundTrip(clients.get(i), "client " + i);
            }
            try (FrameChannel extra = UnixSocketClient.connect(server.socket(), WAIT)) {
                assertThatThrownBy(() -> extra.read(WAIT, 1024))
                        .isInstanceOfSatisfying(
                                FrameException.class,
                                e -> assertThat(e.reason()).isEqualTo(Reason.CLOSED));
            }
            assertThat(server.openConnections()).isEqualTo(2);
            assertRoundTrip(clients.get(0), "still served");
            assertRoundTrip(clients.get(1), "still served");
            clients.get(0).close();
            awaitOpenConnections(server, 1);
            try (FrameChannel replacement = UnixSocketClient.connect(server.socket(), WAIT)) {
                assertRoundTrip(replacement, "a freed slot is reused");
            }
        } finally {
            clients.forEach(FrameChannel::close);
        }
    }

    /**
     * Over the cap the peer is answered, not hung up on: it may write first (as the helper writes its enrollment)
     * and still read the refusal frame, which carries the count and the cap.
     */
    @Test
    void theConnectionBeyondTheCapReadsTheRefusalFrameEvenAfterWritingFirst() throws Exception {
        try (UnixSocketServer server = UnixSocketServer.bind(
                        dir.resolve("control.sock"),
                        1,
                        UnixSocketServerTests::echo,
                        (open, max) -> ("full " + open + "/" + max).getBytes(UTF_8));
                FrameChannel first = UnixSocketClient.connect(server.socket(), WAIT)) {
            assertRoundTrip(first, "holds the slot");
            for (int attempt = 1; attempt <= 3; attempt++) {
                try (FrameChannel extra = UnixSocketClient.connect(server.socket(), WAIT)) {
                    extra.write("enrollment".getBytes(UTF_8));
                    assertThat(extra.read(WAIT, 1024)).asString(UTF_8).isEqualTo("full 1/1");
                }
                assertThat(server.refusedConnections()).isEqualTo(attempt);
            }
            assertThat(server.openConnections()).isEqualTo(1);
            assertThat(server.maxConnections()).isEqualTo(1);
            assertRoundTrip(first, "still served");
        }
    }

    @Test
    void aHandlerThatThrowsClosesOnlyItsOwnConnection() throws Exception {
        try (UnixSocketServer server = UnixSocketServer.bind(dir.resolve("control.sock"), 2, channel -> {
                    try {
                        if (new String(channel.read(null, 1024), UTF_8).equals("boom")) {
                            throw new IllegalStateException("handler bug");
                        }
                        echo(channel);
                    } catch (FrameException e) {
                        // connection over
                    }
                });
                FrameChannel victim = UnixSocketClient.connect(server.socket(), WAIT);
                FrameChannel bystander = UnixSocketClient.connect(server.socket(), WAIT)) {
            bystander.write("hello".getBytes(UTF_8));
            victim.write("boom".getBytes(UTF_8));
            assertThatThrownBy(() -> victim.read(WAIT, 1024)).isInstanceOf(FrameException.class);
            assertRoundTrip(bystander, "unaffected");
        }
    }

    @Test
    void closeStopsServingClosesConnectionsAndDeletesTheSocketFile() throws Exception {
        UnixSocketServer server = UnixSocketServer.bind(dir.resolve("control.sock"), 2, UnixSocketServerTests::echo);
        try (FrameChannel client = UnixSocketClient.connect(server.socket(), WAIT)) {
            assertRoundTrip(client, "before");
            server.close();
            assertThat(Files.exists(server.socket(), LinkOption.NOFOLLOW_LINKS)).isFalse();
            assertThatThrownBy(() -> client.read(WAIT, 1024)).isInstanceOf(FrameException.class);
            assertThatThrownBy(() -> UnixSocketClient.connect(server.socket(), WAIT))
                    .isInstanceOf(IOException.class);
        }
    }

    @Test
    void bindRefusesAPathThatExistsAndLeavesItAlone() throws Exception {
        Path taken = Files.writeString(dir.resolve("control.sock"), "not ours");
        assertThatThrownBy(() -> UnixSocketServer.bind(taken, 1, UnixSocketServerTests::echo))
                .isInstanceOf(FileAlreadyExistsException.class);
        assertThat(Files.readString(taken)).isEqualTo("not ours");
    }

    private static void awaitOpenConnections(UnixSocketServer server, int expected) {
        Eventually.await(expected + " open connections", WAIT, server::openConnections, open -> open == expected);
    }
}
