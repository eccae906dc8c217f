package dev.lomicontrol.android;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.OperationId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * lomi_android_device_manage through the broker's dispatch against a temporary SDK whose avdmanager
 * is a stand-in script writing real-format AVD files ({@link StandInSdk}): our argv, our checked
 * config.ini edits, the revision and confirmation checks and the admin's approval — not the real
 * avdmanager's behaviour.
 */
class AndroidDeviceManageBrokerTests extends StandInSdkBrokerTest {

    @BeforeEach
    void anInstalledImage() throws Exception {
        sdk.installed("system-images;android-34;google_apis;x86_64", "14");
    }

    JsonNode inventory() {
        return broker.ok(
                        calls.session,
                        "lomi_android_setup_plan",
                        json("workspaceId", calls.workspace(), "action", node("type", "inventory")))
                .path("setup");
    }

    static JsonNode node(Object... pairs) {
        return BrokerCallsFixture.JSON.readTree(json(pairs));
    }

    static JsonNode hardware(long ramMib) {
        return node("ramMib", ramMib, "cpuCount", 2L, "dataGib", 6L, "gpu", "host", "quickBoot", true);
    }

    String manage(JsonNode action, String key) {
        return json(
                "workspaceId",
                calls.workspace(),
                "action",
                action,
                "retryEpoch",
                calls.epoch.value(),
                "requestKey",
                key);
    }

    /** Asks, then the admin decides; the settled operation. */
    JsonNode decided(JsonNode action, String key, boolean approve) {
        JsonNode asked = broker.ok(calls.session, "lomi_android_device_manage", manage(action, key));
        assertThat(asked.path("state").asString()).as("%s", asked).isEqualTo("awaiting_user");
        broker.decisions.decide(new OperationId(asked.path("operationId").asString()), approve);
        return broker.settled(calls.session, asked.path("operationId").asString(), Duration.ofSeconds(30));
    }

    /** A delete or wipe of one AVD at the current devices revision, confirmed by the given name. */
    JsonNode confirmed(String type, String deviceId, String confirmation) {
        return node(
                "type",
                type,
                "expectedDevicesRevision",
                inventory().path("devicesRevision").asString(),
                "deviceId",
                deviceId,
                "confirmation",
                confirmation);
    }

    JsonNode create(String name, String key, boolean approve) {
        return decided(
                node(
                        "type",
                        "create",
                        "expectedDevicesRevision",
                        inventory().path("devicesRevision").asString(),
                        "name",
                        name,
                        "image",
                        "system-images;android-34;google_apis;x86_64",
                        "profile",
                        "pixel_7",
                        "hardware",
                        hardware(4096)),
                key,
                approve);
    }

    @Test
    void anApprovedCreateRunsAvdmanagerAndTheAvdIsListedARejectedOneCreatesNothing() throws Exception {
        JsonNode rejected = create("Rejected", "c-0", false);
        assertThat(rejected.path("errorCode").asString()).as("%s", rejected).isEqualTo("SCOPE_DENIED");
        assertThat(sdk.argv()).as("a rejected create runs nothing").isEmpty();

        JsonNode done = create("Pixel_7", "c-1", true);

        assertThat(done.path("state").asString()).as("%s", done).isEqualTo("succeeded");
        assertThat(sdk.argv())
                .containsExactly("avdmanager create avd -n Pixel_7 -k system-images;android-34;google_apis;x86_64"
                        + " -d pixel_7 -p " + sdk.avdHome.resolve("Pixel_7.avd"));
        JsonNode device = inventory().at("/devices/0");
        assertThat(device.path("name").asString()).isEqualTo("Pixel_7");
        assertThat(device.path("image").asString()).isEqualTo("system-images;android-34;google_apis;x86_64");
        assertThat(device.path("imageRevision").asString()).isEqualTo("14");
        assertThat(device.at("/hardware/ramMib").asLong())
                .as("the hardware written into config.ini")
                .isEqualTo(4096);
        assertThat(device.path("deviceId").asString())
                .isEqualTo(done.at("/result/deviceId").asString());
        assertThat(calls.list().path("devices").toString()).contains("Pixel_7 (AVD, not running)");
    }

