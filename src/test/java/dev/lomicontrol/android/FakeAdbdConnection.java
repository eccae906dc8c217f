package dev.lomicontrol.android;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One host connection of {@link FakeAdbd}: the CNXN/AUTH handshake, then streams. Everything runs on
 * the connection's reader thread except {@link #allowPendingKey} and {@link #close}; writes are
 * serialized on the socket.
 */
final class FakeAdbdConnection {

    /** One open stream: what the device still has to send, one WRTE in flight until the host's OKAY. */
    private static final class Stream {
        final int local;
        final int remote;
        final Deque<byte[]> pending = new ArrayDeque<>();
        boolean inFlight;
        boolean closeWhenDrained;
        boolean silent;
        final FakeSync sync;
        final ByteArrayOutputStream stdin = new ByteArrayOutputStream();
        int stdinLength;
        String command = "";

        Stream(int local, int remote, boolean sync) {
            this.local = local;
            this.remote = remote;
            this.sync = sync ? new FakeSync() : FakeSync.NONE;
        }
    }

    private final FakeAdbd device;
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final Map<Integer, Stream> streams = new ConcurrentHashMap<>();
    private int nextLocal = 1;
    private int maxData = FakeAdbd.MAX_DATA;
    private volatile byte[] token = new byte[0];
    private volatile byte[] pendingKey = new byte[0];
    private volatile boolean online;

