package dev.lomicontrol.android;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * A client of the SDK emulator's text console on 127.0.0.1 (its even port): it reads the banner,
 * authenticates with the user's {@code ~/.emulator_console_auth_token} when that file holds a token
 * (as {@code adb emu} does), and sends one command. Every step ends by the deadline.
 */
final class EmulatorConsole {

    private EmulatorConsole() {}

    /** The token in {@code file}, or empty when the file is absent or blank (the console then asks for none). */
    static Optional<String> token(Path file) {
        try {
            String token = Files.isRegularFile(file)
                    ? Files.readString(file, StandardCharsets.UTF_8).strip()
                    : "";
            return token.isEmpty() ? Optional.empty() : Optional.of(token);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Sends {@code kill}: true when the console said OK to it; false when it refused or went away first. */
    static boolean kill(int port, Optional<String> token, Duration deadline) {
        long end = System.nanoTime() + deadline.toNanos();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), (int)
                    Math.max(1, deadline.toMillis()));
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            OutputStream out = socket.getOutputStream();
            if (!status(socket, in, end).startsWith("OK")) {
                return false;
            }
            if (token.isPresent()) {
                send(out, "auth " + token.get());
                if (!status(socket, in, end).startsWith("OK")) {
                    throw new LomiException(
                            ErrorCode.UNSUPPORTED_CAPABILITY,
                            "the emulator console on port " + port
                                    + " refused the token in ~/.emulator_console_auth_token");
                }
            }
            send(out, "kill");
            return status(socket, in, end).startsWith("OK");
        } catch (IOException e) {
            return false;
        }
    }

    /** Reads lines up to the next one that starts with OK or KO; that line. */
    private static String status(Socket socket, BufferedReader in, long end) throws IOException {
        while (true) {
            long left = end - System.nanoTime();
            if (left <= 0) {
                throw new SocketTimeoutException("the emulator console did not answer in time");
            }
            socket.setSoTimeout((int) Math.max(1, Duration.ofNanos(left).toMillis()));
            String line = in.readLine();
            if (line == null) {
                throw new IOException("the emulator console closed the connection");
            }
            String stripped = line.strip();
            if (stripped.startsWith("OK") || stripped.startsWith("KO")) {
                return stripped;
            }
        }
    }

    private static void send(OutputStream out, String line) throws IOException {
        out.write((line + "\r\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
