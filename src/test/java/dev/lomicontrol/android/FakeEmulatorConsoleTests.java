package dev.lomicontrol.android;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The emulator-shaped test fixture against the real adb: a test device on an odd port registered as
 * {@code emulator-<port - 1>} and a test console on that even port, with the auth token in the
 * private HOME. The real {@code adb emu} authenticates, reads the AVD name and kills it — what
 * {@code lomi_android_stop} will build on. Our fixture and bookkeeping against the real adb, not the
 * emulator.
 */
class FakeEmulatorConsoleTests {

    @TempDir
    Path scratch;

    @Test
    void theRealAdbEmuAuthenticatesReadsTheAvdNameAndKillsThroughTheTestConsole() throws IOException {
        try (PrivateAdbServer server = PrivateAdbServer.start(scratch)) {
            Files.writeString(server.home().resolve(".emulator_console_auth_token"), "test-token");
            int console = freePair();
            try (FakeEmulatorConsole fakeConsole = new FakeEmulatorConsole(console, "test-token", "Pixel_8");
                    FakeAdbd device = FakeAdbd.onPort(console + 1)) {
                String serial = server.registerEmulator(device);
                assertThat(serial).isEqualTo("emulator-" + console);

                assertThat(server.run("-s", serial, "emu", "avd", "name")).contains("Pixel_8");
                assertThat(server.run("-s", serial, "emu", "kill")).doesNotContain("KO");
                assertThat(fakeConsole.killed()).isTrue();
                assertThat(fakeConsole.lines()).contains("auth test-token", "avd name", "kill");
            }
        }
    }

    /** An even port whose odd neighbour is free too (the emulator's console and adb ports). */
    static int freePair() throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int port = PrivateAdbServer.freePort() & ~1;
            try (ServerSocket even = new ServerSocket(port, 1, InetAddress.getLoopbackAddress());
                    ServerSocket odd = new ServerSocket(port + 1, 1, InetAddress.getLoopbackAddress())) {
                return port;
            } catch (IOException taken) {
                // try another pair
            }
        }
        throw new AssertionError("no free even/odd port pair on 127.0.0.1");
    }
}
