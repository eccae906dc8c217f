package dev.lomicontrol.broker;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.BrokerApplication;
import dev.lomicontrol.discovery.DiscoveryFile;
import dev.lomicontrol.discovery.DiscoveryRecord;
import dev.lomicontrol.discovery.RegistrationKey;
import dev.lomicontrol.ipc.BrokerClient;
import dev.lomicontrol.ipc.CallRequest;
import dev.lomicontrol.ipc.Enrollment;
import dev.lomicontrol.ipc.Envelope;
import dev.lomicontrol.ipc.IpcJson;
import dev.lomicontrol.ipc.PairingOutcome;
import dev.lomicontrol.ipc.Welcome;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.pairing.PairingRequest;
import dev.lomicontrol.pairing.Pairings;
import dev.lomicontrol.pairing.Sessions;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.testing.Eventually;
import dev.lomicontrol.testing.Machine;
import dev.lomicontrol.transport.FrameChannel;
import dev.lomicontrol.transport.FrameException;
import dev.lomicontrol.transport.PinnedTls;
import dev.lomicontrol.transport.SessionCertificate;
import dev.lomicontrol.transport.UnixSocketClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import tools.jackson.databind.json.JsonMapper;

/**
 * Attack suite against a real broker (in-process Spring context, real Unix socket, real mutual
 * TLS): calls without pairing, calls smuggled in plaintext around an approval, a recorded genuine
 * session replayed byte for byte, and a connection from another OS user. None of them opens a
 * session, serves a call or writes a receipt.
 */
@SpringBootTest(
        classes = BrokerApplication.class,
        properties = "lomi.data-dir=${java.io.tmpdir}/lomi-attack-pairing-${random.uuid}")
@DirtiesContext
class AttackPairingTests {

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final Duration WAIT = Duration.ofSeconds(15);

    @Autowired
    BrokerRuntime runtime;

    @Autowired
    Pairings pairings;

    @Autowired
    Sessions sessions;

    @Autowired
    Projects projects;

    @Autowired
    Ledger ledger;

    @TempDir
    Path temp;

    @AfterEach
    void cleanUp() {
        pairings.pending().forEach(p -> pairings.deny(p.id()));
        sessions.revokeAll("test finished");
    }

    @Test
    void aCallSentAsTheFirstFrameWithoutPairingIsRefusedAndRunsNothing() throws Exception {
        long receipts = ledger.maintenance().status().receipts();
        byte[] call = IpcJson.write(new CallRequest(1, "r-1", "lomi_workspace_list", JSON.readTree("{}")));

        try (SocketChannel channel = connect(socket())) {
            write(channel, frame(call));
            byte[] answer = readUntilClosed(channel);
            assertThat(new String(answer, UTF_8))
                    .as("at most a refusal, never a result")
                    .doesNotContain("workspaces")
                    .doesNotContain("\"ok\"");
        }

        assertThat(pairings.pending()).isEmpty();
        assertThat(sessions.list()).isEmpty();
        assertThat(ledger.maintenance().status().receipts()).isEqualTo(receipts);
    }

    @Test
    void plaintextCallsSentAroundAnApprovalNeverReachTheBroker() throws Exception {
        projects.add(Files.createDirectories(temp.resolve("project")).toRealPath(), Optional.of("attack"));
        SessionCertificate certificate = SessionCertificate.generate("helper.lomi.invalid");
        byte[] call = IpcJson.write(new CallRequest(1, "r-1", "lomi_workspace_list", JSON.readTree("{}")));

        try (SocketChannel channel = connect(socket())) {
            write(channel, frame(enrollment(certificate)));
            PairingRequest request = awaitPending();
            write(channel, frame(call)); // while the request waits for the admin
            AttackCalls.approveAsAsked(pairings, projects, request.id());
            // after the approval, instead of TLS; the broker may already have closed the connection on the first
            // plaintext call, and then this write fails with a broken pipe: refused all the same
            writeUnlessClosed(channel, frame(call));

            assertNoSessionUntilClosed(channel);
        }
        assertThat(ledger.maintenance().status().receipts()).isZero();
    }

