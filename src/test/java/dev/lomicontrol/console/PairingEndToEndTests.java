package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.discovery.DiscoveryFile;
import dev.lomicontrol.discovery.DiscoveryRecord;
import dev.lomicontrol.ipc.BrokerClient;
import dev.lomicontrol.ipc.Envelope;
import dev.lomicontrol.testing.BrokerChildProcess;
import dev.lomicontrol.testing.ConsoleRun;
import dev.lomicontrol.testing.Eventually;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * Real processes end to end: a headless broker child JVM, the helper-side client in this JVM, and
 * the admin's decisions through {@code lomi-control console …} child JVMs.
 */
class PairingEndToEndTests {

    static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path temp;

    @Test
    void aClientIsApprovedThroughTheConsoleAndARestartRequiresPairingAgain() throws Exception {
        Path work = Files.createDirectories(temp.resolve("work"));
        Path discovery;
        String key;
        BrokerClient first;
        String firstEndpoint;
        try (BrokerChildProcess broker =
                BrokerChildProcess.start(temp.resolve("run1").resolve("data"))) {
            discovery = broker.data().resolve("agent-control/discovery.json");
            key = broker.discoveryKey();
            firstEndpoint = DiscoveryFile.verify(discovery, key).endpoint();
            assertThat(broker.console()
                            .in(work)
                            .run("project", "add", work.toString())
                            .exitCode())
                    .isZero();
            first = new BrokerClient(discovery, key, "e2e client");
            connectApprovingThroughTheConsole(first, broker, work);

            assertThat(Envelope.isOk(first.call("lomi_workspace_list", JSON.readTree("{}"), Duration.ofSeconds(10))
                            .envelope()))
                    .isTrue();
            assertThat(broker.console().in(work).run("session", "list").stdout())
                    .contains("e2e client");
        }
        assertThat(catchCall(first))
                .as("the old session ended with the broker")
                .isInstanceOf(BrokerClient.CallFailure.class);

        try (BrokerChildProcess restarted =
                BrokerChildProcess.start(temp.resolve("run1").resolve("data"))) {
            assertThat(restarted.discoveryKey())
                    .as("the registration key survives restarts")
                    .isEqualTo(key);
            DiscoveryRecord record = DiscoveryFile.verify(discovery, key);
            assertThat(record.endpoint()).as("a new socket per start").isNotEqualTo(firstEndpoint);
            BrokerClient again = new BrokerClient(discovery, key, "e2e client");
            CompletableFuture<BrokerClient.State> connecting =
                    CompletableFuture.supplyAsync(() -> again.connect(Duration.ofSeconds(60)));
            awaitPhase(again, BrokerClient.Phase.PAIRING_REQUIRED);
            assertThat(restarted
                            .console()
                            .in(work)
                            .run(
                                    "pairing",
                                    "deny",
                                    again.state().pairingRequestId().orElseThrow())
                            .exitCode())
                    .isZero();
            assertThat(connecting.get(30, TimeUnit.SECONDS).phase())
                    .as("denied: never connected")
                    .isEqualTo(BrokerClient.Phase.DISCONNECTED);
        }
    }

    @Test
    void malformedOversizedAndSlowFramesEndOnlyTheirOwnConnection() throws Exception {
        Path work = Files.createDirectories(temp.resolve("work"));
        try (BrokerChildProcess broker =
                BrokerChildProcess.start(temp.resolve("run").resolve("data"))) {
            Path discovery = broker.data().resolve("agent-control/discovery.json");
            String key = broker.discoveryKey();
            Path socket = Path.of(DiscoveryFile.verify(discovery, key).endpoint());
            BrokerClient client = new BrokerClient(discovery, key, "survivor");
            connectApprovingThroughTheConsole(client, broker, work);

            assertThat(closedByBroker(
                            socket,
                            ByteBuffer.allocate(4).putInt(0, 64 * 1024 * 1024).array()))
                    .as("oversized prefix")
                    .isTrue();
            assertThat(closedByBroker(socket, new byte[] {0, 0, 0, 5, '{', '"', 'x'}))
                    .as("truncated, then silence")
                    .isTrue();
            byte[] garbage = "{\"ipcVersion\":1,\"nonsense\":true}".getBytes();
            byte[] frame = ByteBuffer.allocate(4 + garbage.length)
                    .putInt(garbage.length)
                    .put(garbage)
                    .array();
            assertThat(closedByBroker(socket, frame)).as("unknown fields").isTrue();

            assertThat(Envelope.isOk(client.call("lomi_workspace_list", JSON.readTree("{}"), Duration.ofSeconds(10))
                            .envelope()))
                    .as("the paired session kept working")
                    .isTrue();
        }
    }

    private static void connectApprovingThroughTheConsole(BrokerClient client, BrokerChildProcess broker, Path work)
            throws Exception {
        CompletableFuture<BrokerClient.State> connecting =
                CompletableFuture.supplyAsync(() -> client.connect(Duration.ofSeconds(90)));
        awaitPhase(client, BrokerClient.Phase.PAIRING_REQUIRED);
        String id = client.state().pairingRequestId().orElseThrow();
        ConsoleRun.Result list = broker.console().in(work).run("pairing", "list");
        assertThat(list.stdout()).contains(id);
        ConsoleRun.Result approve = broker.console().in(work).run("pairing", "approve", id);
        assertThat(approve.exitCode()).as(approve.toString()).isZero();
        assertThat(connecting.get(60, TimeUnit.SECONDS).phase()).isEqualTo(BrokerClient.Phase.CONNECTED);
    }

    /** Sends raw bytes on a fresh connection and reports whether the broker closed it within the frame deadline plus slack. */
    private static boolean closedByBroker(Path socket, byte[] bytes) throws IOException {
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(socket));
            OutputStream out = Channels.newOutputStream(channel);
            out.write(bytes);
            out.flush();
            InputStream in = Channels.newInputStream(channel);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            CompletableFuture<Integer> read = CompletableFuture.supplyAsync(() -> {
                try {
                    while (in.read() >= 0) {
                        // drain whatever the broker says before closing
                    }
                    return -1;
                } catch (IOException e) {
                    return -1;
                }
            });
            try {
                read.get(TimeUnit.NANOSECONDS.toSeconds(deadline - System.nanoTime()), TimeUnit.SECONDS);
                return true;
            } catch (Exception e) {
                return false;
            }
        }
    }

    private static Throwable catchCall(BrokerClient client) {
        try {
            client.call("lomi_workspace_list", JSON.readTree("{}"), Duration.ofSeconds(5))
                    .envelope();
            return null;
        } catch (Throwable e) {
            return e;
        }
    }

    private static void awaitPhase(BrokerClient client, BrokerClient.Phase phase) {
        Eventually.await(
                "the client reaches " + phase,
                Duration.ofSeconds(60),
                client::state,
                state -> state.phase() == phase,
                state -> state.phase() + " (" + state.detail() + ")");
    }
}
