package dev.lomicontrol.android;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our smart-socket client and its bookkeeping against the real adb server (Debian's adb, a private
 * server per class) and a test device speaking the adbd wire protocol ({@link FakeAdbd}). These
 * prove what our bridge sends and reads through the real adb — not how Android behaves.
 */
class AdbBridgeTests {

    static final Duration CALL = Duration.ofSeconds(10);

    @TempDir
    static Path scratch;

    static PrivateAdbServer server;
    static FakeAdbd device;
    static AdbBridge bridge;

    @BeforeAll
    static void attachTheTestDevice() throws IOException {
        server = PrivateAdbServer.prepare(scratch);
        bridge = server.bridge();
        device = FakeAdbd.open();
        assertThat(bridge.version(CALL)).as("the server started by the bridge").isEqualTo(41);
        server.connect(device, DeviceState.DEVICE);
    }

    @AfterAll
    static void stop() throws IOException {
        device.close();
        server.close();
    }

    @Test
    void theServerTheBridgeStartedListsTheConnectedDeviceAsDevice() {
        assertThat(bridge.devices(CALL)).contains(new AttachedDevice(device.serial(), DeviceState.DEVICE, "device"));
    }

    @Test
    void shellV2CarriesTheExitStatusAndBothStreamsApart() {
        ShellResult echo = bridge.shell(device.serial(), List.of("echo", "hello", "world"), CALL, 1024);
        assertThat(echo.exitCode()).isZero();
        assertThat(echo.stdoutText()).isEqualTo("hello world\n");
        assertThat(echo.stderrText()).isEmpty();

        assertThat(bridge.shell(device.serial(), List.of("exit", "3"), CALL, 1024)
                        .exitCode())
                .isEqualTo(3);
        ShellResult missing = bridge.shell(device.serial(), List.of("no-such-program"), CALL, 1024);
        assertThat(missing.exitCode()).isEqualTo(127);
        assertThat(missing.stderrText()).contains("no-such-program");
        assertThat(device.services()).anyMatch(s -> s.startsWith("shell,v2,raw:'echo' 'hello' 'world'"));
    }

    @Test
    void outputPastTheLimitIsCutAndSaysSo() {
        ShellResult cut = bridge.shell(device.serial(), List.of("echo", "x".repeat(100)), CALL, 10);
        assertThat(cut.stdout()).hasSize(10);
        assertThat(cut.truncated()).isTrue();
        assertThat(cut.exitCode()).isZero();
    }

    @Test
    void hostileArgumentsReachTheDeviceAsTheSameWords() {
        List<String> hostile = List.of(
                "; reboot",
                "$(id)",
                "`id`",
                "a'b",
                "''",
                "\"quoted\"",
                "back\\slash",
                "*",
                "~",
                "$HOME",
                "x\ny",
                "%s",
                "-n",
                "héllo 😀",
                "",
                "  spaced  ",
                "&& exit 9 ||",
                "> /data/x");
        for (String word : hostile) {
            ShellResult result = bridge.shell(device.serial(), List.of("echo", word), CALL, 4096);
            assertThat(device.shellCommands().get(device.shellCommands().size() - 1))
                    .as(word)
                    .containsExactly("echo", word);
            assertThat(result.exitCode()).as(word).isZero();
        }
    }

    @Test
    void execIsBinaryCleanForAPngLargerThanOnePacket() throws IOException {
        byte[] png = noisePng(400, 300);
        assertThat(png.length).as("more than one adb packet").isGreaterThan(FakeAdbd.MAX_DATA);
        device.onExec(argv -> argv.equals(List.of("screencap", "-p")) ? png : new byte[0]);
        byte[] got = bridge.exec(device.serial(), List.of("screencap", "-p"), CALL, 4 * 1024 * 1024);
        assertThat(got).isEqualTo(png);
        assertThat(ImageIO.read(new java.io.ByteArrayInputStream(got)).getWidth())
                .isEqualTo(400);

        assertThatThrownBy(() -> bridge.exec(device.serial(), List.of("screencap", "-p"), CALL, 1000))
                .isInstanceOfSatisfying(
                        LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PAYLOAD_TOO_LARGE));
    }

    @Test
    void aPushedFileArrivesIntactAndItsStatShowsIt() {
        byte[] content = new byte[300_000];
        new Random(42).nextBytes(content);
        bridge.push(device.serial(), content, "/data/local/tmp/app.apk", 0644, CALL);
        assertThat(device.files.get("/data/local/tmp/app.apk")).isEqualTo(content);
        assertThat(device.services()).contains("sync SEND /data/local/tmp/app.apk," + 0644);

        SyncProtocol.Stat stat = bridge.stat(device.serial(), "/data/local/tmp/app.apk", CALL);
        assertThat(stat.size()).isEqualTo(content.length);
        assertThat(bridge.stat(device.serial(), "/data/local/tmp/none", CALL).exists())
                .isFalse();
    }

    @Test
    void aDeviceTheServerDoesNotKnowIsTargetNotFound() {
        assertThatThrownBy(() -> bridge.shell("no-such-serial", List.of("true"), CALL, 10))
                .isInstanceOfSatisfying(
                        LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.TARGET_NOT_FOUND));
    }

    @Test
    void noServerAndNoAdbToStartOneIsHostUnqualified() throws IOException {
        AdbBridge nowhere = new AdbBridge(PrivateAdbServer.freePort(), Optional.empty(), AdbTimeouts.DEFAULT);
        assertThatThrownBy(() -> nowhere.version(CALL)).isInstanceOfSatisfying(LomiException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.HOST_UNQUALIFIED);
            assertThat(e.getMessage()).contains("adb was not found");
        });
    }

    static byte[] noisePng(int width, int height) throws IOException {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Random random = new Random(7);
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                image.setRGB(x, y, random.nextInt());
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(image, "png", out);
        return out.toByteArray();
    }
}