    @Test
    void aRecordedGenuineSessionReplayedByteForByteOpensNoSessionEvenWhenTheAdminApprovesTheReplay() throws Exception {
        projects.add(Files.createDirectories(temp.resolve("replayed")).toRealPath(), Optional.of("replayed"));
        Path relayDir = Files.createDirectory(
                temp.resolve("relay"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        byte[] recorded;
        try (Relay relay = new Relay(relayDir.resolve("relay.sock"), socket())) {
            Path discovery = discoveryThrough(relay.socket);
            BrokerClient genuine =
                    new BrokerClient(discovery, runtime.registrationKeyHex().orElseThrow(), "genuine client");
            CompletableFuture<BrokerClient.State> connecting =
                    CompletableFuture.supplyAsync(() -> genuine.connect(Duration.ofSeconds(60)));
            AttackCalls.approveAsAsked(pairings, projects, awaitPending().id());
            assertThat(connecting.get(30, TimeUnit.SECONDS).phase()).isEqualTo(BrokerClient.Phase.CONNECTED);
            assertThat(Envelope.isOk(genuine.call("lomi_workspace_list", JSON.readTree("{}"), Duration.ofSeconds(10))
                            .envelope()))
                    .isTrue();
            genuine.close();
            recorded = relay.recordedAfterClose(WAIT);
        }
        awaitNoSessions();
        assertThat(recorded.length).as("enrollment plus a whole TLS session").isGreaterThan(1000);

        try (SocketChannel replay = connect(socket())) {
            write(replay, recorded);
            PairingRequest replayed = awaitPending();
            assertThat(replayed.clientLabel()).isEqualTo("genuine client");
            AttackCalls.approveAsAsked(pairings, projects, replayed.id());

            assertNoSessionUntilClosed(replay);
        }
    }

    @Test
    void aPairedCallFrameWithAnUnknownFieldEndsTheConnectionAndRunsNothing() throws Exception {
        Project project =
                projects.add(Files.createDirectories(temp.resolve("framed")).toRealPath(), Optional.of("framed"));
        SessionCertificate own = SessionCertificate.generate("helper.lomi.invalid");
        try (FrameChannel channel = UnixSocketClient.connect(socket(), WAIT)) {
            channel.write(enrollment(own));
            Welcome welcome = IpcJson.read(channel.read(WAIT, 64 * 1024), Welcome.class);
            AttackCalls.approveAsAsked(pairings, projects, welcome.pairingRequestId());
            assertThat(IpcJson.read(channel.read(WAIT, 64 * 1024), PairingOutcome.class)
                            .outcome())
                    .isEqualTo(PairingOutcome.APPROVED);
            DiscoveryRecord record = DiscoveryFile.verify(
                    runtime.discoveryFile().orElseThrow(),
                    runtime.registrationKeyHex().orElseThrow());
            channel.startTls(PinnedTls.client(own, record.brokerSha256()), WAIT);
            String workspace = project.workspaces().get(0).id().value();
            channel.write(IpcJson.write(new CallRequest(
                    1, "r-1", "lomi_connect", JSON.readTree("{\"workspaceId\":\"" + workspace + "\"}"))));
            String epoch = JSON.readTree(channel.read(WAIT, 8 * 1024 * 1024))
                    .at("/result/data/retryEpoch")
                    .asString();
            assertThat(epoch).hasSize(40);
            long receipts = ledger.maintenance().status().receipts();
            String revision = Long.toString(projects.revision());
            String directory = JSON.readTree(
                            call(channel, "r-2", "lomi_files_list", "{\"workspaceId\":\"" + workspace + "\"}"))
                    .at("/result/data/directoryRevision")
                    .asString();

            // a well-formed create, in a frame that carries one field the IPC message does not have
            String create = "{\"workspaceId\":\"" + workspace + "\",\"expectedRevision\":\"" + revision
                    + "\",\"retryEpoch\":\"" + epoch
                    + "\",\"requestKey\":\"smuggled\",\"operation\":{\"type\":\"create\",\"relativePath\":\"smuggled.txt\",\"kind\":\"file\","
                    + "\"expectedParentRevision\":\"" + directory + "\"}}";
            channel.write(("{\"ipcVersion\":1,\"requestId\":\"r-3\",\"tool\":\"lomi_files_mutate\",\"arguments\":"
                            + create + ",\"sudo\":true}")
                    .getBytes(UTF_8));

            assertThat(closedWithin(channel, WAIT))
                    .as("the broker ends the connection")
                    .isTrue();
            assertThat(project.root().resolve("smuggled.txt")).doesNotExist();
            assertThat(ledger.maintenance().status().receipts()).isEqualTo(receipts);
        }
        awaitNoSessions();
    }

    @Test
    void anotherOsUserCannotReachTheSocketNorEnrollWhenTheDirectoryIsOpened() throws Exception {
        Machine.assumeRoot("connecting as another OS user (setpriv) needs root");
        Machine.requireProgram("/usr/bin/setpriv", "util-linux");
        Machine.requireProgram("/usr/bin/perl", "perl-base");
        String enrollment = new String(enrollment(SessionCertificate.generate("helper.lomi.invalid")), UTF_8);
        Path socket = socket();

        assertThat(asNobody(socket, enrollment))
                .as("the private 0700 runtime directory keeps other users out")
                .isEqualTo(3);

        var directoryMode = Files.getPosixFilePermissions(socket.getParent());
        var socketMode = Files.getPosixFilePermissions(socket);
        try {
            // a misconfigured host: the directory and socket opened to everyone; the broker's own uid check must still
            // refuse
            Files.setPosixFilePermissions(socket.getParent(), PosixFilePermissions.fromString("rwx--x--x"));
            Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-rw-rw-"));
            assertThat(asNobody(socket, enrollment))
                    .as("connected, then closed without a Welcome")
                    .isZero();
        } finally {
            Files.setPosixFilePermissions(socket.getParent(), directoryMode);
            Files.setPosixFilePermissions(socket, socketMode);
        }
        assertThat(pairings.pending()).isEmpty();
        assertThat(sessions.list()).isEmpty();
    }

    // --- helpers

    private static String call(FrameChannel channel, String requestId, String tool, String arguments) throws Exception {
        channel.write(IpcJson.write(new CallRequest(1, requestId, tool, JSON.readTree(arguments))));
        return new String(channel.read(WAIT, 8 * 1024 * 1024), UTF_8);
    }

    private static boolean closedWithin(FrameChannel channel, Duration within) {
        try {
            channel.read(within, 8 * 1024 * 1024);
            return false;
        } catch (FrameException e) {
            return e.reason() != FrameException.Reason.DEADLINE;
        }
    }

    private Path socket() {
        return runtime.controlSocket().orElseThrow();
    }

    private byte[] enrollment(SessionCertificate certificate) {
        return IpcJson.write(new Enrollment(
                IpcJson.IPC_VERSION,
                runtime.instanceId(),
                "attacker",
                Base64.getEncoder().encodeToString(certificate.der())));
    }

    /** A discovery record for this broker that names {@code endpoint}, signed with the broker's own registration key. */
    private Path discoveryThrough(Path endpoint) throws Exception {
        Path real = runtime.discoveryFile().orElseThrow();
        DiscoveryRecord record =
                DiscoveryFile.verify(real, runtime.registrationKeyHex().orElseThrow());
        Path dir = Files.createDirectory(
                temp.resolve("discovery"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path copy = dir.resolve("discovery.json");
        DiscoveryFile.publish(
                copy,
                new DiscoveryRecord(
                        record.instanceId(), endpoint.toString(), record.brokerSha256(), record.ipcVersion()),
                RegistrationKey.loadOrCreate(real.resolveSibling(ControlEndpoint.REGISTRATION_KEY)));
        return copy;
    }

    /** Runs a tiny client as uid/gid 65534: exit 3 = could not connect, 0 = closed without an answer, 4 = the broker answered. */
    private static int asNobody(Path socket, String enrollment) throws Exception {
        String script =
                "use IO::Socket::UNIX; $SIG{PIPE} = 'IGNORE'; my $s = IO::Socket::UNIX->new(Type => SOCK_STREAM(), Peer => $ARGV[0]) or exit 3;"
                        + " print $s pack('N', length $ARGV[1]) . $ARGV[1]; my $b; my $n = sysread($s, $b, 65536); exit(defined $n && $n > 0 ? 4 : 0);";
        Process process = new ProcessBuilder(
                        "/usr/bin/setpriv",
                        "--reuid=65534",
                        "--regid=65534",
                        "--clear-groups",
                        "/usr/bin/perl",
                        "-e",
                        script,
                        socket.toString(),
                        enrollment)
                .redirectErrorStream(true)
                .start();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return process.exitValue();
    }

    private PairingRequest awaitPending() {
        return Eventually.await("a pairing request arrives", WAIT, pairings::pending, pending -> !pending.isEmpty())
                .get(0);
    }

    private void awaitNoSessions() {
        Eventually.await("every session has ended", WAIT, sessions::list, List::isEmpty);
    }

    /** Watches until the broker closes the connection: no session may exist at any moment meanwhile. */
    private void assertNoSessionUntilClosed(SocketChannel channel) throws Exception {
        channel.configureBlocking(false);
        ByteBuffer sink = ByteBuffer.allocate(64 * 1024);
        Eventually.until("the broker closes the connection", WAIT, () -> {
            assertThat(sessions.list()).as("a session was opened").isEmpty();
            sink.clear();
            try {
                return channel.read(sink) < 0;
            } catch (IOException reset) {
                return true;
            }
        });
        assertThat(sessions.list()).isEmpty();
    }

    private static SocketChannel connect(Path socket) throws IOException {
        SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        channel.connect(UnixDomainSocketAddress.of(socket));
        return channel;
    }

    private static byte[] frame(byte[] payload) {
        return ByteBuffer.allocate(4 + payload.length)
                .putInt(payload.length)
                .put(payload)
                .array();
    }

    private static void write(SocketChannel channel, byte[] bytes) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    /** Writes {@code bytes} unless the peer has closed the connection (a broken pipe or reset): false then. */
    private static boolean writeUnlessClosed(SocketChannel channel, byte[] bytes) {
        try {
            write(channel, bytes);
            return true;
        } catch (IOException closedByThePeer) {
            return false;
        }
    }

    private static byte[] readUntilClosed(SocketChannel channel) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
        channel.configureBlocking(false);
        Eventually.until(
                "the broker closes an unpaired connection",
                WAIT,
                () -> {
                    buffer.clear();
                    int read;
                    try {
                        read = channel.read(buffer);
                    } catch (IOException reset) {
                        return true;
                    }
                    if (read > 0) {
                        out.write(buffer.array(), 0, read);
                    }
                    return read < 0;
                },
                () -> out.size() + " bytes read so far");
        return out.toByteArray();
    }

    /** A Unix-socket relay to the broker for one connection that records every byte the client sent. */
    static final class Relay implements AutoCloseable {

        final Path socket;
        private final ServerSocketChannel server;
        private final ByteArrayOutputStream clientBytes = new ByteArrayOutputStream();
        private final CompletableFuture<Void> finished = new CompletableFuture<>();

        Relay(Path socket, Path target) throws IOException {
            this.socket = socket;
            server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            server.bind(UnixDomainSocketAddress.of(socket));
            Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
            Thread acceptor = new Thread(() -> relayOne(target), "attack-relay");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        private void relayOne(Path target) {
            try (SocketChannel client = server.accept();
                    SocketChannel broker = connect(target)) {
                Thread back = new Thread(() -> copy(broker, client, null), "attack-relay-back");
                back.setDaemon(true);
                back.start();
                copy(client, broker, clientBytes);
                back.join(WAIT.toMillis());
            } catch (IOException e) {
                // the relay ends with its connection
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                finished.complete(null);
            }
        }

        private static void copy(SocketChannel from, SocketChannel to, ByteArrayOutputStream record) {
            ByteBuffer buffer = ByteBuffer.allocate(16 * 1024);
            try {
                while (from.read(buffer) >= 0) {
                    buffer.flip();
                    if (record != null) {
                        synchronized (record) {
                            record.write(buffer.array(), 0, buffer.limit());
                        }
                    }
                    while (buffer.hasRemaining()) {
                        to.write(buffer);
                    }
                    buffer.clear();
                }
                to.shutdownOutput();
            } catch (IOException e) {
                // one side closed
            }
        }

        byte[] recordedAfterClose(Duration within) throws Exception {
            finished.get(within.toMillis(), TimeUnit.MILLISECONDS);
            synchronized (clientBytes) {
                return clientBytes.toByteArray();
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