    @Test
    void aModifyWithAStaleRevisionIsRefusedAndConfigIniIsUnchanged() throws Exception {
        create("Pixel_7", "c-1", true);
        String revision = inventory().path("devicesRevision").asString();
        String deviceId = inventory().at("/devices/0/deviceId").asString();
        Path config = sdk.avdHome.resolve("Pixel_7.avd/config.ini");
        Files.writeString(config, Files.readString(config) + "hw.keyboard=yes\n");
        String before = Files.readString(config);

        JsonNode stale = node(
                "type",
                "modify",
                "expectedDevicesRevision",
                revision,
                "deviceId",
                deviceId,
                "name",
                "Pixel 7",
                "profile",
                "pixel_7",
                "hardware",
                hardware(8192));
        assertThat(broker.refused(calls.session, "lomi_android_device_manage", manage(stale, "m-1")))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(Files.readString(config)).isEqualTo(before);

        ((tools.jackson.databind.node.ObjectNode) stale)
                .put(
                        "expectedDevicesRevision",
                        inventory().path("devicesRevision").asString());
        JsonNode done = decided(stale, "m-2", true);
        assertThat(done.path("state").asString()).as("%s", done).isEqualTo("succeeded");
        assertThat(Files.readString(config))
                .contains("hw.ramSize=8192M", "avd.ini.displayname=Pixel 7", "hw.keyboard=yes", "AvdId=Pixel_7");
    }

    @Test
    void deleteNeedsTheExactNameAndARunningAvdIsNeitherWipedNorDeleted() throws Exception {
        create("Pixel_7", "c-1", true);
        String deviceId = inventory().at("/devices/0/deviceId").asString();
        JsonNode wrongName = confirmed("delete", deviceId, "pixel_7");
        assertThat(broker.refused(calls.session, "lomi_android_device_manage", manage(wrongName, "d-1")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);

        Path lock = Files.writeString(sdk.avdHome.resolve("Pixel_7.avd/hardware-qemu.ini.lock"), "");
        JsonNode wipe = confirmed("wipe", deviceId, "Pixel_7");
        assertThat(broker.refused(calls.session, "lomi_android_device_manage", manage(wipe, "w-1")))
                .as("an emulator holds it")
                .isEqualTo(ErrorCode.TARGET_BUSY);
        Files.delete(lock);

        JsonNode delete = confirmed("delete", deviceId, "Pixel_7");
        JsonNode done = decided(delete, "d-2", true);
        assertThat(done.path("state").asString()).as("%s", done).isEqualTo("succeeded");
        assertThat(sdk.argv()).last().isEqualTo("avdmanager delete avd -n Pixel_7");
        assertThat(inventory().path("devices")).isEmpty();
    }

    @Test
    void anAvdTheAdbServerListsAsARunningEmulatorIsNotDeleted() throws Exception {
        create("Pixel_7", "c-1", true);
        String deviceId = inventory().at("/devices/0/deviceId").asString();
        try (FakeAdbd emulator = FakeAdbd.open().property("ro.boot.qemu.avd_name", "Pixel_7")) {
            server.registerEmulator(emulator);
            JsonNode delete = confirmed("delete", deviceId, "Pixel_7");

            assertThat(broker.refused(calls.session, "lomi_android_device_manage", manage(delete, "d-1")))
                    .isEqualTo(ErrorCode.TARGET_BUSY);
        }
        assertThat(sdk.argv()).noneMatch(line -> line.startsWith("avdmanager delete"));
        assertThat(sdk.avdHome.resolve("Pixel_7.ini")).exists();
    }

    @Test
    void anOperationLinuxHasNoEquivalentForAnswersUnsupported() {
        JsonNode rollback = node("type", "rollback_package", "packageId", "emulator", "expectedManifestRevision", "m1");
        JsonNode envelope = broker.call(calls.session, "lomi_android_device_manage", manage(rollback, "r-1"));
        assertThat(envelope.path("code").asString()).as("%s", envelope).isEqualTo("UNSUPPORTED_CAPABILITY");
        assertThat(envelope.path("message").asString()).contains("rollback_package");
    }
}
