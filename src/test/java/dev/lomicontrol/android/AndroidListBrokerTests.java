package dev.lomicontrol.android;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static dev.lomicontrol.broker.BrokerCallsFixture.workspaceOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.pairing.AndroidGrant;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.Scopes;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Project;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code lomi_android_list} through the broker's dispatch (binding, scope, host check, handler,
 * encoding) against the real adb server (private to this class) with test devices attached — one
 * authorized, one that has not accepted the host's key, one registered as an emulator of an AVD —
 * and AVD files in a temp AVD home. Our bookkeeping against the real adb, not Android behaviour.
 */
class AndroidListBrokerTests {

    static final String UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

    @TempDir
    static Path scratch;

    static PrivateAdbServer server;

    @RegisterExtension
    final BrokerCallsFixture broker = BrokerCallsFixture.inTemporaryDirectory();

    Path avdHome;
    Session session;
    Project project;

    @BeforeAll
    static void startServer() throws IOException {
        server = PrivateAdbServer.start(scratch);
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @BeforeEach
    void pointTheBrokerAtTheTestDevices() throws IOException {
        avdHome = Files.createDirectories(scratch.resolve("avd-" + System.nanoTime()));
        broker.androidDevices = () -> new AndroidDevices(server.bridge(), new AvdDirectory(avdHome));
        project = broker.project("p1");
        session = broker.session(new Grant(true, Set.of(), Scopes.known(), AndroidGrant.EVERYTHING));
    }

    @Test
    void listsAttachedDevicesWithTheirStateARunningEmulatorAsItsAvdAndAStoppedAvd() throws Exception {
        avd("Pixel_8", "Pixel 8");
        avd("Tablet", "Tablet");
        try (FakeAdbd phone = FakeAdbd.open();
                FakeAdbd locked = FakeAdbd.requiringAuth();
                FakeAdbd emulator = FakeAdbd.open().property("ro.boot.qemu.avd_name", "Pixel_8")) {
            server.connect(phone, DeviceState.DEVICE);
            server.connect(locked, DeviceState.UNAUTHORIZED);
            String emulatorSerial = server.registerEmulator(emulator);

            JsonNode envelope = broker.call(session, "lomi_android_list", json("workspaceId", workspaceOf(project)));
            conformsToThePublishedOutputSchema(envelope);
            JsonNode first = envelope.path("data");
            assertThat(first.path("hostQualified").asBoolean()).isTrue();
            assertThat(first.path("workspaceId").asString()).isEqualTo(workspaceOf(project));
            Map<String, JsonNode> byName = byName(first);
            assertThat(byName)
                    .containsKeys(
                            phone.serial() + " (adb: device)",
                            locked.serial() + " (adb: unauthorized)",
                            "Pixel_8 (" + emulatorSerial + ", adb: device)",
                            "Tablet (AVD, not running)");
            assertThat(byName.keySet()).noneMatch(name -> name.startsWith("Pixel_8 (AVD"));
            assertThat(byName.get("Tablet (AVD, not running)").path("phase").asString())
                    .isEqualTo("stopped");
            assertThat(byName.get("Tablet (AVD, not running)")
                            .path("processAlive")
                            .asBoolean())
                    .isFalse();
            assertThat(byName.get(phone.serial() + " (adb: device)")
                            .path("phase")
                            .asString())
                    .isEqualTo("running");
            for (JsonNode device : first.path("devices")) {
                assertThat(device.path("deviceId").asString()).matches(UUID);
            }
            assertThat(emulator.shellCommands()).contains(List.of("getprop", "ro.boot.qemu.avd_name"));
            assertThat(list().path("devicesRevision").asString())
                    .as("the same devices, the same revision")
                    .isEqualTo(first.path("devicesRevision").asString());

            locked.allowPendingKeys();
            server.awaitState(locked.serial(), DeviceState.DEVICE);
            JsonNode allowed = list();
            assertThat(byName(allowed)).containsKey(locked.serial() + " (adb: device)");
            assertThat(byName(allowed).get(locked.serial() + " (adb: device)").path("deviceId"))
                    .as("the same device keeps its id")
                    .isEqualTo(
                            byName.get(locked.serial() + " (adb: unauthorized)").path("deviceId"));
            assertThat(allowed.path("devicesRevision").asString())
                    .isNotEqualTo(first.path("devicesRevision").asString());
        } finally {
            server.run("disconnect");
        }
    }

    @Test
    void anEmulatorThatStopsAnsweringIsListedWithoutItsAvdWithinTheDeadline() throws IOException {
        avd("Pixel_8", "Pixel 8");
        try (FakeAdbd emulator = FakeAdbd.open().property("ro.boot.qemu.avd_name", "Pixel_8")) {
            String serial = server.registerEmulator(emulator);
            emulator.stall();
            long start = System.nanoTime();
            Map<String, JsonNode> byName = byName(list());
            long tookMs = (System.nanoTime() - start) / 1_000_000;
            assertThat(byName).containsKeys(serial + " (adb: device)", "Pixel_8 (AVD, not running)");
            assertThat(tookMs)
                    .as("one unanswered question of at most AndroidDevices.AVD_NAME")
                    .isLessThan(AndroidDevices.AVD_NAME.toMillis() + 2_000);
        } finally {
            server.run("disconnect");
        }
    }

    @Test
    void withNoAdbServerAndNoAdbToStartOneTheListSaysSo() throws IOException {
        int nothing = PrivateAdbServer.freePort();
        broker.androidDevices = () -> new AndroidDevices(
                new AdbBridge(nothing, java.util.Optional.empty(), AdbTimeouts.DEFAULT), new AvdDirectory(avdHome));
        JsonNode envelope = broker.call(session, "lomi_android_list", json("workspaceId", workspaceOf(project)));
        assertThat(envelope.path("code").asString()).isEqualTo("HOST_UNQUALIFIED");
        assertThat(envelope.path("message").asString())
                .contains("no adb server listens on 127.0.0.1:" + nothing)
                .contains("apt-get install adb");
    }

    @Test
    void atMostSixteenDevicesAreListed() throws IOException {
        for (int i = 0; i < 20; i++) {
            avd(String.format("Avd_%02d", i), "Avd " + i);
        }
        assertThat(list().path("devices")).hasSize(16);
    }

    /** The envelope validates against lomi_android_list's published outputSchema (the helper's own validator, as GitReferenceCallsTests does). */
    private static void conformsToThePublishedOutputSchema(JsonNode envelope) throws ReflectiveOperationException {
        assertThat(envelope.path("status").asString()).as("%s", envelope).isEqualTo("ok");
        var validator = Class.forName("dev.lomicontrol.mcp.SchemaValidator")
                .getDeclaredMethod("firstViolation", JsonNode.class, JsonNode.class, String.class);
        validator.setAccessible(true);
        assertThat((java.util.Optional<?>) validator.invoke(
                        null, dev.lomicontrol.android.api.AndroidSpecs.LIST.outputSchema(), envelope, "result"))
                .as("%s", envelope)
                .isEmpty();
    }

    private JsonNode list() {
        return broker.ok(session, "lomi_android_list", json("workspaceId", workspaceOf(project)));
    }

    private static Map<String, JsonNode> byName(JsonNode listing) {
        Map<String, JsonNode> byName = new HashMap<>();
        List<String> names = new ArrayList<>();
        for (JsonNode device : listing.path("devices")) {
            byName.put(device.path("name").asString(), device);
            names.add(device.path("name").asString());
        }
        assertThat(names).doesNotHaveDuplicates();
        return byName;
    }

    /** An AVD as avdmanager writes one: {@code NAME.ini} pointing at {@code NAME.avd/} with its config.ini. */
    private void avd(String name, String displayName) throws IOException {
        UserSdk.writeAvd(avdHome, name, displayName);
    }
}
