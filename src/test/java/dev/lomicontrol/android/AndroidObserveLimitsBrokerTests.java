package dev.lomicontrol.android;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.testing.Eventually;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The Android observations' bookkeeping at their edges, through the broker against the real adb
 * server (private to this class) and a test device: a generation ends when adb stops listing the
 * device and a new one is minted when it is back (STALE_GENERATION for the old one); a device that
 * never answers costs each observation at most its deadline, a second observation of it meanwhile
 * answers TARGET_BUSY at once, and the broker keeps serving; with no adb server the answer names
 * what is missing. Our protocol and bookkeeping against the real adb, not Android behaviour.
 */
class AndroidObserveLimitsBrokerTests extends AndroidBrokerTest {

    static final String PACKAGE = "com.example.login";

    @Test
    void aGenerationEndsWhenAdbStopsListingTheDeviceAndANewOneIsMintedWhenItIsBack() throws IOException {
        try (FakeAdbd device = FakeAdbd.open()) {
            byte[] dump = AndroidObserveBrokerTests.loginDump();
            device.onExec(argv -> dump);
            server.connect(device, DeviceState.DEVICE);
            AndroidCalls.Opened panel = calls.opened(device.serial());
            assertThat(calls.snapshot(panel, panel.generation()).path("status").asString())
                    .isEqualTo("ok");
            assertThat(calls.snapshot(panel, "gen-0000000000000000")
                            .path("code")
                            .asString())
                    .isEqualTo("STALE_GENERATION");

            server.run("disconnect", device.serial());
            Eventually.await(
                    device.serial() + " no longer listed",
                    PrivateAdbServer.PATIENCE,
                    () -> server.bridge().devices(Duration.ofSeconds(5)),
                    devices -> devices.stream().noneMatch(d -> d.serial().equals(device.serial())));
            JsonNode gone = calls.snapshot(panel, panel.generation());
            assertThat(gone.path("code").asString()).as("%s", gone).isEqualTo("STALE_GENERATION");
            assertThat(gone.path("message").asString()).contains("not attached");

            server.connect(device, DeviceState.DEVICE);
            String next = calls.listed(device.serial()).path("generation").asString();
            assertThat(next).isNotBlank().isNotEqualTo(panel.generation());
            assertThat(calls.snapshot(panel, panel.generation()).path("code").asString())
                    .isEqualTo("STALE_GENERATION");
            assertThat(calls.logcat(panel, panel.generation(), "packageName", PACKAGE, "minPriority", "V", "limit", 1)
                            .path("code")
                            .asString())
                    .isEqualTo("STALE_GENERATION");
            assertThat(calls.screenshot(panel, panel.generation()).path("code").asString())
                    .isEqualTo("STALE_GENERATION");
            JsonNode current = calls.snapshot(panel, next);
            assertThat(current.path("status").asString()).as("%s", current).isEqualTo("ok");
            assertThat(current.at("/data/generation").asString()).isEqualTo(next);
        } finally {
            server.run("disconnect");
        }
    }

    @Test
    void aStalledDeviceCostsEachObservationAtMostItsDeadlineOneAtATimeAndTheBrokerKeepsServing() throws Exception {
        try (FakeAdbd device = FakeAdbd.open()) {
            server.connect(device, DeviceState.DEVICE);
            AndroidCalls.Opened panel = calls.opened(device.serial());
            device.stall();

            long started = System.nanoTime();
            CompletableFuture<JsonNode> snapshot =
                    CompletableFuture.supplyAsync(() -> calls.snapshot(panel, panel.generation()));
            Eventually.await(
                    "the dump was sent to the device",
                    Duration.ofSeconds(10),
                    device::services,
                    services -> services.stream().anyMatch(s -> s.startsWith("exec:") && s.contains("uiautomator")));
            JsonNode busy = calls.screenshot(panel, panel.generation());
            assertThat(busy.path("code").asString()).as("%s", busy).isEqualTo("TARGET_BUSY");
            assertThat(busy.path("message").asString()).contains("one at a time per device");
            assertThat(calls.list().path("devices"))
                    .as("the broker keeps serving")
                    .isNotEmpty();
            JsonNode late = snapshot.get();
            assertThat(late.path("code").asString()).as("%s", late).isEqualTo("DEADLINE_EXCEEDED");
            assertThat(elapsedMs(started)).isLessThan(12_000 + 3_000);

            started = System.nanoTime();
            JsonNode shot = calls.screenshot(panel, panel.generation());
            assertThat(shot.path("code").asString()).as("%s", shot).isEqualTo("DEADLINE_EXCEEDED");
            assertThat(elapsedMs(started)).isLessThan(15_000 + 3_000);

            started = System.nanoTime();
            JsonNode logcat =
                    calls.logcat(panel, panel.generation(), "packageName", PACKAGE, "minPriority", "W", "limit", 8);
            assertThat(logcat.path("code").asString()).as("%s", logcat).isEqualTo("DEADLINE_EXCEEDED");
            assertThat(elapsedMs(started)).isLessThan(10_000 + 3_000);
            assertThat(calls.list().path("devices")).isNotEmpty();
        } finally {
            server.run("disconnect");
        }
    }

