package dev.lomicontrol.android;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.tools.HostProbe;
import dev.lomicontrol.tools.ImageBlock;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The Android scenarios against a real device or a running AVD, opt in only: {@code ./mvnw -B
 * -Pandroid-real test} runs this class alone (its name matches no default test pattern, so {@code
 * ./mvnw verify} never sees it); without a device it fails naming what to attach. The user's own adb
 * server ({@code ANDROID_ADB_SERVER_PORT}, default 5037) and the device {@code LOMI_ANDROID_SERIAL}
 * (else the first one online). It drives the served tools through the broker's dispatch — list,
 * open, snapshot, screenshot, an input lease and a HOME key resent under the same sequence, a
 * launch of {@code LOMI_ANDROID_PACKAGE} (default {@code com.android.settings}) and its logcat — and records what
 * the device itself answered (the raw {@code uiautomator dump}, {@code screencap -p}, {@code cmd
 * package resolve-activity}, {@code logcat} and {@code getprop} outputs, and the tools' answers) under {@code
 * target/android-real/<model>-<sdk>/}, the fixtures the test device ({@link FakeAdbd}) can be checked
 * against.
 */
final class AndroidRealDeviceScenarios {

    private static final Duration CALL = Duration.ofSeconds(30);

    private static AdbBridge bridge;
    private static String serial;
    private static Path fixtures;

    @RegisterExtension
    final BrokerCallsFixture broker = BrokerCallsFixture.inTemporaryDirectory();

    @BeforeAll
    static void findTheDevice() throws IOException {
        HostProbe host = HostProbe.current();
        Optional<Path> adb = host.adb();
        assertThat(adb)
                .as("adb: install it (apt-get install adb, or the SDK's platform-tools) for -Pandroid-real")
                .isPresent();
        bridge = new AdbBridge(AdbBridge.serverPort(host.environment()), adb, AdbTimeouts.DEFAULT);
        List<AttachedDevice> online = bridge.devices(CALL).stream()
                .filter(d -> d.state() == DeviceState.DEVICE)
                .toList();
        String wanted = System.getenv().getOrDefault("LOMI_ANDROID_SERIAL", "");
        serial = online.stream()
                .map(AttachedDevice::serial)
                .filter(s -> wanted.isEmpty() || s.equals(wanted))
                .findFirst()
                .orElseThrow(() -> new AssertionError("-Pandroid-real needs a device online in `adb devices`"
                        + (wanted.isEmpty() ? "" : " with serial " + wanted) + " (attach a phone with USB debugging"
                        + " allowed, or start an AVD); online now: " + online));
        fixtures = Path.of("target", "android-real", fixtureName(bridge, serial));
    }

    @Test
    void theServedToolsWorkOnTheRealDeviceAndItsRawAnswersAreRecorded() throws IOException {
        broker.androidDevices = () -> AndroidDevices.ofHost(
                HostProbe.current().environment(),
                HostProbe.current().home(),
                HostProbe.current().adb());
        play(
                new AndroidCalls(broker, "real"),
                bridge,
                serial,
                System.getenv().getOrDefault("LOMI_ANDROID_PACKAGE", "com.android.settings"),
                fixtures);
    }

    /** The scenarios on device {@code serial} as {@code calls}' agent, raw answers through {@code bridge} into {@code fixtures}. */
    static void play(AndroidCalls calls, AdbBridge bridge, String serial, String pkg, Path fixtures)
            throws IOException {
        BrokerCallsFixture broker = calls.broker;
        record(
                fixtures,
                "getprop.txt",
                bridge.shell(serial, List.of("getprop"), CALL, 1 << 20).stdout());
        record(
                fixtures,
                "uiautomator-dump.xml",
                bridge.exec(serial, List.of("uiautomator", "dump", "/dev/tty"), CALL, 8 << 20));
        record(fixtures, "screencap.png", bridge.exec(serial, List.of("screencap", "-p"), CALL, 48 << 20));
        record(
                fixtures,
                "logcat.txt",
                bridge.shell(serial, List.of("logcat", "-d", "-t", "200"), CALL, 1 << 20)
                        .stdout());
        record(
                fixtures,
                "resolve-activity.txt",
                bridge.shell(serial, List.of("cmd", "package", "resolve-activity", "--brief", pkg), CALL, 1 << 20)
                        .stdout());

        AndroidCalls.Opened panel = calls.opened(serial);
        JsonNode snapshot = calls.snapshot(panel, panel.generation());
        assertThat(snapshot.path("status").asString()).as("%s", snapshot).isEqualTo("ok");
        assertThat(snapshot.at("/data/nodes")).as("%s", snapshot).isNotEmpty();
        record(fixtures, "snapshot.json", snapshot.toString().getBytes(StandardCharsets.UTF_8));

        JsonNode shot = calls.screenshot(panel, panel.generation(), "maxEdge", 800);
        assertThat(shot.path("status").asString()).as("%s", shot).isEqualTo("ok");
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(
                Base64.getDecoder().decode(shot.at("/data/" + ImageBlock.FIELD).asString())));
        assertThat(Math.max(image.getWidth(), image.getHeight())).isLessThanOrEqualTo(800);

        String lease = calls.lease(panel, "real-claim");
        String home = input(calls, panel, lease);
        JsonNode first = broker.ok(calls.session, "lomi_android_input", home);
        JsonNode again = broker.ok(calls.session, "lomi_android_input", home);
        assertThat(first.path("state").asString()).as("%s", first).isEqualTo("succeeded");
        assertThat(again.path("operationId").asString())
                .isEqualTo(first.path("operationId").asString());

        JsonNode launch = broker.ok(
                calls.session, "lomi_android_launch", calls.launch(panel, panel.generation(), pkg, "real-launch"));
        JsonNode launched =
                broker.settled(calls.session, launch.path("operationId").asString(), CALL);
        assertThat(launched.path("state").asString()).as("%s", launched).isEqualTo("succeeded");
        record(fixtures, "launch.json", launched.toString().getBytes(StandardCharsets.UTF_8));

        JsonNode logcat = calls.logcat(panel, panel.generation(), "packageName", pkg, "minPriority", "I", "limit", 20);
        assertThat(logcat.path("status").asString()).as("%s", logcat).isEqualTo("ok");
        record(fixtures, "logcat-page.json", logcat.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static String input(AndroidCalls calls, AndroidCalls.Opened panel, String lease) {
        return calls.input(
                panel,
                lease,
                1,
                JsonNodeFactory.instance.objectNode().put("type", "navigation").put("key", "home"));
    }

    /** {@code <model>-<sdk>} of the device, as its getprop says. */
    static String fixtureName(AdbBridge bridge, String serial) {
        String model = bridge.shell(serial, List.of("getprop", "ro.product.model"), CALL, 4096)
                .stdoutText()
                .trim();
        String sdk = bridge.shell(serial, List.of("getprop", "ro.build.version.sdk"), CALL, 4096)
                .stdoutText()
                .trim();
        return (model + "-" + sdk).replaceAll("[^A-Za-z0-9._-]", "_");
    }

    private static void record(Path fixtures, String name, byte[] content) throws IOException {
        Files.createDirectories(fixtures);
        Files.write(fixtures.resolve(name), content);
    }
}
