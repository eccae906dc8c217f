package dev.lomicontrol.android;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.tools.HostProbe;
import java.io.IOException;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * lomi_android_start and lomi_android_stop through the broker's dispatch against the real adb server
 * and a stand-in SDK {@code emulator} ({@link StandInEmulator}: a test device and console that
 * register with that server as {@code emulator-N}). The console's auth token is only where the real
 * adb client reads it (its own HOME), so a stop the console obeyed went through {@code adb emu kill}.
 * Our operations, processes and bookkeeping through the real adb, not the SDK's emulator.
 */
class AndroidRuntimeBrokerTests extends AndroidBrokerTest {

    static final String AVD = "Pixel_8_API_35";
    static final String TOKEN = "runtime-token-51c2";
    static final Duration BOOTS = Duration.ofSeconds(60);

    private final List<Path> standIns = new ArrayList<>();
    private Path sdk = Path.of("unset");

    @BeforeEach
    void anSdkWithAStandInEmulatorAndOneAvd() throws IOException {
        Path avds = Files.createDirectories(scratch.resolve("avds"));
        Path folder = Files.createDirectories(avds.resolve(AVD + ".avd"));
        Files.writeString(avds.resolve(AVD + ".ini"), "avd.ini.encoding=UTF-8\npath=" + folder + "\n");
        Files.writeString(folder.resolve("config.ini"), "avd.ini.displayname=Pixel 8 API 35\n");
        broker.androidDevices = () -> new AndroidDevices(server.bridge(), new AvdDirectory(avds));
        Files.writeString(server.home().resolve(".emulator_console_auth_token"), TOKEN + "\n");
        sdk = Files.createTempDirectory(scratch, "sdk-");
        Path adb = Files.createDirectories(sdk.resolve("platform-tools")).resolve("adb");
        Files.copy(server.adb(), adb);
        Path agentHome = Files.createDirectories(sdk.resolve("home")); // no console token here
        Path kvm = Files.writeString(sdk.resolve("kvm"), "");
        broker.host = () -> new HostProbe(Map.of("ANDROID_HOME", sdk.toString()), Optional.empty(), agentHome, kvm);
    }

    @AfterEach
    void nothingIsLeftRunning() throws Exception {
        for (Path dir : standIns) {
            for (String file : List.of("leader.pid", "child.pid")) {
                if (Files.exists(dir.resolve(file))) {
                    long pid =
                            Long.parseLong(Files.readString(dir.resolve(file)).strip());
                    new ProcessBuilder("kill", "-s", "KILL", "--", file.equals("leader.pid") ? "-" + pid : "" + pid)
                            .start()
                            .waitFor(5, TimeUnit.SECONDS);
                }
            }
        }
    }

