package dev.lomicontrol.proof.fuzz;

import dev.lomicontrol.discovery.DiscoveryRecord;
import dev.lomicontrol.ipc.CallResponse;
import dev.lomicontrol.ipc.Enrollment;
import dev.lomicontrol.ipc.IpcJson;
import dev.lomicontrol.ipc.PairingOutcome;
import dev.lomicontrol.ipc.Welcome;
import dev.lomicontrol.testing.WireFrames;
import dev.lomicontrol.transport.SessionCertificate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Random;

/**
 * Seeded hostile connections to the broker's control socket, one per {@link #connection()} call.
 * Before TLS: garbage instead of the enrollment, bad or oversized length prefixes, truncated
 * frames, malformed enrollments, a TLS ClientHello where the plaintext enrollment belongs, and
 * garbage instead of the ClientHello after a genuine enrollment. After a genuine enrollment,
 * YOLO approval and mutual TLS (as the helper does it): well-formed calls with mutated arguments
 * (each must be answered), then random bodies, bad prefixes, truncated and pipelined frames,
 * malformed calls, or forged TLS records. Every connection the broker must end, it must end
 * promptly; a well-formed call it must answer.
 */
final class HostileFrames {

    static final Duration CLOSE_WAIT = Duration.ofSeconds(15);
    static final Duration CALL_WAIT = Duration.ofSeconds(35);
    static final Duration STEP = Duration.ofSeconds(10);
    static final byte[] CONFIRMATION = "lomi-tls-accepted/1".getBytes(StandardCharsets.US_ASCII);
    static final int METADATA_BYTES = 64 * 1024;
    static final int FRAME_BYTES = 8 * 1024 * 1024;
    /** Every this many connections one sends a frame of exactly the 8 MiB limit inside TLS. */
    static final int FULL_FRAME_EVERY = 250;

    private static final int[] BAD_PREFIXES = {
        0, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 16 * 1024 + 1, METADATA_BYTES + 1, FRAME_BYTES, FRAME_BYTES + 1
    };

    /** What the runs add up to; {@code failures} must stay empty. */
    static final class Tally {
        long frames;
        long connections;
        long beforeTls;
        long afterTls;
        long callsAnswered;
        long closedAsExpected;
        final java.util.List<String> failures = new java.util.ArrayList<>();
        /** Per kind of connection: how many, and the nanoseconds they took together. */
        final java.util.Map<String, long[]> kinds = new java.util.TreeMap<>();

        void fail(String failure) {
            if (failures.size() < 50) {
                failures.add(failure);
            }
        }
    }

    private final Random random;
    private final DiscoveryRecord broker;
    private final List<HostileLines.Tool> tools;
    private final MutatedArguments arguments;
    private final Tally tally;
    private long requests;
    private String kind = "other";

    HostileFrames(
            Random random,
            DiscoveryRecord broker,
            List<HostileLines.Tool> tools,
            MutatedArguments arguments,
            Tally tally) {
        this.random = random;
        this.broker = broker;
        this.tools = List.copyOf(tools);
        this.arguments = arguments;
        this.tally = tally;
    }

    /** Opens one connection and misbehaves on it in one of the ways above. */
    void connection() throws Exception {
        tally.connections++;
        long started = System.nanoTime();
        kind = "other";
        boolean before = random.nextInt(3) == 0;
        try (RawSocket socket = RawSocket.connect(Path.of(broker.endpoint()))) {
            if (before) {
                tally.beforeTls++;
                beforeTls(socket);
            } else {
                tally.afterTls++;
                afterTls(socket);
            }
        } catch (IOException | RuntimeException e) {
            // a genuine enrollment, handshake or call that the broker did not carry through
            tally.fail("connection " + tally.connections + " (" + (before ? "before" : "after") + " TLS, " + kind
                    + ") broke on the client side: " + e);
        }
        long[] totals = tally.kinds.computeIfAbsent(kind, name -> new long[2]);
        totals[0]++;
        totals[1] += System.nanoTime() - started;
    }

    // ---- before TLS

