package dev.lomicontrol.android;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A test emulator console on 127.0.0.1 (the text protocol the SDK's emulator serves on its even
 * port, next to adb on the odd one): it asks for {@code auth <token>} (the token the user's
 * {@code ~/.emulator_console_auth_token} holds), then answers {@code avd name} and {@code kill}
 * ("OK: killing emulator, bye bye", then it closes and is {@link #killed}), and records every line.
 * It proves our console bookkeeping against the real adb client's {@code adb emu}, not the emulator.
 */
final class FakeEmulatorConsole implements AutoCloseable {

    private final ServerSocket server;
    private final String token;
    private final String avdName;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final java.util.concurrent.CountDownLatch killed = new java.util.concurrent.CountDownLatch(1);

    FakeEmulatorConsole(int port, String token, String avdName) throws IOException {
        this.server = new ServerSocket(port, 4, InetAddress.getLoopbackAddress());
        this.token = token;
        this.avdName = avdName;
        Thread acceptor = new Thread(this::acceptLoop, "fake-emulator-console-" + port);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return server.getLocalPort();
    }

    /** Every line a client sent, in order. */
    List<String> lines() {
        return List.copyOf(lines);
    }

    boolean killed() {
        return killed.getCount() == 0;
    }

    /** Waits up to {@code timeout} for a client's {@code kill}; whether it came. */
    boolean awaitKilled(java.time.Duration timeout) throws InterruptedException {
        return killed.await(timeout.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try (Socket socket = server.accept()) {
                serve(socket);
            } catch (IOException closed) {
                if (server.isClosed()) {
                    return;
                }
            }
        }
    }

    private void serve(Socket socket) throws IOException {
        OutputStream out = socket.getOutputStream();
        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        send(
                out,
                "Android Console: Authentication required\r\nAndroid Console: type 'auth <auth_token>' to"
                        + " authenticate\r\nAndroid Console: you can find your <auth_token> in \r\n"
                        + "'~/.emulator_console_auth_token'\r\nOK\r\n");
        boolean authenticated = false;
        for (String line; (line = in.readLine()) != null; ) {
            lines.add(line.strip());
            String command = line.strip();
            if (command.equals("quit") || command.equals("exit")) {
                return;
            } else if (command.startsWith("auth ")) {
                authenticated = command.substring(5).strip().equals(token);
                send(
                        out,
                        authenticated
                                ? "Android Console: type 'help' for a list of commands\r\nOK\r\n"
                                : "KO: authentication token does not match ~/.emulator_console_auth_token\r\n");
            } else if (!authenticated) {
                send(out, "KO: unknown command, try 'help'\r\n");
            } else if (command.equals("avd name")) {
                send(out, avdName + "\r\nOK\r\n");
            } else if (command.equals("kill")) {
                send(out, "OK: killing emulator, bye bye\r\n");
                killed.countDown();
                server.close();
                return;
            } else {
                send(out, "KO: unknown command, try 'help'\r\n");
            }
        }
    }

    private static void send(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
