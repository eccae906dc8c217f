package dev.lomicontrol.android;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static dev.lomicontrol.broker.BrokerCallsFixture.workspaceOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.operations.ToolHandlers;
import dev.lomicontrol.pairing.AndroidGrant;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.Scopes;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.tools.HostProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The host the broker's dispatch checks a call against (HOST_UNQUALIFIED) is the probe it was given:
 * a test's environment map (an SDK in a temp dir with stand-in {@code adb} and {@code emulator}, a
 * KVM device that is a file it can open) rather than this machine's, and this process's by default.
 * Our dispatch's bookkeeping, not Android behaviour.
 */
class AndroidHostProbeBrokerTests {

    @TempDir
    Path temp;

    @RegisterExtension
    final BrokerCallsFixture broker = BrokerCallsFixture.inTemporaryDirectory();

    @Test
    void anEmulatorToolIsCheckedAgainstTheGivenSdkAndKvmNotThisMachines() throws IOException {
        Path sdk = temp.resolve("sdk");
        script(sdk.resolve("platform-tools/adb"));
        script(sdk.resolve("emulator/emulator"));
        Path kvm = Files.writeString(temp.resolve("kvm"), "");
        broker.host = () -> new HostProbe(Map.of("ANDROID_HOME", sdk.toString()), Optional.empty(), temp, kvm);
        Session session = broker.session(new Grant(true, Set.of(), Scopes.known(), AndroidGrant.EVERYTHING));
        Project project = broker.project("app");

        String stop = json(
                "workspaceId", workspaceOf(project),
                "panelId", "p",
                "deviceId", java.util.UUID.randomUUID().toString(),
                "generation", "g1",
                "expectedRevision", broker.revision(),
                "retryEpoch", broker.connect(session, project).value(),
                "requestKey", "k1");

        // the stand-in SDK qualifies the host: the call reaches lomi_android_stop, which finds no such panel
        JsonNode reached = broker.call(session, "lomi_android_stop", stop);
        assertThat(reached.path("code").asString()).as(reached.toString()).isEqualTo("TARGET_NOT_FOUND");

        // the same SDK without its KVM device: the host check names what is missing
        Path noKvm = temp.resolve("no-kvm");
        broker.host = () -> new HostProbe(Map.of("ANDROID_HOME", sdk.toString()), Optional.empty(), temp, noKvm);
        JsonNode refused = broker.call(session, "lomi_android_stop", stop);
        assertThat(refused.path("code").asString()).as(refused.toString()).isEqualTo("HOST_UNQUALIFIED");
        assertThat(refused.path("message").asString()).contains(noKvm + " is absent");
    }

    @Test
    void aHostWithoutAdbRefusesTheDeviceToolsWhateverThisMachineHas() throws IOException {
        Path bin = Files.createDirectories(temp.resolve("bin"));
        broker.host = () -> new HostProbe(Map.of("PATH", bin.toString()), Optional.empty(), temp, temp.resolve("kvm"));
        Session session = broker.session(new Grant(true, Set.of(), Scopes.known(), AndroidGrant.EVERYTHING));
        Project project = broker.project("app");

        assertThat(broker.refused(session, "lomi_android_list", json("workspaceId", workspaceOf(project))))
                .isEqualTo(ErrorCode.HOST_UNQUALIFIED);
        assertThat(broker.call(session, "lomi_android_list", json("workspaceId", workspaceOf(project)))
                        .path("message")
                        .asString())
                .contains("adb was not found");
    }

    @Test
    void theDispatchByDefaultProbesThisProcess() {
        assertThat(new ToolHandlers().host()).isEqualTo(HostProbe.current());
        assertThat(broker.calls.host()).isEqualTo(HostProbe.current());
    }

    private static void script(Path path) throws IOException {
        Files.createDirectories(path.getParent());
        Files.writeString(path, "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
