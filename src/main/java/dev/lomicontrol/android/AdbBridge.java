package dev.lomicontrol.android;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The bridge to the user's adb server on 127.0.0.1 ({@link #serverPort}): the devices it sees and
 * the three device services the Android tools use — {@code shell,v2:} (exit status from the v2
 * framing), {@code exec:} (binary-clean stdout, e.g. {@code screencap -p}) and {@code sync:} pushes.
 * Commands are argv lists, quoted by {@link ShellQuote}; there is no entry point that takes a shell
 * string. When nothing listens on the port and an adb executable is known, it runs
 * {@code adb -P <port> start-server} (argv only; within the call's deadline and
 * {@link AdbTimeouts#startServer}) and connects again.
 *
 * <p>Every call takes a deadline and ends by it — a read, and a write the server stopped taking
 * (the connection is closed at the deadline) — or earlier when the server is silent for
 * {@link AdbTimeouts#idle}: DEADLINE_EXCEEDED, the socket closed. Refusals map to codes in
 * {@link AdbFailures}; an unreachable server with no adb to start it is HOST_UNQUALIFIED.
 * Thread-safe: each call uses a connection of its own.
 */
public final class AdbBridge {

    /** The adb server's default port. */
    public static final int DEFAULT_PORT = 5037;

    private final int port;
    private final Optional<Path> adb;
    private final AdbTimeouts timeouts;
    private final ServerStarter starter;

    /** A bridge to the server on {@code port}, started with {@code adb} when absent. */
    public AdbBridge(int port, Optional<Path> adb, AdbTimeouts timeouts) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("not a port: " + port);
        }
        this.port = port;
        this.adb = adb;
        this.timeouts = timeouts;
        this.starter = new ServerStarter(port, adb, timeouts.startServer());
    }

    /** The port the user's adb server uses: {@code ANDROID_ADB_SERVER_PORT} when it is a port, else 5037. */
    public static int serverPort(Map<String, String> environment) {
        String value = environment.get("ANDROID_ADB_SERVER_PORT");
        if (value != null && value.strip().matches("[0-9]{1,5}")) {
            int p = Integer.parseInt(value.strip());
            if (p >= 1 && p <= 65535) {
                return p;
            }
        }
        return DEFAULT_PORT;
    }

    public int port() {
        return port;
    }

    public Optional<Path> adb() {
        return adb;
    }

    /** The server's protocol version ({@code host:version}; 41 for adb 1.0.41). */
    public int version(Duration deadline) {
        return call("host:version", deadline, socket -> {
            socket.request("host:version");
            return Integer.parseInt(socket.readHexString(), 16);
        });
    }

    /** The devices the server sees now, with their states (the first message of {@code host:track-devices}). */
    public List<AttachedDevice> devices(Duration deadline) {
        return call("host:track-devices", deadline, socket -> {
            socket.request("host:track-devices");
            return AttachedDevice.parse(socket.readHexString());
        });
    }

    /**
     * Follows {@code host:track-devices} on a daemon thread of its own: {@code listener} gets the whole
     * list at once and again after every change, until the watch is closed or the server goes away
     * ({@link DeviceWatch#ended} then says why). The connection itself waits without a time limit —
     * the server writes only on change — on that thread, never on a caller's.
     */
    public DeviceWatch watch(Consumer<List<AttachedDevice>> listener) {
        return DeviceWatch.start(this::openTracking, listener);
    }

    private SmartSocket openTracking() throws IOException {
        SmartSocket socket = connect("host:track-devices", timeouts.connect().plus(timeouts.startServer()));
        socket.request("host:track-devices");
        return socket;
    }

    /**
     * Runs {@code argv} on the device through {@code shell,v2,raw:} (no terminal; stdin closed at once)
     * and returns its exit status and output, each stream cut at {@code maxBytes}.
     */
    public ShellResult shell(String serial, List<String> argv, Duration deadline, int maxBytes) {
        String command = ShellQuote.command(argv);
        return call("shell " + argv.get(0) + " on " + serial, deadline, socket -> {
            transport(socket, serial);
            socket.request("shell,v2,raw:" + command);
            return ShellV2.run(socket, maxBytes);
        });
    }

    /**
     * Runs {@code argv} through {@code exec:} and returns its standard output byte for byte;
     * PAYLOAD_TOO_LARGE past {@code maxBytes} (the rest is not read).
     */
    public byte[] exec(String serial, List<String> argv, Duration deadline, int maxBytes) {
        String command = ShellQuote.command(argv);
        return call("exec " + argv.get(0) + " on " + serial, deadline, socket -> {
            transport(socket, serial);
            socket.request("exec:" + command);
            return readAll(socket, argv.get(0), maxBytes);
        });
    }

    /**
     * Runs {@code argv} through {@code exec:} with {@code length} bytes of {@code input} written to its
     * standard input (a command that reads exactly that many, like {@code cmd package install -S}), then
     * returns its standard output as {@link #exec} does. An IOException from {@code input} ends the call
     * with the connection closed, the rest of the input unsent.
     */
    public byte[] exec(
            String serial, List<String> argv, InputStream input, long length, Duration deadline, int maxBytes) {
        String command = ShellQuote.command(argv);
        return call("exec " + argv.get(0) + " on " + serial, deadline, socket -> {
            transport(socket, serial);
            socket.request("exec:" + command);
            write(socket, input, length);
            return readAll(socket, argv.get(0), maxBytes);
        });
    }

    /** Writes exactly {@code length} bytes of {@code input}; an IOException when it ends sooner. */
    private static void write(SmartSocket socket, InputStream input, long length) throws IOException {
        byte[] buffer = new byte[64 * 1024];
        long sent = 0;
        while (sent < length) {
            int n = input.read(buffer, 0, (int) Math.min(buffer.length, length - sent));
            if (n < 0) {
                throw new IOException("the input ended after " + sent + " of " + length + " bytes");
            }
            socket.write(Arrays.copyOf(buffer, n));
            sent += n;
        }
        socket.flush();
    }

    private static byte[] readAll(SmartSocket socket, String program, int maxBytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[64 * 1024];
        for (int n; (n = socket.read(buffer, 0, buffer.length)) >= 0; ) {
            if (out.size() + n > maxBytes) {
                throw new LomiException(
                        ErrorCode.PAYLOAD_TOO_LARGE,
                        "the output of " + program + " is larger than " + maxBytes + " bytes; nothing was kept");
            }
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }

    /** Writes {@code content} to {@code remotePath} on the device with the permission bits {@code mode} ({@code sync:} SEND/DATA/DONE). */
    public void push(String serial, byte[] content, String remotePath, int mode, Duration deadline) {
        call("push to " + remotePath + " on " + serial, deadline, socket -> {
            transport(socket, serial);
            socket.request("sync:");
            SyncProtocol.send(socket, content, remotePath, mode);
            return Boolean.TRUE;
        });
    }

    /** The mode, size and modification time of {@code remotePath} ({@code sync:} STAT); all zero when it does not exist. */
    public SyncProtocol.Stat stat(String serial, String remotePath, Duration deadline) {
        return call("stat " + remotePath + " on " + serial, deadline, socket -> {
            transport(socket, serial);
            socket.request("sync:");
            return SyncProtocol.stat(socket, remotePath);
        });
    }

    private static void transport(SmartSocket socket, String serial) throws IOException {
        socket.request("host:transport:" + serial);
    }

    @FunctionalInterface
    private interface Exchange<T> {
        T run(SmartSocket socket) throws IOException;
    }

    /** Runs {@code exchange} on a connection of its own; an IOException after the connection's watchdog closed it is the deadline's. */
    private <T> T call(String what, Duration deadline, Exchange<T> exchange) {
        SmartSocket connection;
        try {
            connection = connect(what, deadline);
        } catch (IOException e) {
            throw SmartSocket.io(what, e);
        }
        try (SmartSocket socket = connection) {
            return exchange.run(socket);
        } catch (IOException e) {
            throw connection.expired() ? AdbFailures.deadline(what) : SmartSocket.io(what, e);
        }
    }

    /** A connection to the server, starting it first when nothing listens and adb is known. */
    private SmartSocket connect(String what, Duration deadline) throws IOException {
        long end = System.nanoTime() + deadline.toNanos();
        try {
            return SmartSocket.open(port, timeouts, deadline, what);
        } catch (ConnectException refused) {
            if (adb.isEmpty()) {
                throw new LomiException(
                        ErrorCode.HOST_UNQUALIFIED,
                        "no adb server listens on 127.0.0.1:" + port
                                + " and adb was not found to start one; install it (apt-get install adb, or the SDK's platform-tools)",
                        refused);
            }
            starter.start(Duration.ofNanos(end - System.nanoTime()));
            Duration left = Duration.ofNanos(end - System.nanoTime());
            if (left.isNegative() || left.isZero()) {
                throw AdbFailures.deadline(what);
            }
            return SmartSocket.open(port, timeouts, left, what);
        }
    }
}
