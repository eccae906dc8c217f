package dev.lomicontrol.android;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.BrokerChildProcess;
import dev.lomicontrol.testing.McpHelperProcess;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Issue 42's first acceptance flow through real processes: the broker ({@code serve --headless}) and
 * the {@code --mcp} helper as child JVMs, the console as a child JVM per command, and Debian's real
 * adb server on a private port, which the broker finds the way a user's does ({@code ANDROID_HOME}
 * with adb in {@code platform-tools}, {@code ANDROID_ADB_SERVER_PORT}, {@code ANDROID_AVD_HOME}; the
 * helper gets a client's minimal environment without any of them, as the broker alone checks the
 * host's Android capabilities). The
 * device is a {@link FakeAdbd} that needs the host's key and answers in the real formats; the AVD is
 * booted and stopped by the broker through a stand-in SDK emulator ({@link HelperFlowEmulator}) whose
 * device registers with the same adb server. It proves our protocol, processes and bookkeeping end to
 * end against the real adb — not Android behaviour.
 */
class AndroidHelperFlowProcessTests {

    static final String PACKAGE = "com.example.login";

    @TempDir
    Path temp;

    HelperAgent agent;
    String panelId;
    String deviceId;
    String generation;

    @Test
    void anAgentDrivesAnAdbDeviceThroughTheRealHelperBrokerAndAdbServer() throws Exception {
        PrivateAdbServer server = PrivateAdbServer.start(temp.resolve("adb"));
        UserSdk sdk = UserSdk.in(temp, server).avd("Tablet", "Tablet");
        Path project = Files.createDirectories(temp.resolve("project")).toRealPath();
        try (HelperFlowEmulator avd = HelperFlowEmulator.installed(sdk, "Tablet");
                FakeAdbd device = scripted(FakeAdbd.requiringAuth());
                BrokerChildProcess broker = BrokerChildProcess.on(temp.resolve("data"))
                        .log(temp.resolve("broker.err"))
                        .emptyHome()
                        .environment(sdk::apply)
                        .start();
                McpHelperProcess helper = McpHelperProcess.pinnedTo(broker, temp.resolve("helper.err"))
                        .environment(AndroidHelperFlowProcessTests::asAnMcpClientLaunchesIt)
                        .start()) {
            broker.console().mergingStderr().ok("project", "add", project.toString());
            agent = HelperAgent.paired(
                    broker, helper, List.of(device.serial(), "Tablet"), List.of(PACKAGE, "com.example.app"));

            listedThenAuthorized(server, device);
            avd.started(agent);
            avd.observedAndTapped(agent);
            observed();
            typedOnce(device);
            loggedInPages();
            launched(device);
            installedOnlyWhenApproved(project, device);
            avd.stopped(agent);

            assertThat(helper.stderrText())
                    .as("every answer matched its tool's published outputSchema")
                    .doesNotContain("does not match the output schema");
            assertThat(helper.foreignLines())
                    .as("nothing but JSON-RPC on the helper's stdout")
                    .isEmpty();
        } finally {
            server.run("disconnect");
            server.close();
        }
    }

    /**
     * The helper's environment as an MCP client usually sets it: no SDK, no adb server port, a PATH
     * without adb — the broker, which runs adb, the emulator and the SDK, alone decides what the host
     * can do.
     */
    private static void asAnMcpClientLaunchesIt(java.util.Map<String, String> env) {
        List.of("ANDROID_HOME", "ANDROID_SDK_ROOT", "ANDROID_AVD_HOME", "ANDROID_ADB_SERVER_PORT")
                .forEach(env::remove);
        env.put("PATH", "/nonexistent");
    }