    private void beforeTls(RawSocket socket) throws Exception {
        switch (random.nextInt(8)) {
            case 0:
                send(socket, randomBytes(1 + random.nextInt(2048)));
                socket.shutdownOutput();
                expectClose(socket, "garbage instead of the enrollment");
                return;
            case 1: {
                int prefix = BAD_PREFIXES[random.nextInt(BAD_PREFIXES.length)];
                send(socket, concat(WireFrames.prefix(prefix), randomBytes(random.nextInt(64))));
                expectClose(socket, "an enrollment length prefix of " + prefix);
                return;
            }
            case 2: {
                int length = 100 + random.nextInt(16_000);
                send(socket, concat(WireFrames.prefix(length), randomBytes(random.nextInt(length))));
                socket.shutdownOutput();
                expectClose(socket, "a truncated enrollment");
                return;
            }
            case 3:
                badEnrollment(socket);
                return;
            case 4:
                send(
                        socket,
                        TlsPipe.clientHello(TlsPipe.clientEngine(
                                SessionCertificate.generate("fuzz.lomi.invalid"), broker.brokerSha256())));
                expectClose(socket, "a TLS ClientHello instead of the enrollment");
                return;
            case 5: {
                SessionCertificate own = SessionCertificate.generate("fuzz.lomi.invalid");
                if (enroll(socket, own)) {
                    byte[] garbage = random.nextBoolean()
                            ? randomBytes(1 + random.nextInt(4096))
                            : java.util.Arrays.copyOf(
                                    TlsPipe.clientHello(TlsPipe.clientEngine(own, broker.brokerSha256())),
                                    20 + random.nextInt(60));
                    send(socket, garbage);
                    socket.shutdownOutput();
                    expectClose(socket, "garbage instead of the ClientHello");
                }
                return;
            }
            case 6:
                send(socket, WireFrames.frame(enrollment(SessionCertificate.generate("fuzz.lomi.invalid"))));
                return; // and hang up before the answer: the pending request is withdrawn
            default:
                send(
                        socket,
                        concat(
                                WireFrames.frame(enrollment(SessionCertificate.generate("fuzz.lomi.invalid"))),
                                randomBytes(1 + random.nextInt(512))));
                socket.shutdownOutput();
                expectClose(socket, "an enrollment with garbage glued behind it");
        }
    }

    private void badEnrollment(RawSocket socket) throws Exception {
        String certificate = Base64.getEncoder()
                .encodeToString(SessionCertificate.generate("fuzz.lomi.invalid").der());
        String id = JsonText.quote(broker.instanceId());
        String[] bad = {
            "{\"ipcVersion\":" + pick(new String[] {"0", "2", "-1", "true", "[]", "{}", "null", "1.5"})
                    + ",\"instanceId\":" + id + ",\"clientLabel\":\"fuzz\",\"certificate\":\"" + certificate + "\"}",
            "{\"ipcVersion\":1,\"instanceId\":" + JsonText.quote(JsonText.randomString(random))
                    + ",\"clientLabel\":\"fuzz\",\"certificate\":\"" + certificate + "\"}",
            "{\"ipcVersion\":1,\"instanceId\":" + id + ",\"clientLabel\":"
                    + JsonText.quote(pick(new String[] {"", "x".repeat(81), "a\u0007b", "a\nb"}))
                    + ",\"certificate\":\"" + certificate + "\"}",
            "{\"ipcVersion\":1,\"instanceId\":" + id + ",\"clientLabel\":\"fuzz\",\"certificate\":"
                    + JsonText.quote(pick(new String[] {
                        "",
                        "!!!",
                        "AAAA",
                        Base64.getEncoder().encodeToString(randomBytes(300)),
                        Base64.getEncoder().encodeToString(randomBytes(8193))
                    }))
                    + "}",
            "{\"ipcVersion\":1,\"instanceId\":" + id + ",\"clientLabel\":\"fuzz\",\"certificate\":\"" + certificate
                    + "\",\"x\":1}",
            "{\"ipcVersion\":1,\"instanceId\":" + id + ",\"clientLabel\":\"fuzz\"}",
            "{\"ipcVersion\":1,\"ipcVersion\":1,\"instanceId\":" + id + ",\"clientLabel\":\"fuzz\",\"certificate\":\""
                    + certificate + "\"}",
            "{\"ipcVersion\":1,\"instanceId\":" + id + ",\"clientLabel\":\"fuzz\",\"certificate\":null}",
            JsonText.randomValue(random, 3),
            "[" + JsonText.randomValue(random, 2) + "]",
        };
        byte[] payload = bad[random.nextInt(bad.length)].getBytes(StandardCharsets.UTF_8);
        send(socket, WireFrames.frame(payload));
        try {
            PairingOutcome outcome = IpcJson.read(socket.readFrame(METADATA_BYTES, STEP), PairingOutcome.class);
            if (PairingOutcome.APPROVED.equals(outcome.outcome())) {
                tally.fail("a malformed enrollment was answered " + outcome + ": " + printable(payload));
            }
        } catch (IOException | RuntimeException e) {
            // closing without an answer is also a refusal
        }
        expectClose(socket, "a malformed enrollment", printable(payload));
    }

