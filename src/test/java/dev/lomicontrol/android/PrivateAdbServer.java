package dev.lomicontrol.android;

import dev.lomicontrol.testing.Eventually;
import dev.lomicontrol.testing.Machine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The real adb server (Debian's {@code adb}), private to one test class: its own free port and its
 * own {@code HOME} (so its key pair and state are not the user's), started through an {@code adb}
 * wrapper that sets that {@code HOME} — the same wrapper the bridge under test gets, so a server the
 * bridge starts is private too — and stopped with {@code adb -P PORT kill-server}. A machine without
 * adb fails the test with the install command.
 */
final class PrivateAdbServer implements AutoCloseable {

    static final Duration PATIENCE = Duration.ofSeconds(20);

    private final int port;
    private final Path home;
    private final Path adb;

    private PrivateAdbServer(int port, Path home, Path adb) {
        this.port = port;
        this.home = home;
        this.adb = adb;
    }

    /** A private server on a free port, not started yet (the first bridge call or {@link #start} starts it). */
    static PrivateAdbServer prepare(Path scratch) throws IOException {
        Machine.requireOnPath("adb", "version", "adb");
        Path home = Files.createDirectories(scratch.resolve("home"));
        Path wrapper = scratch.resolve("adb");
        Files.writeString(
                wrapper,
                "#!/bin/sh\nunset ANDROID_USER_HOME ANDROID_SDK_HOME ADB_VENDOR_KEYS\nHOME='" + home
                        + "' exec adb \"$@\"\n",
                StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwx------"));
        return new PrivateAdbServer(freePort(), home, wrapper);
    }

    /** A private server, started. */
    static PrivateAdbServer start(Path scratch) throws IOException {
        PrivateAdbServer server = prepare(scratch);
        server.run("start-server");
        return server;
    }

    static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }

    int port() {
        return port;
    }

    Path home() {
        return home;
    }

    /** The wrapper that runs the real adb with this server's HOME. */
    Path adb() {
        return adb;
    }

    AdbBridge bridge() {
        return bridge(AdbTimeouts.DEFAULT);
    }

    AdbBridge bridge(AdbTimeouts timeouts) {
        return new AdbBridge(port, Optional.of(adb), timeouts);
    }

    /** Runs the real adb client against this server: {@code adb -P PORT args…}; its output. */
    String run(String... args) {
        List<String> argv = new ArrayList<>(List.of(adb.toString(), "-P", Integer.toString(port)));
        argv.addAll(List.of(args));
        try {
            ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true);
            builder.environment().put("ANDROID_ADB_SERVER_PORT", Integer.toString(port));
            Process process = builder.start();
            process.getOutputStream().close();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("adb " + args[0] + " did not finish");
            }
            return new String(output, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** Registers {@code device} with the server ({@code adb connect}) and waits until the server lists it in {@code state}. */
    void connect(FakeAdbd device, DeviceState state) {
        run("connect", device.serial());
        awaitState(device.serial(), state);
    }

    /**
     * Registers {@code device} as an emulator whose adb port is the device's port ({@code host:emulator:<port>},
     * as AOSP's own adb tests do; the server answers nothing) and waits until the server lists it as
     * {@code emulator-<port - 1>}; that serial.
     */
    String registerEmulator(FakeAdbd device) throws IOException {
        try (SmartSocket socket = SmartSocket.open(port, AdbTimeouts.DEFAULT, Duration.ofSeconds(5), "host:emulator")) {
            byte[] request = ("host:emulator:" + device.port()).getBytes(StandardCharsets.UTF_8);
            socket.write(
                    String.format(java.util.Locale.ROOT, "%04x", request.length).getBytes(StandardCharsets.US_ASCII));
            socket.write(request);
            socket.flush();
        }
        String serial = "emulator-" + (device.port() - 1);
        awaitState(serial, DeviceState.DEVICE);
        return serial;
    }

    /** Waits until the server lists {@code serial} in {@code state}. */
    void awaitState(String serial, DeviceState state) {
        AdbBridge bridge = bridge();
        Eventually.await(
                serial + " listed as " + state.word(),
                PATIENCE,
                () -> bridge.devices(Duration.ofSeconds(5)),
                devices -> devices.stream().anyMatch(d -> d.serial().equals(serial) && d.state() == state),
                String::valueOf);
    }

    /** The environment a process needs to use this server (for processes that run adb themselves). */
    Map<String, String> environment() {
        return Map.of("ANDROID_ADB_SERVER_PORT", Integer.toString(port), "HOME", home.toString());
    }

    @Override
    public void close() {
        run("kill-server");
    }
}
