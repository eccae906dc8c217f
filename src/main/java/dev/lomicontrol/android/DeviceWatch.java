package dev.lomicontrol.android;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A running {@code host:track-devices}: the latest list the server sent ({@link #current}), handed to
 * the listener on every change by a daemon thread of its own, until {@link #close} or the server
 * ends the connection ({@link #ended} says why). It reports what the server pushes, and the real adb
 * (1.0.41) does not push every change: a network device whose connection drops stays listed as
 * {@code device} here while a fresh {@link AdbBridge#devices} shows it {@code offline} (the server
 * keeps reconnecting; its own {@code adb track-devices} is silent too) — whoever must know acts on
 * a fresh listing.
 */
public final class DeviceWatch implements AutoCloseable {

    @FunctionalInterface
    interface Opener {
        SmartSocket open() throws IOException;
    }

    private volatile List<AttachedDevice> current = List.of();
    private volatile Optional<String> ended = Optional.empty();
    private final SmartSocket socket;
    private volatile boolean closed;

    private DeviceWatch(SmartSocket socket) {
        this.socket = socket;
    }

    static DeviceWatch start(Opener opener, Consumer<List<AttachedDevice>> listener) {
        SmartSocket socket;
        try {
            socket = opener.open();
        } catch (IOException e) {
            throw SmartSocket.io("host:track-devices", e);
        }
        DeviceWatch watch = new DeviceWatch(socket);
        Thread reader = new Thread(() -> watch.follow(listener), "adb-track-devices");
        reader.setDaemon(true);
        reader.start();
        return watch;
    }

    private void follow(Consumer<List<AttachedDevice>> listener) {
        try {
            while (!closed) {
                List<AttachedDevice> devices = AttachedDevice.parse(socket.readHexStringUnbounded());
                current = devices;
                listener.accept(devices);
            }
        } catch (IOException | RuntimeException e) {
            ended = Optional.of(closed ? "closed" : String.valueOf(e.getMessage()));
        }
    }

    /** The list the server sent last (empty before the first). */
    public List<AttachedDevice> current() {
        return current;
    }

    /** Why the watch ended; empty while it runs. */
    public Optional<String> ended() {
        return ended;
    }

    @Override
    public void close() {
        closed = true;
        socket.close();
    }
}
