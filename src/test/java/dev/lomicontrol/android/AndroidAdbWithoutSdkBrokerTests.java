package dev.lomicontrol.android;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.tools.HostProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A host with adb on its PATH and no Android SDK, as the dispatch's host probe sees it: the device
 * tools work against a device the real adb server sees, and the emulator, setup and management tools
 * answer HOST_UNQUALIFIED naming the SDK that is missing — before anything runs. Our host check and
 * bookkeeping against the real adb, not Android behaviour.
 */
class AndroidAdbWithoutSdkBrokerTests extends AndroidBrokerTest {

    @Test
    void theDeviceToolsWorkAndTheEmulatorSetupAndManagementToolsNameTheMissingSdk() throws IOException {
        Path bin = Files.createDirectories(scratch.resolve("path-with-adb-only"));
        Files.deleteIfExists(bin.resolve("adb"));
        Files.createSymbolicLink(bin.resolve("adb"), server.adb());
        Path home = Files.createDirectories(scratch.resolve("home-without-sdk"));
        broker.host = () -> new HostProbe(Map.of("PATH", bin.toString()), Optional.empty(), home, home.resolve("kvm"));

        try (FakeAdbd device = FakeAdbd.open()) {
            byte[] dump = AndroidObserveBrokerTests.loginDump();
            device.onExec(argv -> argv.get(0).equals("uiautomator") ? dump : new byte[0]);
            server.connect(device, DeviceState.DEVICE);
            AndroidCalls.Opened panel = calls.opened(device.serial());
            JsonNode snapshot = calls.snapshot(panel, panel.generation());
            assertThat(snapshot.path("status").asString()).as("%s", snapshot).isEqualTo("ok");

            String any = UUID.randomUUID().toString();
            Map<String, String> needSdk = Map.of(
                    "lomi_android_start",
                    json(
                            "workspaceId", calls.workspace(),
                            "panelId", panel.panelId(),
                            "deviceId", any,
                            "expectedRevision", broker.revision(),
                            "retryEpoch", calls.epoch.value(),
                            "requestKey", "start-1"),
                    "lomi_android_setup_plan",
                    json(
                            "workspaceId",
                            calls.workspace(),
                            "action",
                            JsonNodeFactory.instance.objectNode().put("type", "inventory")));
            needSdk.forEach((tool, arguments) -> {
                JsonNode refused = broker.call(calls.session, tool, arguments);
                assertThat(refused.path("code").asString())
                        .as("%s: %s", tool, refused)
                        .isEqualTo("HOST_UNQUALIFIED");
                assertThat(refused.path("message").asString())
                        .as("%s names the SDK", tool)
                        .containsIgnoringCase("sdk");
            });
        }
    }
}