    // ---- after TLS

    /** A genuine session on {@code socket}: enrollment, YOLO approval, mutual TLS and the broker's confirmation; null (and a failure) otherwise. */
    TlsPipe session(RawSocket socket) throws Exception {
        SessionCertificate own = SessionCertificate.generate("fuzz.lomi.invalid");
        if (!enroll(socket, own)) {
            return null;
        }
        TlsPipe tls = TlsPipe.handshake(socket, TlsPipe.clientEngine(own, broker.brokerSha256()), STEP);
        if (!java.util.Arrays.equals(tls.readFrame(64, STEP), CONFIRMATION)) {
            tally.fail("the broker sent no TLS confirmation");
            return null;
        }
        return tls;
    }

    private void afterTls(RawSocket socket) throws Exception {
        TlsPipe tls = session(socket);
        if (tls == null) {
            return;
        }
        // the handshake is the expensive part of a session: spend it on several calls
        for (int calls = random.nextInt(12); calls > 0; calls--) {
            if (!wellFormedCall(tls)) {
                return;
            }
        }
        if (tally.afterTls % FULL_FRAME_EVERY == 0) {
            sendTls(tls, concat(WireFrames.prefix(FRAME_BYTES), randomBytes(FRAME_BYTES)));
            expectClose(tls, "a garbage frame of exactly 8 MiB");
            return;
        }
        hostileAfterTls(tls);
    }

    private void hostileAfterTls(TlsPipe tls) throws Exception {
        switch (random.nextInt(7)) {
            case 0:
                sendTls(tls, WireFrames.frame(randomBytes(1 + random.nextInt(4096))));
                expectClose(tls, "a call frame of random bytes");
                return;
            case 1: {
                int prefix = BAD_PREFIXES[random.nextInt(BAD_PREFIXES.length)];
                if (prefix > 0 && prefix <= FRAME_BYTES) {
                    prefix = FRAME_BYTES + 1;
                }
                sendTls(tls, concat(WireFrames.prefix(prefix), randomBytes(random.nextInt(64))));
                expectClose(tls, "a call length prefix of " + prefix);
                return;
            }
            case 2: {
                int length = 10 + random.nextInt(100_000);
                sendTls(tls, concat(WireFrames.prefix(length), randomBytes(random.nextInt(length))));
                tls.shutdownOutput();
                expectClose(tls, "a truncated call frame");
                return;
            }
            case 3:
                malformedCall(tls);
                return;
            case 4:
                sendTls(tls, concat(WireFrames.frame(callFrame()), WireFrames.frame(callFrame())));
                expectEnd(tls, "two pipelined calls");
                return;
            case 5: {
                // a whole record (header + body) must fail authentication at once; a record that promises more bytes
                // than
                // it brings is, to the broker, a session that has gone quiet — legal for a paired client — so we hang
                // up
                byte[] body = randomBytes(1 + random.nextInt(1024));
                boolean whole = random.nextBoolean();
                byte[] record = whole
                        ? concat(new byte[] {0x17, 0x03, 0x03, (byte) (body.length >> 8), (byte) body.length}, body)
                        : body;
                tally.frames++;
                try {
                    tls.writeRaw(record, STEP);
                } catch (IOException e) {
                    // already refused
                }
                if (!whole) {
                    tls.shutdownOutput();
                }
                expectClose(tls, whole ? "a forged TLS record" : "random bytes under TLS, then end of stream");
                return;
            }
            default:
            // a clean hang-up after the calls
        }
    }

