package dev.lomicontrol.android;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.OperationId;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * lomi_android_install_apk through the broker's dispatch: an APK imported as an artifact, the
 * admin's decision on the exact APK, then our streamed install through the real adb server to a test
 * device that keeps the bytes it received. They prove the approval, the bytes and the digest through
 * the real adb — not that Android installs anything.
 */
class AndroidInstallBrokerTests extends AndroidBrokerTest {

    static String sha256(byte[] bytes) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    /** Writes {@code bytes} as {@code name} in the project and imports it as an android_apk artifact; its id. */
    String imported(String name, byte[] bytes) throws Exception {
        return imported(broker, calls, name, bytes);
    }

    /** As {@link #imported(String, byte[])}, for another test class's broker and agent. */
    static String imported(BrokerCallsFixture broker, AndroidCalls calls, String name, byte[] bytes) throws Exception {
        Files.write(calls.project.root().resolve(name), bytes);
        JsonNode imported = broker.ok(
                calls.session,
                "lomi_artifact_import",
                json(importing(
                        calls.workspace(), name, bytes, broker.revision(), calls.epoch.value(), "import-" + name)));
        assertThat(imported.path("state").asString()).as("%s", imported).isEqualTo("succeeded");
        return imported.at("/result/artifactId").asString();
    }

    /** The argument pairs of lomi_artifact_import of {@code bytes} as the android_apk {@code name}. */
    static Object[] importing(String workspace, String name, byte[] bytes, String revision, String epoch, String key)
            throws NoSuchAlgorithmException {
        return new Object[] {
            "workspaceId", workspace,
            "relativePath", name,
            "kind", "android_apk",
            "expectedByteLength", (long) bytes.length,
            "expectedSha256", sha256(bytes),
            "expectedRevision", revision,
            "retryEpoch", epoch,
            "requestKey", key
        };
    }

    String install(AndroidCalls.Opened panel, String artifactId, String sha256, String key) {
        return install(calls, panel, artifactId, sha256, key);
    }

    /** The arguments of lomi_android_install_apk for {@code calls}' agent. */
    static String install(AndroidCalls calls, AndroidCalls.Opened panel, String artifactId, String sha256, String key) {
        return json(
                "workspaceId", calls.workspace(),
                "panelId", panel.panelId(),
                "deviceId", panel.deviceId(),
                "generation", panel.generation(),
                "artifactId", artifactId,
                "sha256", sha256,
                "retryEpoch", calls.epoch.value(),
                "requestKey", key);
    }

    static byte[] apk(int size) {
        byte[] bytes = new byte[size];
        new Random(42).nextBytes(bytes);
        bytes[0] = 'P';
        bytes[1] = 'K';
        return bytes;
    }

    @Test
    void anApprovedInstallStreamsTheExactBytesAndARejectedOneSendsNothing() throws Exception {
        try (FakeAdbd device = FakeAdbd.open()) {
            server.connect(device, DeviceState.DEVICE);
            AndroidCalls.Opened panel = calls.opened(device.serial());
            byte[] bytes = apk(300_000);
            String artifact = imported("app.apk", bytes);

            JsonNode rejected = broker.ok(
                    calls.session, "lomi_android_install_apk", install(panel, artifact, sha256(bytes), "install-r"));
            assertThat(rejected.path("state").asString()).as("%s", rejected).isEqualTo("awaiting_user");
            broker.decisions.decide(new OperationId(rejected.path("operationId").asString()), false);
            JsonNode denied =
                    broker.settled(calls.session, rejected.path("operationId").asString(), Duration.ofSeconds(10));
            assertThat(denied.path("errorCode").asString()).as("%s", denied).isEqualTo("SCOPE_DENIED");
            assertThat(device.installs).as("a rejected install sends nothing").isEmpty();

            JsonNode asked = broker.ok(
                    calls.session, "lomi_android_install_apk", install(panel, artifact, sha256(bytes), "install-a"));
            assertThat(asked.path("state").asString()).isEqualTo("awaiting_user");
            broker.decisions.decide(new OperationId(asked.path("operationId").asString()), true);
            JsonNode done =
                    broker.settled(calls.session, asked.path("operationId").asString(), Duration.ofSeconds(30));
            assertThat(done.path("state").asString()).as("%s", done).isEqualTo("succeeded");
            assertThat(done.at("/result/installed").asBoolean()).isTrue();
            assertThat(done.at("/result/sha256").asString()).isEqualTo(sha256(bytes));
            assertThat(device.installs).hasSize(1);
            assertThat(device.installs.get(0))
                    .as("the device received the exact bytes")
                    .isEqualTo(bytes);
        }
    }

    @Test
    void anotherDigestOrAnOldGenerationIsRefusedBeforeTheAdminIsAsked() throws Exception {
        try (FakeAdbd device = FakeAdbd.open()) {
            server.connect(device, DeviceState.DEVICE);
            AndroidCalls.Opened panel = calls.opened(device.serial());
            byte[] bytes = apk(4096);
            String artifact = imported("small.apk", bytes);

            assertThat(broker.refused(
                            calls.session, "lomi_android_install_apk", install(panel, artifact, "0".repeat(64), "i-1")))
                    .isEqualTo(ErrorCode.ARTIFACT_INVALID);
            AndroidCalls.Opened old =
                    new AndroidCalls.Opened(panel.panelId(), panel.deviceId(), "gen-00000000000000ff");
            assertThat(broker.refused(
                            calls.session, "lomi_android_install_apk", install(old, artifact, sha256(bytes), "i-2")))
                    .isEqualTo(ErrorCode.STALE_GENERATION);
            assertThat(device.installs).isEmpty();
        }
    }
}