    /** The device answers as AndroidObserveBrokerTests' and AppLauncherTests' do; every input is accepted. */
    private static FakeAdbd scripted(FakeAdbd device) throws Exception {
        byte[] dump = AndroidObserveBrokerTests.loginDump();
        byte[] screen = AndroidObserveBrokerTests.png(1080, 2400);
        device.onExec(argv -> {
            if (argv.equals(List.of("uiautomator", "dump", "/dev/tty"))) {
                return dump;
            }
            return argv.equals(List.of("screencap", "-p")) ? screen : new byte[0];
        });
        return device.onShell(argv -> {
            if (argv.equals(List.of("pidof", PACKAGE))) {
                return FakeAdbd.Answer.out("4242\n");
            }
            if (!argv.isEmpty() && argv.get(0).equals("logcat")) {
                return FakeAdbd.Answer.out("--------- beginning of main\n"
                        + String.join("\n", AndroidObserveBrokerTests.logLines(100)) + "\n");
            }
            if (!argv.isEmpty() && argv.get(0).equals("input")) {
                return FakeAdbd.Answer.out("");
            }
            return AppLauncherTests.answer(argv);
        });
    }

    /** list: the device unauthorized and the AVD; a panel opened on it; it accepts the key and is usable, under the same id. */
    private void listedThenAuthorized(PrivateAdbServer server, FakeAdbd device) throws Exception {
        server.connect(device, DeviceState.UNAUTHORIZED);
        JsonNode locked = agent.one(device.serial() + " (");
        assertThat(locked.path("name").asString()).isEqualTo(device.serial() + " (adb: unauthorized)");
        assertThat(locked.path("generation").isString()).as("%s", locked).isFalse();
        JsonNode avd = agent.one("Tablet (");
        assertThat(avd.path("name").asString()).isEqualTo("Tablet (AVD, not running)");
        assertThat(avd.path("phase").asString()).isEqualTo("stopped");
        deviceId = locked.path("deviceId").asString();

        panelId = agent.opened(deviceId, "open");
        assertThat(device.shellCommands())
                .as("opening starts nothing on the device")
                .isEmpty();

        device.allowPendingKeys();
        server.awaitState(device.serial(), DeviceState.DEVICE);
        JsonNode usable = agent.one(device.serial() + " (");
        assertThat(usable.path("name").asString()).isEqualTo(device.serial() + " (adb: device)");
        assertThat(usable.path("deviceId").asString())
                .as("the same device keeps its id")
                .isEqualTo(deviceId);
        generation = usable.path("generation").asString();
        assertThat(generation).as("an opened device online has a generation").isNotBlank();
    }

