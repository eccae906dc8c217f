package dev.lomicontrol.android;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The opt-in real-device scenarios ({@link AndroidRealDeviceScenarios}, {@code -Pandroid-real}) played
 * against the test device through the real adb server, so that what a user with a phone runs is code
 * this build runs too: every step answers and every raw answer is written where the profile says.
 * It proves the scenarios and their recording, not anything about Android.
 */
class AndroidRealDeviceScenariosTests extends AndroidBrokerTest {

    @Test
    void theRealDeviceScenariosRunOnTheTestDeviceAndRecordEachRawAnswer() throws IOException {
        byte[] dump = AndroidObserveBrokerTests.loginDump();
        byte[] screen = AndroidObserveBrokerTests.png(1080, 2400);
        try (FakeAdbd device = FakeAdbd.open()) {
            device.onExec(argv -> argv.get(0).equals("uiautomator") ? dump : screen);
            device.onShell(argv -> {
                if (argv.get(0).equals("getprop")) {
                    return FakeAdbd.Answer.out(
                            argv.size() == 1 ? "[ro.product.model]: [Test Device]\n" : "Test Device\n");
                }
                if (argv.get(0).equals("logcat")) {
                    return FakeAdbd.Answer.out(String.join("\n", AndroidObserveBrokerTests.logLines(30)) + "\n");
                }
                if (argv.get(0).equals("pidof")) {
                    return FakeAdbd.Answer.out("4242\n");
                }
                if (argv.get(0).equals("input")) {
                    return FakeAdbd.Answer.out("");
                }
                return AppLauncherTests.answer(argv);
            });
            server.connect(device, DeviceState.DEVICE);
            Path fixtures = scratch.resolve("fixtures")
                    .resolve(AndroidRealDeviceScenarios.fixtureName(server.bridge(), device.serial()));

            AndroidRealDeviceScenarios.play(calls, server.bridge(), device.serial(), "com.example.app", fixtures);

            assertThat(fixtures.getFileName().toString()).isEqualTo("Test_Device-Test_Device");
            try (var files = Files.list(fixtures)) {
                assertThat(files.map(f -> f.getFileName().toString()))
                        .containsExactlyInAnyOrder(
                                "getprop.txt",
                                "uiautomator-dump.xml",
                                "screencap.png",
                                "logcat.txt",
                                "resolve-activity.txt",
                                "snapshot.json",
                                "launch.json",
                                "logcat-page.json");
            }
            assertThat(Files.readAllBytes(fixtures.resolve("screencap.png"))).isEqualTo(screen);
            assertThat(AndroidInputBrokerTests.inputs(device))
                    .as("HOME resent under the same inputSequence reached the device once")
                    .containsExactly(List.of("input", "keyevent", "KEYCODE_HOME"));
        }
    }
}
