package dev.lomicontrol.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The host probe on a fake host layout in a temp dir: fake adb and Chromium scripts, and files that are there but not executable. */
class HostProbeTests {

    @TempDir
    Path temp;

    @Test
    void aHostWithoutChromiumOrAdbServesEveryToolsetButBrowserAndAndroid() throws IOException {
        Path bin = Files.createDirectories(temp.resolve("bin"));
        HostProbe bare = new HostProbe(
                Map.of(
                        "PATH",
                        bin.toString(),
                        "LOMI_BROWSER_EXECUTABLE",
                        temp.resolve("no-chromium").toString()),
                Optional.empty(),
                temp.resolve("home"));

        EnumSet<Toolset> expected = EnumSet.allOf(Toolset.class);
        expected.removeAll(EnumSet.of(Toolset.BROWSER, Toolset.ANDROID));
        assertThat(bare.toolsets()).isEqualTo(new ToolSelection(expected, false));
        assertThat(bare.toolsets().arguments())
                .containsExactly(
                        "--toolsets", "core,layout,terminal,files,editor,git,artifacts,settings,chat,episodes");
    }

    @Test
    void adbIsFoundInAndroidHomeTheSdkRootAndroidStudiosSdkOrOnThePathAndOnlyWhenExecutable() throws IOException {
        Path home = Files.createDirectories(temp.resolve("home"));
        Path studioAdb = script(home.resolve("Android/Sdk/platform-tools/adb"));
        HostProbe studio = new HostProbe(Map.of(), Optional.empty(), home);
        assertThat(studio.adb()).contains(studioAdb);

        Path sdkAdb = script(temp.resolve("sdk/platform-tools/adb"));
        assertThat(new HostProbe(Map.of("ANDROID_HOME", temp.resolve("sdk").toString()), Optional.empty(), home).adb())
                .contains(sdkAdb);
        assertThat(new HostProbe(Map.of("ANDROID_SDK_ROOT", temp.resolve("sdk").toString()), Optional.empty(), home)
                        .adb())
                .contains(sdkAdb);

        Path elsewhere = temp.resolve("elsewhere");
        Path bin = Files.createDirectories(temp.resolve("bin"));
        Path notExecutable = Files.writeString(bin.resolve("adb"), "#!/bin/sh\n");
        HostProbe onPath = new HostProbe(Map.of("PATH", "/nonexistent:" + bin), Optional.empty(), elsewhere);
        assertThat(onPath.adb()).as("a file named adb that is not executable").isEmpty();
        Files.setPosixFilePermissions(notExecutable, PosixFilePermissions.fromString("rwx------"));
        assertThat(onPath.adb()).contains(bin.resolve("adb"));
        assertThat(onPath.leftOut())
                .as("with adb, the android toolset is registered")
                .doesNotContainKey(Toolset.ANDROID);
        assertThat(onPath.toolsets().toolsets()).contains(Toolset.ANDROID);
        assertThat(new HostProbe(Map.of("PATH", "/nonexistent"), Optional.empty(), elsewhere).leftOut())
                .containsEntry(Toolset.ANDROID, "no adb found");
    }

    @Test
    void theConfiguredChromiumDecidesAndTheSettingWinsOverTheEnvironment() throws IOException {
        Path chromium = script(temp.resolve("chromium/chrome-headless-shell"));
        Path adb = script(temp.resolve("bin/adb"));
        HostProbe everything = new HostProbe(
                Map.of(
                        "LOMI_BROWSER_EXECUTABLE",
                        chromium.toString(),
                        "PATH",
                        adb.getParent().toString()),
                Optional.empty(),
                temp);
        assertThat(everything.browserExecutable()).contains(chromium);
        assertThat(everything.leftOut())
                .as("Chromium and adb: nothing is left out")
                .isEmpty();
        assertThat(everything.toolsets().toolsets()).contains(Toolset.BROWSER, Toolset.ANDROID);

        HostProbe setting = new HostProbe(
                Map.of("LOMI_BROWSER_EXECUTABLE", chromium.toString()),
                Optional.of(temp.resolve("missing").toString()),
                temp);
        assertThat(setting.configuredBrowser()).contains(temp.resolve("missing").toString());
        assertThat(setting.browserExecutable()).isEmpty();
        assertThat(setting.toolsets().toolsets()).doesNotContain(Toolset.BROWSER);
    }

    /** An executable shell script at {@code path} (its directories made). */
    private static Path script(Path path) throws IOException {
        Files.createDirectories(path.getParent());
        Files.writeString(path, "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
        return path;
    }
}
