package dev.lomicontrol.android;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.tools.ImageBlock;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * lomi_android_open, then the observations snapshot, screenshot and logcat, through the broker's
 * dispatch against the real adb server (private to this class) with a test device attached whose
 * {@code exec:}/{@code shell,v2:} answers are scripted: a uiautomator dump in the real format
 * (hand-written, see src/test/resources/android), a PNG, pidof and logcat lines. These prove our
 * protocol, parsing, limits and bookkeeping against the real adb, not Android behaviour.
 */
class AndroidObserveBrokerTests extends AndroidBrokerTest {

    static final String PACKAGE = "com.example.login";

    static byte[] loginDump() throws IOException {
        try (InputStream in = AndroidObserveBrokerTests.class.getResourceAsStream("/android/uiautomator-login.xml")) {
            return in.readAllBytes();
        }
    }

    static byte[] png(int width, int height) throws IOException {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < height; y += 8) {
            for (int x = 0; x < width; x += 8) {
                image.setRGB(x, y, (x * 31 + y * 17) & 0xffffff);
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(image, "png", out);
        return out.toByteArray();
    }

    static List<String> logLines(int count) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            lines.add("12-06 14:00:" + String.format("%02d", i % 60) + ".000  4242  4242 I LoginActivity: line " + i);
        }
        return lines;
    }

    @Test
    void openThenSnapshotScreenshotAndLogcatPagesThroughTheRealAdb() throws Exception {
        byte[] dump = loginDump();
        byte[] screen = png(1080, 2400);
        AtomicInteger dumps = new AtomicInteger();
        try (FakeAdbd device = FakeAdbd.open()) {
            device.onExec(argv -> {
                if (argv.equals(List.of("uiautomator", "dump", "/dev/tty"))) {
                    return dumps.incrementAndGet() == 1
                            ? "ERROR: null root node returned by UiTestAutomationBridge.\n"
                                    .getBytes(StandardCharsets.UTF_8)
                            : dump;
                }
                return argv.equals(List.of("screencap", "-p")) ? screen : new byte[0];
            });
            device.onShell(argv -> {
                if (argv.equals(List.of("pidof", PACKAGE))) {
                    return FakeAdbd.Answer.out("4242\n");
                }
                if (!argv.isEmpty() && argv.get(0).equals("logcat")) {
                    return FakeAdbd.Answer.out(
                            "--------- beginning of main\n" + String.join("\n", logLines(100)) + "\n");
                }
                return FakeAdbd.Answer.fail("not scripted\n", 127);
            });
            server.connect(device, DeviceState.DEVICE);

            String deviceId = calls.listed(device.serial()).path("deviceId").asString();
            assertThat(calls.listed(device.serial()).path("generation").isString())
                    .as("no generation before a panel was opened")
                    .isFalse();
            String revision = broker.revision();
            JsonNode opened = calls.open(deviceId, "open-1");
            assertThat(opened.at("/data/state").asString()).as("%s", opened).isEqualTo("succeeded");
            String panelId = opened.at("/data/result/panelId").asString();
            assertThat(opened.at("/data/result/deviceId").asString()).isEqualTo(deviceId);
            JsonNode again = broker.call(
                    calls.session,
                    "lomi_android_open",
                    json(
                            "workspaceId",
                            calls.workspace(),
                            "deviceId",
                            deviceId,
                            "expectedRevision",
                            revision,
                            "retryEpoch",
                            calls.epoch.value(),
                            "requestKey",
                            "open-1"));
            assertThat(again.at("/data/operationId"))
                    .as("the same key answers the same operation")
                    .isEqualTo(opened.at("/data/operationId"));
            JsonNode panels = broker.ok(calls.session, "lomi_panel_list", json("workspaceId", calls.workspace()));
            List<JsonNode> android = new ArrayList<>();
            panels.path("panels").forEach(p -> {
                if (p.path("kind").asString().equals("android")) {
                    android.add(p);
                }
            });
            assertThat(android).as("%s", panels).hasSize(1);
            assertThat(android.get(0).at("/gitView/deviceId").asString()).isEqualTo(deviceId);
            assertThat(device.shellCommands())
                    .as("opening starts nothing on the device")
                    .isEmpty();

            String generation = calls.listed(device.serial()).path("generation").asString();
            AndroidCalls.Opened panel = new AndroidCalls.Opened(panelId, deviceId, generation);

            JsonNode snapshot = calls.snapshot(panel, generation);
            assertThat(snapshot.path("status").asString()).as("%s", snapshot).isEqualTo("ok");
            assertThat(dumps.get()).as("the null-root answer was asked again").isEqualTo(2);
            JsonNode nodes = snapshot.at("/data/nodes");
            assertThat(nodes).hasSize(8);
            assertThat(snapshot.toString()).doesNotContain("hunter2").contains("Anmelden · ログイン", "alice@example.com");
            JsonNode password = nodes.get(5);
            assertThat(password.path("resourceId").asString()).isEqualTo("com.example.login:id/password");
            assertThat(password.path("valueOmitted").asBoolean()).isTrue();
            assertThat(nodes.get(6).path("checked").asBoolean()).isTrue();
            assertThat(nodes.get(7).path("enabled").asBoolean()).isFalse();
            assertThat(nodes.get(3).path("parent").asInt()).isEqualTo(2);
            assertThat(snapshot.at("/data/hardwareDisplay").toString()).isEqualTo("[1080,2400]");
            assertThat(snapshot.at("/data/generation").asString()).isEqualTo(generation);
            assertThat(snapshot.at("/data/truncated").asBoolean()).isFalse();

            JsonNode capped = calls.snapshot(panel, generation, "maxNodes", 3);
            assertThat(capped.at("/data/nodes")).hasSize(3);
            assertThat(capped.at("/data/truncated").asBoolean()).isTrue();
            JsonNode small = calls.snapshot(panel, generation, "maxBytes", 1500);
            assertThat(small.toString()).as("%s", small).contains("\"truncated\":true");
            assertThat(small.path("data").toString().getBytes(StandardCharsets.UTF_8).length)
                    .isLessThanOrEqualTo(1500);

            JsonNode shot = calls.screenshot(panel, generation, "maxEdge", 640);
            assertThat(shot.path("status").asString()).as("%s", shot).isEqualTo("ok");
            BufferedImage image = ImageIO.read(new ByteArrayInputStream(Base64.getDecoder()
                    .decode(shot.at("/data/" + ImageBlock.FIELD).asString())));
            assertThat(Math.max(image.getWidth(), image.getHeight())).isEqualTo(640);
            assertThat(image.getWidth()).isEqualTo(288);
            assertThat(shot.at("/data/artifact/mediaType").asString()).isEqualTo("image/png");
            assertThat(shot.at("/data/artifact/source/generation").asString()).isEqualTo(generation);
            assertThat(shot.at("/data/artifact/image/hardwareHeight").asInt()).isEqualTo(2400);
            JsonNode limited = calls.screenshot(panel, generation, "maxBytes", 4000);
            assertThat(limited.at("/data/artifact/byteLength").asLong()).isBetween(1L, 4000L);
            JsonNode full = calls.screenshot(panel, generation);
            BufferedImage big = ImageIO.read(new ByteArrayInputStream(Base64.getDecoder()
                    .decode(full.at("/data/" + ImageBlock.FIELD).asString())));
            assertThat((long) big.getWidth() * big.getHeight())
                    .as("at most 2 Mpx")
                    .isLessThanOrEqualTo(2_000_000L);
            assertThat(big.getHeight()).isLessThanOrEqualTo(1280);

            List<String> read = new ArrayList<>();
            JsonNode page = calls.logcat(panel, generation, "packageName", PACKAGE, "minPriority", "I", "limit", 40);
            assertThat(page.path("status").asString()).as("%s", page).isEqualTo("ok");
            assertThat(page.at("/data/processId").asLong()).isEqualTo(4242);
            int pages = 1;
            page.at("/data/lines").forEach(l -> read.add(l.asString()));
            while (page.at("/data/nextCursor").isString()) {
                assertThat(page.at("/data/complete").asBoolean()).isFalse();
                page = calls.logcat(
                        panel,
                        generation,
                        "packageName",
                        PACKAGE,
                        "minPriority",
                        "I",
                        "limit",
                        40,
                        "cursor",
                        page.at("/data/nextCursor").asString());
                page.at("/data/lines").forEach(l -> read.add(l.asString()));
                pages++;
            }
            assertThat(pages).isEqualTo(3);
            assertThat(page.at("/data/complete").asBoolean()).isTrue();
            assertThat(read).isEqualTo(logLines(100));
            assertThat(device.shellCommands())
                    .as("one snapshot of the app's process, its priority and above")
                    .containsOnlyOnce(List.of("logcat", "-d", "-v", "threadtime", "-t", "256", "--pid=4242", "*:I"));

            JsonNode closed = broker.call(
                    calls.session,
                    "lomi_panel_close",
                    json(
                            "workspaceId", calls.workspace(),
                            "panelId", panelId,
                            "expectedRevision", broker.revision(),
                            "retryEpoch", calls.epoch.value(),
                            "requestKey", "close-1"));
            assertThat(closed.at("/data/state").asString()).as("%s", closed).isEqualTo("succeeded");
            assertThat(calls.snapshot(panel, generation).path("code").asString())
                    .isEqualTo("TARGET_NOT_FOUND");
        } finally {
            server.run("disconnect");
        }
    }

    @Test
    void aScreenThatAlreadyFitsIsPassedOnByteForByteAndACutOffOneIsReencoded() throws Exception {
        byte[] small = png(720, 1280);
        byte[] cut = java.util.Arrays.copyOf(small, small.length - 12);
        List<byte[]> screens = new ArrayList<>(List.of(small, cut));
        try (FakeAdbd device = FakeAdbd.open()) {
            device.onExec(argv -> argv.equals(List.of("screencap", "-p")) ? screens.remove(0) : new byte[0]);
            server.connect(device, DeviceState.DEVICE);
            AndroidCalls.Opened panel = calls.opened(device.serial());

            JsonNode whole = calls.screenshot(panel, panel.generation());
            assertThat(Base64.getDecoder()
                            .decode(whole.at("/data/" + ImageBlock.FIELD).asString()))
                    .as("a 720x1280 screen fits maxEdge 1280: the device's bytes, not decoded")
                    .isEqualTo(small);
            assertThat(whole.at("/data/artifact/sha256").asString())
                    .isEqualTo(java.util.HexFormat.of()
                            .formatHex(java.security.MessageDigest.getInstance("SHA-256")
                                    .digest(small)));
            assertThat(whole.at("/data/artifact/image/imageWidth").asInt()).isEqualTo(720);

            JsonNode reencoded = calls.screenshot(panel, panel.generation());
            byte[] sent = Base64.getDecoder()
                    .decode(reencoded.at("/data/" + ImageBlock.FIELD).asString());
            assertThat(sent)
                    .as("a capture without IEND is decoded and encoded anew")
                    .isNotEqualTo(cut);
            BufferedImage image = ImageIO.read(new ByteArrayInputStream(sent));
            assertThat(image.getWidth()).isEqualTo(720);
        }
    }
}