    FakeAdbdConnection(FakeAdbd device, Socket socket) throws IOException {
        this.device = device;
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    void start() {
        Thread reader = new Thread(this::run, "fake-adbd-connection");
        reader.setDaemon(true);
        reader.start();
    }

    void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    void allowPendingKey() {
        byte[] key = pendingKey;
        if (key.length > 0 && !online) {
            try {
                device.keys.accept(DeviceKeys.parse(key));
                connected();
            } catch (java.security.GeneralSecurityException | IOException e) {
                throw new IllegalStateException("the offered key could not be accepted", e);
            }
        }
    }

    private void run() {
        try {
            while (true) {
                handle(AdbPacket.read(in));
            }
        } catch (IOException | RuntimeException ended) {
            close();
        }
    }

    private void handle(AdbPacket packet) throws IOException {
        int command = packet.command();
        if (command == AdbPacket.CNXN) {
            maxData = Math.min(FakeAdbd.MAX_DATA, packet.arg1());
            if (device.requireAuth()) {
                challenge();
            } else {
                connected();
            }
        } else if (command == AdbPacket.AUTH) {
            auth(packet);
        } else if (!online) {
            throw new IOException("a " + packet + " before the connection was authorized");
        } else if (command == AdbPacket.OPEN) {
            open(packet.arg0(), packet.text());
        } else if (command == AdbPacket.OKAY) {
            Stream stream = streams.get(packet.arg1());
            if (stream != null) {
                stream.inFlight = false;
                drain(stream);
            }
        } else if (command == AdbPacket.WRTE) {
            Stream stream = streams.get(packet.arg1());
            if (stream != null && !stream.silent) {
                send(AdbPacket.OKAY, stream.local, stream.remote, new byte[0]);
                stream.sync.receive(packet.data(), device).forEach(stream.pending::add);
                receiveStdin(stream, packet.data());
                if (stream.sync.quit()) {
                    stream.closeWhenDrained = true;
                }
                drain(stream);
            }
        } else if (command == AdbPacket.CLSE) {
            Stream stream = streams.remove(packet.arg1());
            if (stream != null) {
                send(AdbPacket.CLSE, stream.local, stream.remote, new byte[0]);
            }
        }
    }

    private void challenge() throws IOException {
        token = device.token();
        send(AdbPacket.AUTH, AdbPacket.AUTH_TOKEN, 0, token);
    }

    private void auth(AdbPacket packet) throws IOException {
        if (packet.arg0() == AdbPacket.AUTH_SIGNATURE) {
            if (device.keys.verifies(token, packet.data())) {
                connected();
            } else {
                challenge(); // the host tries its next key, then offers its public key
            }
        } else if (packet.arg0() == AdbPacket.AUTH_RSAPUBLICKEY) {
            pendingKey = packet.data().clone(); // the prompt shows on the device until the user allows it
            if (device.offeredKey(packet.data())) {
                connected();
            }
        }
    }

    private synchronized void connected() throws IOException {
        if (!online) {
            online = true;
            send(
                    AdbPacket.CNXN,
                    FakeAdbd.VERSION,
                    FakeAdbd.MAX_DATA,
                    (FakeAdbd.BANNER + "\0").getBytes(StandardCharsets.UTF_8));
        }
    }

    private void open(int remote, String service) throws IOException {
        device.recordService(service);
        if (device.stalled()) {
            return; // a hung device: the OPEN is never answered
        }
        int local = nextLocal++;
        Stream stream = new Stream(local, remote, service.equals("sync:"));
        if (device.silent()) {
            stream.silent = true; // accepted, then never heard from: no output, no acknowledgement
            streams.put(local, stream);
            send(AdbPacket.OKAY, local, remote, new byte[0]);
            return;
        }
        int colon = service.indexOf(':');
        String kind = colon < 0 ? service : service.substring(0, colon);
        String command = colon < 0 ? "" : service.substring(colon + 1);
        if (kind.startsWith("shell") && kind.contains("v2")) {
            FakeAdbd.Answer answer = device.runShell(command);
            stream.pending.add(ShellV2.packet(ShellV2.STDOUT, answer.stdout()));
            stream.pending.add(ShellV2.packet(ShellV2.STDERR, answer.stderr()));
            stream.pending.add(ShellV2.packet(ShellV2.EXIT, new byte[] {(byte) answer.exit()}));
            stream.closeWhenDrained = true;
        } else if (kind.startsWith("shell")) {
            FakeAdbd.Answer answer = device.runShell(command);
            stream.pending.add(concat(answer.stdout(), answer.stderr()));
            stream.closeWhenDrained = true;
        } else if (kind.equals("exec") && FakeAdbd.stdinLength(command) > 0) {
            stream.stdinLength = FakeAdbd.stdinLength(command); // answered once all of it arrived
            stream.command = command;
        } else if (kind.equals("exec")) {
            stream.pending.add(device.runExec(command));
            stream.closeWhenDrained = true;
        } else if (!kind.equals("sync")) {
            send(AdbPacket.CLSE, 0, remote, new byte[0]); // a service this device does not have
            return;
        }
        streams.put(local, stream);
        send(AdbPacket.OKAY, local, remote, new byte[0]);
        drain(stream);
    }

    /** A streamed install's bytes; once all arrived, the device answers and closes the stream. */
    private void receiveStdin(Stream stream, byte[] data) {
        if (stream.stdinLength > 0 && stream.stdin.size() < stream.stdinLength) {
            stream.stdin.writeBytes(data);
            if (stream.stdin.size() >= stream.stdinLength) {
                stream.pending.add(device.runInstall(stream.command, stream.stdin.toByteArray()));
                stream.closeWhenDrained = true;
            }
        }
    }

    /** Sends the stream's next chunk (at most maxdata) if none is in flight; CLSE once all were acknowledged. */
    private void drain(Stream stream) throws IOException {
        while (!stream.inFlight && !stream.pending.isEmpty()) {
            byte[] next = stream.pending.poll();
            if (next == null || next.length == 0) {
                continue;
            }
            if (next.length > maxData) {
                stream.pending.addFirst(java.util.Arrays.copyOfRange(next, maxData, next.length));
                next = java.util.Arrays.copyOf(next, maxData);
            }
            stream.inFlight = true;
            send(AdbPacket.WRTE, stream.local, stream.remote, next);
        }
        if (!stream.inFlight && stream.pending.isEmpty() && stream.closeWhenDrained) {
            streams.remove(stream.local);
            send(AdbPacket.CLSE, stream.local, stream.remote, new byte[0]);
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        ByteArrayOutputStream both = new ByteArrayOutputStream();
        both.writeBytes(a);
        both.writeBytes(b);
        return both.toByteArray();
    }

    private synchronized void send(int command, int arg0, int arg1, byte[] data) throws IOException {
        new AdbPacket(command, arg0, arg1, data).write(out);
    }
}
