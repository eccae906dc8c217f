package dev.lomicontrol.android;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.testing.Eventually;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The device states our bridge reports and the time limits it keeps, against the real adb server
 * (private to this class) and test devices speaking the adbd protocol: an unauthorized device, one
 * that goes away, one that stops answering. Our bookkeeping against the real adb — not Android.
 */
class AdbBridgeDeviceStatesTests {

    static final Duration CALL = Duration.ofSeconds(10);

    @TempDir
    static Path scratch;

    static PrivateAdbServer server;

    @BeforeAll
    static void startServer() throws IOException {
        server = PrivateAdbServer.start(scratch);
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void aDeviceThatHasNotAcceptedTheKeyIsUnauthorizedUntilTheUserAllowsIt() throws IOException {
        try (FakeAdbd device = FakeAdbd.requiringAuth()) {
            AdbBridge bridge = server.bridge();
            server.connect(device, DeviceState.UNAUTHORIZED);
            assertThatThrownBy(() -> bridge.shell(device.serial(), List.of("echo", "x"), CALL, 100))
                    .isInstanceOfSatisfying(LomiException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.SCOPE_DENIED);
                        assertThat(e.getMessage()).contains("unauthorized");
                    });
            assertThat(device.shellCommands()).isEmpty();

            device.allowPendingKeys();
            server.awaitState(device.serial(), DeviceState.DEVICE);
            assertThat(bridge.shell(device.serial(), List.of("echo", "allowed"), CALL, 100)
                            .stdoutText())
                    .isEqualTo("allowed\n");
            assertThat(device.keys.size())
                    .as("the host's key, kept by the device")
                    .isEqualTo(1);
        }
    }

    /**
     * The watch follows the server's pushes; the real adb 29.0.6 does not push a network device's turn
     * to {@code offline} when its connection drops (it keeps reconnecting; its CLI's track-devices is
     * silent too), so "gone" is checked through a fresh listing, as the Android tools will list.
     */
    @Test
    void aWatchSeesADeviceArriveAndAFreshListingSeesItGoOffline() throws IOException {
        AdbBridge bridge = server.bridge();
        try (FakeAdbd device = FakeAdbd.open();
                DeviceWatch watch = bridge.watch(devices -> {})) {
            server.connect(device, DeviceState.DEVICE);
            Eventually.until(
                    "the watch lists the device",
                    PrivateAdbServer.PATIENCE,
                    () -> watch.current().stream()
                            .anyMatch(d -> d.serial().equals(device.serial()) && d.state() == DeviceState.DEVICE));
            device.close();
            server.awaitState(device.serial(), DeviceState.OFFLINE);
            assertThat(watch.ended()).isEmpty();
        } finally {
            server.run("disconnect");
        }
    }

    @Test
    void aDeviceThatStopsAnsweringEndsTheCallByItsDeadlineAndTheServerKeepsServing() throws IOException {
        try (FakeAdbd device = FakeAdbd.open()) {
            server.connect(device, DeviceState.DEVICE);
            device.stall();
            AdbBridge bridge = server.bridge(
                    new AdbTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(30), Duration.ofSeconds(15)));
            long start = System.nanoTime();
            assertThatThrownBy(() -> bridge.shell(device.serial(), List.of("echo", "x"), Duration.ofMillis(800), 100))
                    .isInstanceOfSatisfying(
                            LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.DEADLINE_EXCEEDED));
            long tookMs = (System.nanoTime() - start) / 1_000_000;
            assertThat(tookMs).as("ended by the deadline").isBetween(700L, 3_000L);

            AdbBridge impatient = server.bridge(
                    new AdbTimeouts(Duration.ofSeconds(2), Duration.ofMillis(500), Duration.ofSeconds(15)));
            assertThatThrownBy(() -> impatient.exec(device.serial(), List.of("screencap", "-p"), CALL, 100))
                    .isInstanceOfSatisfying(LomiException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.DEADLINE_EXCEEDED);
                        assertThat(e.getMessage()).contains("sent nothing for 500 ms");
                    });
            assertThat(bridge.version(CALL)).isEqualTo(41);
        } finally {
            server.run("disconnect");
        }
    }

    @Test
    void aDeviceThatAcceptsAStreamAndThenNeverAcknowledgesEndsEveryWriteAndReadByTheDeadline() throws IOException {
        try (FakeAdbd device = FakeAdbd.open()) {
            server.connect(device, DeviceState.DEVICE);
            device.silence();
            AdbBridge bridge = server.bridge(
                    new AdbTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(30), Duration.ofSeconds(15)));
            byte[] large = new byte[32 * 1024 * 1024]; // far more than the sockets between us buffer
            for (Runnable call : List.<Runnable>of(
                    () -> bridge.push(device.serial(), large, "/data/local/tmp/big", 0644, Duration.ofMillis(1500)),
                    () -> bridge.shell(device.serial(), List.of("echo", "x"), Duration.ofMillis(1500), 100),
                    () -> bridge.exec(device.serial(), List.of("screencap", "-p"), Duration.ofMillis(1500), 100))) {
                long start = System.nanoTime();
                assertThatThrownBy(() -> assertTimeoutPreemptively(Duration.ofSeconds(15), call::run))
                        .isInstanceOfSatisfying(LomiException.class, e -> {
                            assertThat(e.code()).isEqualTo(ErrorCode.DEADLINE_EXCEEDED);
                            assertThat(e.getMessage()).contains("before its deadline");
                        });
                assertThat((System.nanoTime() - start) / 1_000_000)
                        .as("ended by the 1.5 s deadline")
                        .isBetween(1_400L, 4_000L);
            }
            assertThat(device.services()).contains("sync:", "shell,v2,raw:'echo' 'x'", "exec:'screencap' '-p'");
            assertThat(bridge.version(CALL)).as("the server keeps serving").isEqualTo(41);
        } finally {
            server.run("disconnect");
        }
    }
}
