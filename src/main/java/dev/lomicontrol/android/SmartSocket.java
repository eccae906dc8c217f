package dev.lomicontrol.android;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One connection to the adb server speaking its smart-socket protocol (AOSP {@code adb/protocol.txt}
 * and {@code SERVICES.TXT}): a request is {@code <hex4 length><service>}, answered {@code OKAY} or
 * {@code FAIL<hex4 length><reason>}; after {@code host:transport:<serial>} the same socket carries
 * one device service. Every read waits at most the idle timeout and never past the call's deadline;
 * a watchdog closes the socket at the deadline, so a write the server stopped reading (a device
 * that never acknowledges) ends then too ({@link #expired}).
 */
final class SmartSocket implements AutoCloseable {

    /** Closes connections at their call's deadline, whatever they are blocked in. */
    private static final ScheduledExecutorService WATCHDOG = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "adb-deadline-watchdog");
        thread.setDaemon(true);
        return thread;
    });

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final Duration idle;
    private final long deadlineNanos;
    private final String what;
    private volatile boolean unbounded;
    private volatile boolean expired;
    private final ScheduledFuture<?> watchdog;

    private SmartSocket(Socket socket, Duration idle, long deadlineNanos, String what) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.idle = idle;
        this.deadlineNanos = deadlineNanos;
        this.what = what;
        this.watchdog =
                WATCHDOG.schedule(this::expire, Math.max(1, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    private void expire() {
        expired = true;
        close();
    }

    /** Whether the watchdog closed this connection at its deadline: an IOException since then is the deadline's. */
    boolean expired() {
        return expired;
    }

    /** Connects to 127.0.0.1:{@code port}; the IOException of a refused connect is the caller's (it may start a server). */
    static SmartSocket open(int port, AdbTimeouts timeouts, Duration deadline, String what) throws IOException {
        long deadlineNanos = System.nanoTime() + deadline.toNanos();
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress("127.0.0.1", port), (int)
                    Math.max(1, Math.min(timeouts.connect().toMillis(), deadline.toMillis())));
            return new SmartSocket(socket, timeouts.idle(), deadlineNanos, what);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** Sends {@code service} and reads the server's answer; a FAIL becomes the exception {@link AdbFailures#refused} maps it to. */
    void request(String service) throws IOException {
        byte[] body = service.getBytes(StandardCharsets.UTF_8);
        out.write(String.format(Locale.ROOT, "%04x", body.length).getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
        String status = new String(readExactly(4), StandardCharsets.US_ASCII);
        if (status.equals("FAIL")) {
            throw AdbFailures.refused(what, readHexString());
        }
        if (!status.equals("OKAY")) {
            throw new IOException("the adb server answered " + status + " instead of OKAY or FAIL");
        }
    }

    /** A {@code <hex4 length><text>} answer (host:version, host:track-devices messages). */
    String readHexString() throws IOException {
        String hex = new String(readExactly(4), StandardCharsets.US_ASCII);
        int length;
        try {
            length = Integer.parseInt(hex, 16);
        } catch (NumberFormatException e) {
            throw new IOException("the adb server sent a bad length: " + hex, e);
        }
        return new String(readExactly(length), StandardCharsets.UTF_8);
    }

    /**
     * Like {@link #readHexString} but waiting without a time limit, from now on: for
     * {@code host:track-devices}, where the server writes only on change. Only a thread of its own
     * may call it; {@link #close} ends the wait.
     */
    String readHexStringUnbounded() throws IOException {
        if (!unbounded) {
            watchdog.cancel(false);
            if (expired) {
                throw AdbFailures.deadline(what);
            }
        }
        unbounded = true;
        return readHexString();
    }

    byte[] readExactly(int n) throws IOException {
        byte[] bytes = new byte[n];
        int at = 0;
        while (at < n) {
            int read = read(bytes, at, n - at);
            if (read < 0) {
                throw new EOFException("the adb server closed the connection after " + at + " of " + n + " bytes");
            }
            at += read;
        }
        return bytes;
    }

    /** Up to {@code length} bytes, -1 at the end of the stream; DEADLINE_EXCEEDED past the deadline or after the idle timeout. */
    int read(byte[] into, int offset, int length) throws IOException {
        if (unbounded) {
            socket.setSoTimeout(0);
            return in.read(into, offset, length);
        }
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
            throw AdbFailures.deadline(what);
        }
        socket.setSoTimeout((int)
                Math.max(1, Math.min(idle.toMillis(), Duration.ofNanos(left).toMillis())));
        try {
            return in.read(into, offset, length);
        } catch (SocketTimeoutException e) {
            throw deadline() ? AdbFailures.deadline(what) : AdbFailures.stalled(what, idle);
        }
    }

    private boolean deadline() {
        return deadlineNanos - System.nanoTime() <= 0;
    }

    void write(byte[] bytes) throws IOException {
        out.write(bytes);
    }

    void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() {
        watchdog.cancel(false);
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing a socket we are done with: nothing to report
        }
    }

    static LomiException io(String what, IOException e) {
        return new LomiException(
                ErrorCode.UNSUPPORTED_CAPABILITY,
                what + " failed talking to the adb server: "
                        + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()),
                e);
    }
}