    /** snapshot (password absent, node cap honoured), screenshot (a PNG image block within maxEdge). */
    private void observed() throws Exception {
        JsonNode snapshot = agent.result("lomi_android_snapshot", target());
        assertThat(snapshot.path("isError").asBoolean()).as("%s", snapshot).isFalse();
        assertThat(snapshot.toString()).doesNotContain("hunter2").contains("alice@example.com");
        assertThat(snapshot.at("/structuredContent/data/nodes/5/valueOmitted").asBoolean())
                .isTrue();
        JsonNode capped = agent.ok("lomi_android_snapshot", target("maxNodes", 3));
        assertThat(capped.at("/data/nodes")).hasSize(3);
        assertThat(capped.at("/data/truncated").asBoolean()).isTrue();

        JsonNode shot = agent.result("lomi_android_screenshot", target("maxEdge", 640));
        assertThat(shot.path("isError").asBoolean()).as("%s", shot).isFalse();
        assertThat(shot.toString()).doesNotContain("_imagePngBase64");
        List<JsonNode> images = new ArrayList<>();
        shot.path("content").forEach(block -> {
            if (block.path("type").asString().equals("image")) {
                images.add(block);
            }
        });
        assertThat(images).as("%s", shot.path("content")).hasSize(1);
        assertThat(images.get(0).path("mimeType").asString()).isEqualTo("image/png");
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(
                Base64.getDecoder().decode(images.get(0).path("data").asString())));
        assertThat(image).as("the block decodes as a PNG").isNotNull();
        assertThat(Math.max(image.getWidth(), image.getHeight())).isLessThanOrEqualTo(640);
        assertThat(shot.at("/structuredContent/data/artifact/image/hardwareHeight")
                        .asInt())
                .isEqualTo(2400);
    }

    /** The lease claimed and approved in the console; a tap and text, each retried, reach the device once; a changed payload is a conflict. */
    private void typedOnce(FakeAdbd device) throws Exception {
        String lease = agent.leased(target(), "claim");

        String first = null;
        for (int attempt = 0; attempt < 2; attempt++) {
            for (long sequence = 1; sequence <= 3; sequence++) {
                JsonNode event = sequence == 3 ? text("hi there") : touch(sequence == 1 ? "down" : "up");
                JsonNode sent = agent.ok("lomi_android_input", input(lease, sequence, event));
                assertThat(sent.at("/data/state").asString()).as("%s", sent).isEqualTo("succeeded");
                if (sequence == 1) {
                    first = attempt == 0 ? sent.at("/data/operationId").asString() : first;
                    assertThat(sent.at("/data/operationId").asString())
                            .as("a retry answers the earlier send")
                            .isEqualTo(first);
                }
            }
        }
        assertThat(agent.refused("lomi_android_input", input(lease, 3, text("hi thera"))))
                .isEqualTo("IDEMPOTENCY_CONFLICT");
        assertThat(device.shellCommands().stream()
                        .filter(argv -> !argv.isEmpty() && argv.get(0).equals("input"))
                        .toList())
                .as("each inputSequence reached the device exactly once")
                .containsExactly(
                        List.of("input", "motionevent", "DOWN", "120", "340"),
                        List.of("input", "motionevent", "UP", "120", "340"),
                        List.of("input", "text", "hi%sthere"));
    }

    /** logcat of the app's process in pages of 40, followed through its cursor to the end. */
    private void loggedInPages() throws Exception {
        List<String> read = new ArrayList<>();
        Object[] filter = {"packageName", PACKAGE, "minPriority", "I", "limit", 40};
        JsonNode page = agent.ok("lomi_android_logcat", target(filter));
        int pages = 1;
        page.at("/data/lines").forEach(line -> read.add(line.asString()));
        while (page.at("/data/nextCursor").isString()) {
            assertThat(page.at("/data/complete").asBoolean()).isFalse();
            Object[] next = {
                "packageName",
                PACKAGE,
                "minPriority",
                "I",
                "limit",
                40,
                "cursor",
                page.at("/data/nextCursor").asString()
            };
            page = agent.ok("lomi_android_logcat", target(next));
            page.at("/data/lines").forEach(line -> read.add(line.asString()));
            pages++;
        }
        assertThat(pages).isEqualTo(3);
        assertThat(page.at("/data/complete").asBoolean()).isTrue();
        assertThat(read).isEqualTo(AndroidObserveBrokerTests.logLines(100));
    }

    /** launch: the intent delivered once, a retry answering the same operation. */
    private void launched(FakeAdbd device) throws Exception {
        Object[] arguments = target(
                "packageName",
                "com.example.app",
                "expectedRevision",
                agent.revision(),
                "retryEpoch",
                agent.epoch,
                "requestKey",
                agent.key("launch"));
        JsonNode launched = agent.ok("lomi_android_launch", arguments);
        assertThat(launched.at("/data/state").asString()).as("%s", launched).isEqualTo("succeeded");
        assertThat(launched.at("/data/result/intentDelivered").asBoolean()).isTrue();
        assertThat(launched.at("/data/result/generation").asString()).isEqualTo(generation);
        assertThat(agent.ok("lomi_android_launch", arguments).at("/data/operationId"))
                .isEqualTo(launched.at("/data/operationId"));
        assertThat(device.shellCommands().stream()
                        .filter(argv -> argv.size() > 1 && argv.subList(0, 2).equals(List.of("am", "start"))))
                .as("a retry starts nothing again")
                .containsExactly(List.of("am", "start", "-W", "-n", "com.example.app/.Home"));
    }

    /** An APK imported as an artifact; one install rejected in the console sends nothing, one approved arrives intact. */
    private void installedOnlyWhenApproved(Path project, FakeAdbd device) throws Exception {
        byte[] apk = AndroidInstallBrokerTests.apk(300_000);
        String sha256 = AndroidInstallBrokerTests.sha256(apk);
        Files.write(project.resolve("app.apk"), apk);
        JsonNode imported = agent.ok(
                "lomi_artifact_import",
                AndroidInstallBrokerTests.importing(
                        agent.workspace, "app.apk", apk, agent.revision(), agent.epoch, agent.key("import")));
        JsonNode artifact = agent.settled(imported.at("/data/operationId").asString());
        assertThat(artifact.path("state").asString()).as("%s", artifact).isEqualTo("succeeded");
        String artifactId = artifact.at("/result/artifactId").asString();

        JsonNode rejected = agent.decided(install(artifactId, sha256), false);
        assertThat(rejected.path("state").asString()).as("%s", rejected).isEqualTo("failed");
        assertThat(rejected.path("errorCode").asString()).isEqualTo("SCOPE_DENIED");
        assertThat(device.installs).as("a rejected install sends nothing").isEmpty();

        String asked = install(artifactId, sha256);
        assertThat(agent.pendingDecisions())
                .as("the admin is shown the exact APK")
                .contains(asked, "lomi_android_install_apk", sha256, device.serial());
        JsonNode approved = agent.decided(asked, true);
        assertThat(approved.path("state").asString()).as("%s", approved).isEqualTo("succeeded");
        assertThat(approved.at("/result/installed").asBoolean()).isTrue();
        assertThat(approved.at("/result/sha256").asString()).isEqualTo(sha256);
        assertThat(device.installs).hasSize(1);
        assertThat(AndroidInstallBrokerTests.sha256(device.installs.get(0)))
                .as("the device received the exact bytes")
                .isEqualTo(sha256);
        assertThat(device.installs.get(0)).isEqualTo(apk);
    }

    /** Asks to install the artifact: parked for the admin; its operation id. */
    private String install(String artifactId, String sha256) throws Exception {
        JsonNode asked = agent.ok(
                "lomi_android_install_apk",
                target(
                        "artifactId",
                        artifactId,
                        "sha256",
                        sha256,
                        "retryEpoch",
                        agent.epoch,
                        "requestKey",
                        agent.key("install")));
        assertThat(asked.at("/data/state").asString()).as("%s", asked).isEqualTo("awaiting_user");
        return asked.at("/data/operationId").asString();
    }

    /** The panel's target (workspace, panel, device, generation) followed by {@code more} pairs. */
    private Object[] target(Object... more) {
        Object[] pairs = {
            "workspaceId", agent.workspace, "panelId", panelId, "deviceId", deviceId, "generation", generation
        };
        Object[] all = new Object[pairs.length + more.length];
        System.arraycopy(pairs, 0, all, 0, pairs.length);
        System.arraycopy(more, 0, all, pairs.length, more.length);
        return all;
    }

    private Object[] input(String lease, long sequence, JsonNode event) {
        return target(
                "leaseId", lease, "inputSequence", Long.toString(sequence), "event", event, "retryEpoch", agent.epoch);
    }

    private static JsonNode touch(String phase) {
        ObjectNode event = JsonNodeFactory.instance.objectNode();
        event.put("type", "touch").put("space", "hardware_display").put("identifier", 0);
        return event.put("x", 120).put("y", 340).put("phase", phase);
    }

    private static JsonNode text(String text) {
        return JsonNodeFactory.instance.objectNode().put("type", "text").put("text", text);
    }
}