    @Test
    void withNoAdbServerTheOpenAndTheObservationsNameWhatIsMissing() throws IOException {
        try (FakeAdbd device = FakeAdbd.open()) {
            server.connect(device, DeviceState.DEVICE);
            AndroidCalls.Opened panel = calls.opened(device.serial());
            int nothing = PrivateAdbServer.freePort();
            broker.androidDevices = () -> new AndroidDevices(
                    new AdbBridge(nothing, Optional.empty(), AdbTimeouts.DEFAULT),
                    new AvdDirectory(scratch.resolve("none")));
            for (JsonNode answer : List.of(
                    calls.open(panel.deviceId(), "open-without-adb"),
                    calls.snapshot(panel, panel.generation()),
                    calls.screenshot(panel, panel.generation()),
                    calls.logcat(panel, panel.generation(), "packageName", PACKAGE, "minPriority", "E", "limit", 4))) {
                assertThat(answer.toString())
                        .as("%s", answer)
                        .contains(
                                "HOST_UNQUALIFIED",
                                "no adb server listens on 127.0.0.1:" + nothing,
                                "apt-get install adb");
            }
        } finally {
            server.run("disconnect");
        }
    }

    @Test
    void openingNeedsPanelCreateAndALogcatCursorServesOnlyItsOwnQuery() throws IOException {
        try (FakeAdbd device = FakeAdbd.open()) {
            device.onShell(argv -> argv.get(0).equals("pidof")
                    ? FakeAdbd.Answer.out("77\n")
                    : FakeAdbd.Answer.out(String.join("\n", AndroidObserveBrokerTests.logLines(10)) + "\n"));
            server.connect(device, DeviceState.DEVICE);
            java.util.Set<String> withoutPanels = new java.util.HashSet<>(dev.lomicontrol.pairing.Scopes.known());
            withoutPanels.remove("panel.create");
            dev.lomicontrol.pairing.Session narrow = broker.session(new dev.lomicontrol.pairing.Grant(
                    true, java.util.Set.of(), withoutPanels, dev.lomicontrol.pairing.AndroidGrant.EVERYTHING));
            String deviceId = calls.listed(device.serial()).path("deviceId").asString();
            assertThat(broker.refused(
                            narrow,
                            "lomi_android_open",
                            BrokerCallsFixture.json(
                                    "workspaceId", calls.workspace(),
                                    "deviceId", deviceId,
                                    "expectedRevision", broker.revision(),
                                    "retryEpoch",
                                            broker.connect(narrow, calls.project)
                                                    .value(),
                                    "requestKey", "narrow-open")))
                    .isEqualTo(dev.lomicontrol.core.ErrorCode.SCOPE_DENIED);

            AndroidCalls.Opened panel = calls.opened(device.serial());
            JsonNode first =
                    calls.logcat(panel, panel.generation(), "packageName", PACKAGE, "minPriority", "I", "limit", 4);
            String cursor = first.at("/data/nextCursor").asString();
            assertThat(calls.logcat(
                                    panel,
                                    panel.generation(),
                                    "packageName",
                                    PACKAGE,
                                    "minPriority",
                                    "E",
                                    "limit",
                                    4,
                                    "cursor",
                                    cursor)
                            .path("code")
                            .asString())
                    .as("another priority")
                    .isEqualTo("CURSOR_EXPIRED");
            JsonNode unknown = calls.logcat(
                    panel,
                    panel.generation(),
                    "packageName",
                    PACKAGE,
                    "minPriority",
                    "I",
                    "limit",
                    4,
                    "cursor",
                    "lc-0");
            assertThat(unknown.path("code").asString()).isEqualTo("CURSOR_EXPIRED");
            assertThat(device.count("logcat"))
                    .as("a cursor never asks the device again")
                    .isEqualTo(1);
        } finally {
            server.run("disconnect");
        }
    }

    @Test
    void aScreenThatDeclaresMorePixelsThanAnyScreenIsRefusedBeforeItsPixelsAreRead() throws IOException {
        try (FakeAdbd device = FakeAdbd.open()) {
            byte[] bomb = pngHeader(100_000, 100_000);
            device.onExec(argv -> bomb);
            server.connect(device, DeviceState.DEVICE);
            AndroidCalls.Opened panel = calls.opened(device.serial());
            JsonNode answer = calls.screenshot(panel, panel.generation());
            assertThat(answer.path("code").asString()).as("%s", answer).isEqualTo("UNSUPPORTED_CAPABILITY");
            assertThat(answer.path("message").asString()).contains("100000x100000", "40000000 pixels");
        } finally {
            server.run("disconnect");
        }
    }

    /** A PNG's signature and IHDR (8-bit RGB, {@code width} x {@code height}) with its CRC, then IEND: no pixels. */
    static byte[] pngHeader(int width, int height) {
        java.nio.ByteBuffer ihdr = java.nio.ByteBuffer.allocate(17);
        ihdr.put("IHDR".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
                .putInt(width)
                .putInt(height);
        ihdr.put((byte) 8).put((byte) 2).put((byte) 0).put((byte) 0).put((byte) 0);
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(ihdr.array());
        java.nio.ByteBuffer png = java.nio.ByteBuffer.allocate(8 + 4 + 17 + 4 + 12);
        png.put(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'});
        png.putInt(13).put(ihdr.array()).putInt((int) crc.getValue());
        png.putInt(0)
                .put("IEND".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
                .putInt(0xae426082);
        return png.array();
    }

    private static long elapsedMs(long started) {
        return (System.nanoTime() - started) / 1_000_000;
    }
}
