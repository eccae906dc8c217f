package dev.lomicontrol.android.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.tools.HostProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Android feature's emulator engine is built from the host probe the dispatch checks calls
 * against (a test's stand-in SDK here), not this machine's, and read anew per call. Our wiring, not
 * Android behaviour.
 */
class AndroidEmulatorsTests {

    @TempDir
    Path temp;

    @RegisterExtension
    final BrokerCallsFixture broker = BrokerCallsFixture.inTemporaryDirectory();

    @Test
    void theEngineStartsTheEmulatorOfTheSdkTheDispatchProbes() throws IOException {
        Path sdk = temp.resolve("sdk");
        Path emulator = script(sdk.resolve("emulator/emulator"));
        broker.host = () -> new HostProbe(Map.of("ANDROID_HOME", sdk.toString()), Optional.empty(), temp, temp);

        assertThat(feature().emulators.engine().argv("Pixel_8_API_35", 5554))
                .containsSequence("setsid", emulator.toString(), "-avd", "Pixel_8_API_35", "-port", "5554");
    }

    @Test
    void aProbedHostWithoutTheEmulatorIsUnqualifiedWithTheInstallCommand() throws IOException {
        Path bin = Files.createDirectories(temp.resolve("bin"));
        broker.host = () -> new HostProbe(Map.of("PATH", bin.toString()), Optional.empty(), temp, temp);

        assertThatThrownBy(() -> feature().emulators.engine())
                .isInstanceOfSatisfying(
                        LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.HOST_UNQUALIFIED))
                .hasMessageContaining("sdkmanager 'emulator'");
    }

    private AndroidFeature feature() {
        return broker.features.stream()
                .filter(AndroidFeature.class::isInstance)
                .map(AndroidFeature.class::cast)
                .findFirst()
                .orElseThrow();
    }

    private static Path script(Path path) throws IOException {
        Files.createDirectories(path.getParent());
        Files.writeString(path, "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
        return path;
    }
}
