package dev.lomicontrol.android;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our parsing of the SDK's own files and of sdkmanager's output: the package.xml Debian's
 * {@code android-sdk-platform-tools-common} installs (a genuine SDK layout), and sdkmanager's
 * {@code --list} table and licence blocks in the shape it prints them (hand-written fixtures of
 * that shape: no real sdkmanager can run here).
 */
class SdkFilesTests {

    static final Path DEBIAN_SDK = Path.of("/usr/lib/android-sdk");

    @Test
    void debiansRealSdkTreeIsReadOffline() {
        assertThat(DEBIAN_SDK.resolve("platform-tools/package.xml"))
                .as("install it with: apt-get install android-sdk-platform-tools-common")
                .exists();

        List<SdkPackages.Installed> installed = SdkPackages.installed(DEBIAN_SDK);

        assertThat(installed).extracting(SdkPackages.Installed::id).contains("platform-tools");
        assertThat(installed.stream()
                        .filter(p -> p.id().equals("platform-tools"))
                        .findFirst()
                        .orElseThrow()
                        .revision())
                .matches("\\d+\\.\\d+\\.\\d+");
    }

    @Test
    void aPackageWithOnlySourcePropertiesIsReadAndTheLicensesFolderIsSkipped(@TempDir Path sdk) throws Exception {
        Files.createDirectories(sdk.resolve("build-tools/34.0.0"));
        Files.writeString(sdk.resolve("build-tools/34.0.0/source.properties"), "Pkg.Revision=34.0.0\nPkg.Desc=x\n");
        Files.createDirectories(sdk.resolve("licenses"));
        Files.writeString(sdk.resolve("licenses/source.properties"), "Pkg.Revision=1\n");

        assertThat(SdkPackages.installed(sdk))
                .extracting(p -> p.id() + "@" + p.revision())
                .containsExactly("build-tools;34.0.0@34.0.0");
    }

    @Test
    void theAvailablePackagesTableIsParsedPastProgressLinesAndTheInstalledTable() {
        String output = "[=======================================] 100% Computing updates...             \r\n"
                + "Installed packages:\n"
                + "  Path                 | Version | Description                | Location\n"
                + "  -------              | ------- | -------                    | -------\n"
                + "  platform-tools       | 35.0.2  | Android SDK Platform-Tools | platform-tools\n"
                + "\n"
                + "Available Packages:\n"
                + "  Path                                        | Version | Description\n"
                + "  -------                                     | ------- | -------\n"
                + "  emulator                                    | 35.1.4  | Android Emulator\n"
                + "  system-images;android-34;google_apis;x86_64 | 14      | Google APIs Intel x86_64 Atom System Image\n"
                + "\n"
                + "Available Updates:\n"
                + "  ID                   | Installed | Available\n";

        assertThat(SdkManagerOutput.available(output))
                .containsExactly(
                        new SdkManagerOutput.Entry("emulator", "35.1.4", "Android Emulator"),
                        new SdkManagerOutput.Entry(
                                "system-images;android-34;google_apis;x86_64",
                                "14",
                                "Google APIs Intel x86_64 Atom System Image"));
    }

    @Test
    void licenceBlocksAreReadWithOrWithoutTheirCounterAndTheLastOneBeforeAPromptIsFound() {
        String output = "Review licenses that have not been accepted (y/N)? 1/2: License android-sdk-license:\n"
                + "---------------------------------------\n"
                + "Terms and Conditions\n\nfirst\n"
                + "---------------------------------------\n"
                + "Accept? (y/N): 2/2: License android-sdk-preview-license:\n"
                + "---------------------------------------\n"
                + "Preview terms\n"
                + "---------------------------------------\n"
                + "Accept? (y/N): ";

        List<SdkManagerOutput.License> licenses = SdkManagerOutput.licenses(output);

        assertThat(licenses)
                .extracting(SdkManagerOutput.License::id)
                .containsExactly("android-sdk-license", "android-sdk-preview-license");
        assertThat(licenses.get(0).text()).isEqualTo("Terms and Conditions\n\nfirst");
        assertThat(licenses.get(0).digest()).isEqualTo(SdkPackages.sha256("Terms and Conditions\n\nfirst"));
        assertThat(SdkManagerOutput.lastLicense(output).orElseThrow().id()).isEqualTo("android-sdk-preview-license");
        assertThat(SdkProcess.prompted(output)).isTrue();
        assertThat(SdkProcess.prompted(output + "\n"))
                .as("an answered question is not asked again")
                .isFalse();
    }
}
