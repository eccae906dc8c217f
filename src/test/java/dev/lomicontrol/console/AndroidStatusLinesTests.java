package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.Machine;
import dev.lomicontrol.tools.HostProbe;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console status's Android lines: the adb found and the real adb server's version on its port
 * (a private server started for the test, with its own HOME), not starting one that is not there,
 * and each capability with what it lacks.
 */
class AndroidStatusLinesTests {

    @TempDir
    Path temp;

    @Test
    void withoutAdbEveryCapabilityButSetupAndManagementNamesAdb() throws IOException {
        HostProbe bare = new HostProbe(
                Map.of("PATH", Files.createDirectories(temp.resolve("bin")).toString()),
                Optional.empty(),
                temp.resolve("home"),
                temp.resolve("kvm"));
        List<String[]> lines = AndroidStatusLines.lines(bare);
        assertThat(lines.get(0))
                .containsExactly("android adb", "not found (apt-get install adb, or the SDK's platform-tools)");
        assertThat(lines)
                .extracting(line -> line[0])
                .containsExactly(
                        "android adb", "android devices", "android emulator", "android setup", "android manage");
        assertThat(lines.get(1)[1]).contains("adb was not found");
        assertThat(lines.get(2)[1]).contains("emulator was not found").contains("is absent");
        assertThat(lines.get(3)[1]).contains("sdkmanager");
    }

    @Test
    void theServerThatAnswersGivesItsVersionAndOneThatIsNotRunningIsNotStarted() throws Exception {
        Machine.requireOnPath("adb", "version", "adb");
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        Path bin = Files.createDirectories(temp.resolve("bin"));
        Path adb = bin.resolve("adb");
        Files.writeString(adb, "#!/bin/sh\nexec /usr/bin/adb \"$@\"\n");
        Files.setPosixFilePermissions(adb, PosixFilePermissions.fromString("rwx------"));
        HostProbe host = new HostProbe(
                Map.of("PATH", bin.toString(), "ANDROID_ADB_SERVER_PORT", Integer.toString(port)),
                Optional.empty(),
                temp.resolve("home"));

        assertThat(AndroidStatusLines.adb(host))
                .isEqualTo(adb + "; server on 127.0.0.1:" + port
                        + ": not running (the Android tools start it with 'adb start-server' when they need it)");
        adb(port, "start-server");
        try {
            assertThat(AndroidStatusLines.adb(host)).isEqualTo(adb + "; server on 127.0.0.1:" + port + ": version 41");
            assertThat(AndroidStatusLines.lines(host).get(1)).containsExactly("android devices", "available");
        } finally {
            adb(port, "kill-server");
        }
    }

    private void adb(int port, String command) throws IOException, InterruptedException {
        ProcessBuilder builder =
                new ProcessBuilder("adb", "-P", Integer.toString(port), command).redirectErrorStream(true);
        builder.environment()
                .put("HOME", Files.createDirectories(temp.resolve("adb-home")).toString());
        Process process = builder.start();
        process.getInputStream().readAllBytes();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
}
