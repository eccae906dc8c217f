package dev.lomicontrol.mcp;

import dev.lomicontrol.discovery.DiscoveryFile;
import dev.lomicontrol.discovery.DiscoveryRecord;
import dev.lomicontrol.discovery.RegistrationKey;
import dev.lomicontrol.ipc.CallRequest;
import dev.lomicontrol.ipc.CallResponse;
import dev.lomicontrol.ipc.Enrollment;
import dev.lomicontrol.ipc.Envelope;
import dev.lomicontrol.ipc.IpcJson;
import dev.lomicontrol.ipc.PairingOutcome;
import dev.lomicontrol.ipc.Welcome;
import dev.lomicontrol.transport.FrameChannel;
import dev.lomicontrol.transport.FrameException;
import dev.lomicontrol.transport.Frames;
import dev.lomicontrol.transport.PinnedTls;
import dev.lomicontrol.transport.SessionCertificate;
import dev.lomicontrol.transport.UnixSocketServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.node.ObjectNode;

/**
 * A broker that speaks the real private IPC (signed discovery, enrollment, Welcome, approval,
 * pinned mutual TLS over a Unix socket) and then misbehaves on purpose, per tool and per call:
 * answer, drop the connection after reading the call, or hang. It counts every call on arrival
 * (what reached the broker is what would have run) and every enrollment.
 */
final class MisbehavingBroker implements AutoCloseable {

    enum Action {
        ANSWER,
        DROP,
        HANG
    }

    static final Duration WAIT = Duration.ofSeconds(10);

    final Path discoveryFile;
    final String keyHex;
    final AtomicInteger enrollments = new AtomicInteger();
    final List<String> labels = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> received = new ConcurrentHashMap<>();
    private final Map<String, Queue<Action>> scripts = new ConcurrentHashMap<>();
    private final Set<FrameChannel> sessions = ConcurrentHashMap.newKeySet();
    private final CountDownLatch closing = new CountDownLatch(1);
    private final String instanceId = "f".repeat(16) + Long.toHexString(System.nanoTime() | (1L << 60));
    private final SessionCertificate certificate = SessionCertificate.generate(instanceId + ".lomi.invalid");
    private final Path runtime;
    private final UnixSocketServer server;
    volatile boolean approve = true;

    MisbehavingBroker(Path store) throws Exception {
        RegistrationKey key = RegistrationKey.loadOrCreate(store.resolve("registration-key.pk8"));
        keyHex = key.publicKeyHex();
        runtime = Files.createTempDirectory("lomi-mb");
        server = UnixSocketServer.bind(runtime.resolve("control.sock"), 8, this::serve);
        discoveryFile = store.resolve("discovery.json").toAbsolutePath();
        DiscoveryFile.publish(
                discoveryFile,
                new DiscoveryRecord(instanceId, server.socket().toString(), certificate.sha256(), IpcJson.IPC_VERSION),
                key);
    }

    /** The next calls of {@code tool} get these actions in order; later ones are answered. */
    void script(String tool, Action... actions) {
        scripts.computeIfAbsent(tool, t -> new ConcurrentLinkedQueue<>()).addAll(List.of(actions));
    }

    /** How many calls of {@code tool} reached the broker. */
    int received(String tool) {
        return received.computeIfAbsent(tool, t -> new AtomicInteger()).get();
    }

    /** Closes every authenticated connection while it is idle (the helper notices within a second, by its idle look). */
    void dropIdleSessions() {
        sessions.forEach(FrameChannel::close);
    }

    private void serve(FrameChannel channel) {
        try {
            Enrollment enrollment = IpcJson.read(channel.read(WAIT, Frames.MAX_METADATA_BYTES), Enrollment.class);
            int number = enrollments.incrementAndGet();
            labels.add(enrollment.clientLabel());
            channel.write(IpcJson.write(new Welcome(
                    IpcJson.IPC_VERSION,
                    instanceId,
                    Base64.getEncoder().encodeToString(certificate.der()),
                    "pairing-" + number)));
            if (!approve) {
                closing.await();
                return;
            }
            channel.write(IpcJson.write(new PairingOutcome(PairingOutcome.APPROVED, "approved")));
            String clientPin = SessionCertificate.sha256(
                    SessionCertificate.parse(Base64.getDecoder().decode(enrollment.certificate())));
            channel.startTls(PinnedTls.server(certificate, clientPin), WAIT);
            sessions.add(channel);
            serveCalls(channel);
        } catch (FrameException e) {
            // the helper went away or we dropped it on purpose
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            sessions.remove(channel);
        }
    }

    private void serveCalls(FrameChannel channel) throws FrameException, InterruptedException {
        while (true) {
            CallRequest call = IpcJson.read(channel.read(null, Frames.MAX_FRAME_BYTES), CallRequest.class);
            int attempt = received.computeIfAbsent(call.tool(), t -> new AtomicInteger())
                    .incrementAndGet();
            Action action = scripts.getOrDefault(call.tool(), new ConcurrentLinkedQueue<>())
                    .poll();
            if (action == Action.DROP) {
                channel.close();
                return;
            }
            if (action == Action.HANG) {
                closing.await();
                return;
            }
            channel.write(IpcJson.write(new CallResponse(call.requestId(), Envelope.ok(answer(call.tool(), attempt)))));
        }
    }

    private static ObjectNode answer(String tool, int attempt) {
        ObjectNode data = McpJson.object();
        if (tool.equals("lomi_workspace_list")) {
            data.put("kind", "workspace_list");
            data.put("domainRevision", "1");
            data.putArray("workspaces");
            data.put("hasMore", false);
        } else {
            data.put("kind", "operation");
            data.put("operationId", "0123456789abcdef0123456789abcdef01234567");
            data.put("state", "cancelled");
            data.put("effectState", "none");
        }
        data.put("attempt", attempt);
        return data;
    }

    @Override
    public void close() throws Exception {
        closing.countDown();
        server.close();
        Files.deleteIfExists(runtime);
    }
}