    /** The stand-in emulator of this test: it boots after {@code bootMillis} (never when negative). */
    Path standIn(long bootMillis) throws IOException {
        Path dir = Files.createDirectories(sdk.resolve("standin"));
        Path emulator = Files.createDirectories(sdk.resolve("emulator")).resolve("emulator");
        Files.writeString(emulator, StandInEmulator.script(dir, "normal", bootMillis, TOKEN), StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(emulator, PosixFilePermissions.fromString("rwx------"));
        standIns.add(dir);
        return dir;
    }

    /** A panel opened on the AVD (not running: no generation yet). */
    AndroidCalls.Opened panelOnTheAvd() {
        String deviceId = calls.listed(AVD).path("deviceId").asString();
        JsonNode opened = calls.open(deviceId, "open-avd");
        assertThat(opened.at("/data/state").asString()).as("%s", opened).isEqualTo("succeeded");
        return new AndroidCalls.Opened(opened.at("/data/result/panelId").asString(), deviceId, "");
    }

    String start(AndroidCalls.Opened panel, String key) {
        return json(
                "workspaceId", calls.workspace(),
                "panelId", panel.panelId(),
                "deviceId", panel.deviceId(),
                "expectedRevision", broker.revision(),
                "retryEpoch", calls.epoch.value(),
                "requestKey", key);
    }

    String stop(AndroidCalls.Opened panel, String generation, String key) {
        return json(
                "workspaceId", calls.workspace(),
                "panelId", panel.panelId(),
                "deviceId", panel.deviceId(),
                "generation", generation,
                "expectedRevision", broker.revision(),
                "retryEpoch", calls.epoch.value(),
                "requestKey", key);
    }

    JsonNode settled(JsonNode operation, Duration within) {
        return broker.settled(calls.session, operation.path("operationId").asString(), within);
    }

    static long pid(Path dir, String file) throws IOException {
        return Long.parseLong(Files.readString(dir.resolve(file)).strip());
    }

    static void assertGone(long pid) {
        await().atMost(Duration.ofSeconds(15))
                .until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
    }

    @Test
    void startBootsMintsAGenerationAndStopThroughAdbEmuKillEndsIt() throws IOException {
        Path dir = standIn(300);
        AndroidCalls.Opened panel = panelOnTheAvd();

        JsonNode started = broker.ok(calls.session, "lomi_android_start", start(panel, "start-1"));
        assertThat(started.path("state").asString()).as("%s", started).isIn("running", "succeeded");
        JsonNode booted = settled(started, BOOTS);
        assertThat(booted.path("state").asString()).as("%s", booted).isEqualTo("succeeded");
        assertThat(booted.at("/result/ready").asBoolean()).isTrue();
        String generation = booted.at("/result/generation").asString();
        assertThat(generation).isNotBlank();
        JsonNode listed = calls.listed(AVD);
        assertThat(listed.path("name").asString()).contains("emulator-", "adb: device");
        assertThat(listed.path("generation").asString()).isEqualTo(generation);
        assertThat(listed.path("deviceId").asString()).isEqualTo(panel.deviceId());

        JsonNode snapshot = calls.snapshot(panel, generation);
        assertThat(snapshot.path("status").asString()).as("%s", snapshot).isEqualTo("ok");
        assertThat(broker.refused(calls.session, "lomi_android_start", start(panel, "start-2")))
                .as("the AVD is running already")
                .isEqualTo(ErrorCode.TARGET_BUSY);

        JsonNode stopped = broker.ok(calls.session, "lomi_android_stop", stop(panel, generation, "stop-1"));
        assertThat(stopped.path("state").asString()).as("%s", stopped).isEqualTo("succeeded");
        assertThat(stopped.at("/result/stopped").asBoolean()).isTrue();
        assertThat(Files.readAllLines(dir.resolve("console")))
                .as("the console obeyed the token only adb's HOME holds")
                .containsSubsequence("auth " + TOKEN, "kill");
        assertGone(pid(dir, "leader.pid"));
        assertGone(pid(dir, "child.pid"));

        assertThat(calls.snapshot(panel, generation).path("code").asString()).isEqualTo("STALE_GENERATION");
        assertThat(broker.refused(calls.session, "lomi_android_stop", stop(panel, generation, "stop-2")))
                .isEqualTo(ErrorCode.STALE_GENERATION);
    }

    @Test
    void aRetriedStartAnswersTheSameOperationAndBootsOnce() throws IOException {
        Path dir = standIn(1500);
        AndroidCalls.Opened panel = panelOnTheAvd();

        JsonNode first = broker.ok(calls.session, "lomi_android_start", start(panel, "start-r"));
        JsonNode again = broker.ok(calls.session, "lomi_android_start", start(panel, "start-r"));
        assertThat(again.path("operationId").asString())
                .isEqualTo(first.path("operationId").asString());
        assertThat(broker.refused(calls.session, "lomi_android_start", start(panel, "start-other")))
                .as("a second start while it boots")
                .isEqualTo(ErrorCode.TARGET_BUSY);
        JsonNode booted = settled(first, BOOTS);
        assertThat(booted.path("state").asString()).as("%s", booted).isEqualTo("succeeded");
        JsonNode late = broker.ok(calls.session, "lomi_android_start", start(panel, "start-r"));
        assertThat(late.path("operationId").asString())
                .isEqualTo(first.path("operationId").asString());
        assertThat(late.at("/result/generation").asString())
                .isEqualTo(booted.at("/result/generation").asString());
        assertThat(Files.readAllLines(dir.resolve("starts"))).as("one boot").hasSize(1);

        JsonNode stopped = broker.ok(
                calls.session,
                "lomi_android_stop",
                stop(panel, booted.at("/result/generation").asString(), "stop-r"));
        assertThat(stopped.path("state").asString()).as("%s", stopped).isEqualTo("succeeded");
        assertGone(pid(dir, "leader.pid"));
    }

    @Test
    void aBootThatNeverCompletesFailsByItsDeadlineAndLeavesNoProcess() throws IOException {
        Path dir = standIn(-1);
        broker.androidBootDeadline = Duration.ofSeconds(4);
        AndroidCalls.Opened panel = panelOnTheAvd();

        JsonNode started = broker.ok(calls.session, "lomi_android_start", start(panel, "start-never"));
        JsonNode failed = settled(started, Duration.ofSeconds(40));
        assertThat(failed.path("state").asString()).as("%s", failed).isEqualTo("failed");
        assertThat(failed.path("errorCode").asString()).as("%s", failed).isEqualTo("DEADLINE_EXCEEDED");
        assertThat(failed.path("effectState").asString()).isEqualTo("none");
        assertGone(pid(dir, "leader.pid"));
        assertGone(pid(dir, "child.pid"));
        assertThat(calls.listed(AVD).path("name").asString()).endsWith("(AVD, not running)");
    }

    @Test
    void aDeviceThatIsNotAnAvdCannotBeStartedAndOnlyWhatThisBrokerStartedIsStopped() throws Exception {
        standIn(0);
        try (FakeAdbd device = FakeAdbd.open()) {
            server.connect(device, DeviceState.DEVICE);
            AndroidCalls.Opened phone = calls.opened(device.serial());
            JsonNode start = broker.call(calls.session, "lomi_android_start", start(phone, "start-phone"));
            assertThat(start.path("code").asString()).as("%s", start).isEqualTo("UNSUPPORTED_CAPABILITY");
            JsonNode stop =
                    broker.call(calls.session, "lomi_android_stop", stop(phone, phone.generation(), "stop-phone"));
            assertThat(stop.path("code").asString()).as("%s", stop).isEqualTo("UNSUPPORTED_CAPABILITY");
            assertThat(stop.path("message").asString()).contains("not started by this broker");
        }
    }
}