    /** A well-formed call for a real tool (mutated arguments); the broker must answer it. */
    private boolean wellFormedCall(TlsPipe tls) throws Exception {
        String requestId = "fz-" + (++requests);
        byte[] frame = callFrame(requestId);
        if (!parsesAsCall(frame)) {
            // legal JSON that the IPC's strict parser refuses (a lone surrogate in a member name, a number past its
            // length
            // limit): a malformed frame by the IPC's rules, which the broker may refuse by closing the connection
            sendTls(tls, WireFrames.frame(frame));
            expectEnd(tls, "a call the IPC parser refuses");
            return false;
        }
        sendTls(tls, WireFrames.frame(frame));
        try {
            CallResponse response = IpcJson.read(tls.readFrame(FRAME_BYTES, CALL_WAIT), CallResponse.class);
            if (!requestId.equals(response.requestId())
                    || response.result() == null
                    || !response.result().isObject()) {
                tally.fail("a well-formed call got a wrong answer " + response + " — sent: " + printable(frame));
                return false;
            }
            tally.callsAnswered++;
            return true;
        } catch (IOException | RuntimeException e) {
            tally.fail("a well-formed call was not answered (" + e.getMessage() + ") — sent: " + printable(frame));
            return false;
        }
    }

    private void malformedCall(TlsPipe tls) throws Exception {
        String tool = JsonText.quote(tools.get(random.nextInt(tools.size())).name());
        String[] bad = {
            "{\"ipcVersion\":1,\"requestId\":" + pick(new String[] {"null", "1", "true", "{}", "[]"}) + ",\"tool\":"
                    + tool + ",\"arguments\":{}}",
            "{\"ipcVersion\":1,\"requestId\":\"m\",\"tool\":"
                    + pick(new String[] {"null", "1", "\"\"", "\"lomi_no_such_tool\"", "[]"}) + ",\"arguments\":{}}",
            "{\"ipcVersion\":1,\"requestId\":\"m\",\"tool\":" + tool + ",\"arguments\":"
                    + pick(new String[] {"null", "[]", "\"x\"", "1", "true"}) + "}",
            "{\"ipcVersion\":1,\"requestId\":\"m\",\"tool\":" + tool + "}",
            "{\"ipcVersion\":1,\"requestId\":\"m\",\"tool\":" + tool + ",\"arguments\":{},\"x\":1}",
            "{\"ipcVersion\":1,\"requestId\":\"m\",\"requestId\":\"n\",\"tool\":" + tool + ",\"arguments\":{}}",
            "{\"ipcVersion\":" + pick(new String[] {"0", "2", "\"1\"", "null"}) + ",\"requestId\":\"m\",\"tool\":"
                    + tool + ",\"arguments\":{}}",
            "{\"ipcVersion\":1,\"requestId\":\"" + "r".repeat(100_000) + "\",\"tool\":" + tool + ",\"arguments\":{}}",
            "{\"ipcVersion\":1,\"requestId\":\"m\",\"tool\":" + tool + ",\"arguments\":" + "[".repeat(5000)
                    + "]".repeat(5000) + "}",
            JsonText.randomValue(random, 3),
        };
        byte[] payload = bad[random.nextInt(bad.length)].getBytes(StandardCharsets.UTF_8);
        sendTls(tls, WireFrames.frame(payload));
        expectEnd(tls, "a malformed call", printable(payload));
    }

    /** Either answered (then we hang up) or closed: what matters is that the broker moves on promptly. */
    private void expectEnd(TlsPipe tls, String what) {
        expectEnd(tls, what, "");
    }

