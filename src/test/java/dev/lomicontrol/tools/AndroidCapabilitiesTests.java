package dev.lomicontrol.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each Android capability probed on its own, on host layouts built in a temp dir (stand-in adb,
 * emulator, sdkmanager and avdmanager scripts; a KVM device that is a plain file): an answer names
 * exactly what its capability lacks, and nothing another capability needs.
 */
class AndroidCapabilitiesTests {

    @TempDir
    Path temp;

    @Test
    void withoutAdbDeviceAccessNamesAdbWhereItWasLookedForAndHowToInstallIt() throws IOException {
        HostProbe bare =
                host(Map.of("PATH", Files.createDirectories(temp.resolve("bin")).toString()));
        String reason =
                AndroidCapabilities.missing(HostNeed.ANDROID_DEVICES, bare).orElseThrow();
        assertThat(reason)
                .startsWith("Android device access (observation and input over adb) is not available on this host")
                .contains("adb was not found")
                .contains("$ANDROID_HOME/platform-tools/adb")
                .contains("apt-get install adb")
                .doesNotContain("emulator")
                .doesNotContain("kvm");
    }

    @Test
    void adbWithoutAnSdkServesDevicesAndNamesTheSdkForTheEmulatorSetupAndManagement() throws IOException {
        Path bin = temp.resolve("bin");
        script(bin.resolve("adb"));
        HostProbe adbOnly = host(Map.of("PATH", bin.toString()));

        assertThat(AndroidCapabilities.missing(HostNeed.ANDROID_DEVICES, adbOnly))
                .isEmpty();
        assertThat(AndroidCapabilities.missing(HostNeed.ANDROID_EMULATOR, adbOnly)
                        .orElseThrow())
                .contains("the Android SDK's emulator was not found")
                .doesNotContain("adb was not found");
        assertThat(AndroidCapabilities.missing(HostNeed.ANDROID_SETUP, adbOnly).orElseThrow())
                .startsWith("Android SDK setup is not available")
                .contains("no Android SDK was found ($ANDROID_HOME, $ANDROID_SDK_ROOT, ~/Android/Sdk)")
                .contains("'sdkmanager'");
        assertThat(AndroidCapabilities.missing(HostNeed.ANDROID_MANAGE, adbOnly).orElseThrow())
                .contains("'avdmanager'");
    }

    @Test
    void aFullSdkWithUsableKvmHasEveryCapabilityAndAnUnusableKvmIsNamedForTheEmulatorAlone() throws IOException {
        Path sdk = temp.resolve("sdk");
        script(sdk.resolve("platform-tools/adb"));
        script(sdk.resolve("emulator/emulator"));
        script(sdk.resolve("cmdline-tools/latest/bin/sdkmanager"));
        script(sdk.resolve("cmdline-tools/12.0/bin/avdmanager"));
        Path kvm = Files.writeString(temp.resolve("kvm"), "");
        HostProbe full = new HostProbe(Map.of("ANDROID_HOME", sdk.toString()), Optional.empty(), temp, kvm);

        for (HostNeed need : HostNeed.values()) {
            if (need.android()) {
                assertThat(AndroidCapabilities.missing(need, full))
                        .as(need.name())
                        .isEmpty();
            }
        }
        assertThat(full.cmdlineTool("avdmanager")).contains(sdk.resolve("cmdline-tools/12.0/bin/avdmanager"));
        assertThat(full.emulator()).contains(sdk.resolve("emulator/emulator"));
        assertThat(full.adb()).contains(sdk.resolve("platform-tools/adb"));

        HostProbe noKvm =
                new HostProbe(Map.of("ANDROID_HOME", sdk.toString()), Optional.empty(), temp, temp.resolve("no-kvm"));
        assertThat(AndroidCapabilities.missing(HostNeed.ANDROID_EMULATOR, noKvm).orElseThrow())
                .contains(temp.resolve("no-kvm") + " is absent");
        assertThat(AndroidCapabilities.missing(HostNeed.ANDROID_DEVICES, noKvm)).isEmpty();

        Files.setPosixFilePermissions(kvm, PosixFilePermissions.fromString("r--------"));
        if (!Files.isWritable(kvm)) { // root writes any file: the permission case is seen by other users
            assertThat(AndroidCapabilities.missing(HostNeed.ANDROID_EMULATOR, full)
                            .orElseThrow())
                    .contains("is not readable and writable by this user");
        }
    }

    @Test
    void anSdkWithoutCommandLineToolsSaysWhereTheyWereLookedFor() throws IOException {
        Path sdk = Files.createDirectories(temp.resolve("sdk/platform-tools")).getParent();
        HostProbe partial = host(Map.of("ANDROID_SDK_ROOT", sdk.toString()));
        assertThat(AndroidCapabilities.missing(HostNeed.ANDROID_MANAGE, partial).orElseThrow())
                .contains("the SDK at " + sdk + " has no avdmanager (cmdline-tools/latest/bin");
    }

    @Test
    void everyAndroidToolAnswersExactlyWhatItsCapabilityLacks() {
        for (ToolSpec<?> spec : dev.lomicontrol.catalog.ToolCatalog.standard().all()) {
            if (!spec.host().android()) {
                continue;
            }
            assertThat(HostQualification.reason(spec)).as(spec.name()).isEqualTo(HostQualification.reason(spec.host()));
        }
    }

    private HostProbe host(Map<String, String> environment) {
        return new HostProbe(environment, Optional.empty(), temp.resolve("home"), temp.resolve("kvm"));
    }

    private static void script(Path path) throws IOException {
        Files.createDirectories(path.getParent());
        Files.writeString(path, "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
