package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerRuntime;
import dev.lomicontrol.core.DataDirectory;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The admin socket as a console sees it: token file, framing, strict requests, and bad frames that close only their connection. */
class AdminSocketTests extends ConsoleTestSupport {

    @Autowired
    BrokerRuntime runtime;

    @Autowired
    DataDirectory dataDirectory;

    @Test
    void theTokenFileAndSocketArePrivateAndNameThisBrokerRun() throws Exception {
        AdminToken token = token();
        assertThat(token.instanceId()).isEqualTo(runtime.instanceId());
        assertThat(token.pid()).isEqualTo(ProcessHandle.current().pid());
        assertThat(Path.of(token.socket()))
                .isEqualTo(runtime.adminSocket().orElseThrow())
                .hasParent(runtime.runtimeDirectory());
        assertThat(mode(AdminToken.file(dataDirectory.store()))).isEqualTo("rw-------");
        assertThat(mode(Path.of(token.socket()))).isEqualTo("rw-------");
        assertThat(mode(runtime.runtimeDirectory())).isEqualTo("rwx------");
        assertThat(token.token()).matches("[0-9a-f]{64}");
    }

    @Test
    void linesAndCompletionsRunOverTheSocketWithTheConsolesCwd() throws Exception {
        try (AdminClient client = AdminClient.connect(dataDirectory.root(), dataDirectory.store(), cwd, home)) {
            ConsoleResult status = client.run("status");
            assertThat(status.exitCode()).isZero();
            assertThat(status.stdout()).contains(runtime.instanceId());
            assertThat(client.complete("ledger st")).containsExactly("status");
            assertThat(client.run("ledger export over-socket.sqlite3").stdout())
                    .contains(cwd.resolve("over-socket.sqlite3").toString());
            ConsoleResult failing = client.run("pairing deny pr-0000");
            assertThat(failing.exitCode()).isEqualTo(1);
            assertThat(failing.stderr()).contains("TARGET_NOT_FOUND");
        }
    }

    @Test
    void aWrongTokenIsAnsweredWithExitTwoAndTheConnectionCloses() throws Exception {
        try (SocketChannel channel = connect()) {
            send(channel, "{\"token\":\"" + "0".repeat(64) + "\",\"line\":\"status\",\"cwd\":\"/\",\"home\":\"/\"}");
            AdminProtocol.Result result =
                    AdminProtocol.read(receive(channel).orElseThrow(), AdminProtocol.Result.class);
            assertThat(result.exitCode()).isEqualTo(2);
            assertThat(result.stderr()).contains("wrong token");
            assertThat(receive(channel)).isEmpty();
        }
    }

    @Test
    void unknownFieldsAndMissingFieldsAreRefused() throws Exception {
        String token = token().token();
        for (String request : new String[] {
            "{\"token\":\"" + token + "\",\"line\":\"status\",\"cwd\":\"/\",\"home\":\"/\",\"sudo\":true}",
            "{\"token\":\"" + token + "\",\"cwd\":\"/\",\"home\":\"/\"}",
            "{\"token\":\"" + token + "\",\"line\":\"status\",\"cwd\":\"relative\",\"home\":\"/\"}",
            "[1,2,3]"
        }) {
            try (SocketChannel channel = connect()) {
                send(channel, request);
                AdminProtocol.Result result =
                        AdminProtocol.read(receive(channel).orElseThrow(), AdminProtocol.Result.class);
                assertThat(result.exitCode()).as(request).isEqualTo(2);
                assertThat(result.stderr()).startsWith("admin socket:");
                assertThat(receive(channel)).isEmpty();
            }
        }
    }

    @Test
    void anOversizedOrTruncatedFrameClosesOnlyThatConnection() throws Exception {
        try (AdminClient survivor = AdminClient.connect(dataDirectory.root(), dataDirectory.store(), cwd, home)) {
            try (SocketChannel oversized = connect()) {
                oversized.write(ByteBuffer.allocate(4)
                        .putInt(AdminFrames.MAX_REQUEST + 1)
                        .flip());
                assertThat(receive(oversized)).isEmpty();
            }
            try (SocketChannel truncated = connect()) {
                truncated.write(ByteBuffer.allocate(6)
                        .putInt(100)
                        .put((byte) '{')
                        .put((byte) '"')
                        .flip());
                truncated.shutdownOutput();
                assertThat(receive(truncated)).isEmpty();
            }
            assertThat(survivor.run("yolo status").exitCode()).isZero();
        }
    }

    @Test
    void theClientSaysNoBrokerRunsWhenTheTokenNamesADeadSocket() throws Exception {
        Path store = Files.createDirectories(temp.resolve("other/agent-control"));
        new AdminToken(temp.resolve("gone.sock").toString(), "t", "i", Long.MAX_VALUE).write(AdminToken.file(store));

        AdminClient.NoBroker error = org.junit.jupiter.api.Assertions.assertThrows(
                AdminClient.NoBroker.class, () -> AdminClient.connect(temp.resolve("other"), store, cwd, home));
        assertThat(error.getMessage()).contains("no broker is running", "which is not running", "lomi-control serve");
    }

    private AdminToken token() throws IOException {
        return AdminToken.read(AdminToken.file(dataDirectory.store())).orElseThrow();
    }

    private SocketChannel connect() throws IOException {
        SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        channel.connect(UnixDomainSocketAddress.of(runtime.adminSocket().orElseThrow()));
        return channel;
    }

    private static void send(SocketChannel channel, String json) throws IOException {
        AdminFrames.write(channel, json.getBytes(StandardCharsets.UTF_8), AdminFrames.MAX_REQUEST);
    }

    private static Optional<byte[]> receive(SocketChannel channel) throws IOException {
        try {
            return AdminFrames.read(channel, AdminFrames.MAX_RESPONSE);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }
}