    private void expectEnd(TlsPipe tls, String what, String payload) {
        kind = what;
        what = payload.isEmpty() ? what : what + " " + payload;
        try {
            tls.readFrame(FRAME_BYTES, CALL_WAIT);
        } catch (RawSocket.DeadlineException e) {
            tally.fail(what + ": neither answered nor closed within " + CALL_WAIT.toSeconds() + " s");
        } catch (IOException | RuntimeException e) {
            tally.closedAsExpected++;
        }
    }

    // ---- plumbing

    /** Enrolls with {@code own}; true once YOLO approved it (the broker then expects a ClientHello). */
    private boolean enroll(RawSocket socket, SessionCertificate own) throws Exception {
        send(socket, WireFrames.frame(enrollment(own)));
        Welcome welcome = IpcJson.read(socket.readFrame(METADATA_BYTES, STEP), Welcome.class);
        if (!SessionCertificate.sha256(
                        SessionCertificate.parse(Base64.getDecoder().decode(welcome.certificate())))
                .equals(broker.brokerSha256())) {
            tally.fail("the broker's certificate does not match discovery.json");
            return false;
        }
        PairingOutcome outcome =
                IpcJson.read(socket.readFrame(METADATA_BYTES, Duration.ofSeconds(30)), PairingOutcome.class);
        if (!PairingOutcome.APPROVED.equals(outcome.outcome())) {
            tally.fail("a genuine enrollment was not approved under YOLO: " + outcome);
            return false;
        }
        return true;
    }

    private static boolean parsesAsCall(byte[] frame) {
        try {
            IpcJson.read(frame, dev.lomicontrol.ipc.CallRequest.class);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private byte[] enrollment(SessionCertificate own) {
        return IpcJson.write(new Enrollment(
                IpcJson.IPC_VERSION,
                broker.instanceId(),
                "lomi-control fuzz",
                Base64.getEncoder().encodeToString(own.der())));
    }

    private byte[] callFrame() {
        return callFrame("fz-" + (++requests));
    }

    private byte[] callFrame(String requestId) {
        HostileLines.Tool tool = tools.get(random.nextInt(tools.size()));
        String args = arguments.forSchema(tool.inputSchema());
        return ("{\"ipcVersion\":1,\"requestId\":" + JsonText.quote(requestId) + ",\"tool\":"
                        + JsonText.quote(tool.name()) + ",\"arguments\":" + args + "}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private void send(RawSocket socket, byte[] bytes) {
        tally.frames++;
        try {
            socket.write(bytes, STEP);
        } catch (IOException e) {
            // the broker may hang up before reading it all: that is its right
        }
    }

    private void sendTls(TlsPipe tls, byte[] plaintext) {
        tally.frames++;
        try {
            tls.write(plaintext, STEP);
        } catch (IOException e) {
            // as above
        }
    }

    private void expectClose(RawSocket socket, String what) {
        expectClose(socket, what, "");
    }

    /** {@code what} names the kind of connection (it groups the timings); {@code payload} only goes into a failure. */
    private void expectClose(RawSocket socket, String what, String payload) {
        kind = what;
        what = payload.isEmpty() ? what : what + " " + payload;
        if (socket.closedByPeerWithin(CLOSE_WAIT)) {
            tally.closedAsExpected++;
        } else {
            tally.fail(what + ": the connection was still open after " + CLOSE_WAIT.toSeconds() + " s");
        }
    }

    private void expectClose(TlsPipe tls, String what) {
        kind = what;
        if (tls.closedByPeerWithin(CLOSE_WAIT)) {
            tally.closedAsExpected++;
        } else {
            tally.fail(what + ": the connection was still open after " + CLOSE_WAIT.toSeconds() + " s");
        }
    }

    private byte[] randomBytes(int count) {
        byte[] bytes = new byte[count];
        random.nextBytes(bytes);
        return bytes;
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = java.util.Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }

    private String pick(String[] choices) {
        return choices[random.nextInt(choices.length)];
    }

    private static String printable(byte[] bytes) {
        return ReplyAudit.printable(bytes);
    }
}
