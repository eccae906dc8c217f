package dev.lomicontrol.android;

import dev.lomicontrol.broker.BrokerCallsFixture;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Snapshot, screenshot and tap round trips of our Android tools against @mobilenext/mobile-mcp, both driving
 * the same test device (FakeAdbd: a 1080x2400 PNG, the hand-written uiautomator dump of the tests)
 * through the same private real adb server, in one run. Ours: lomi_android_snapshot and
 * lomi_android_screenshot through the broker's dispatch in this JVM (binding, scope, host check,
 * handler, encoding — no helper JVM or TLS hop). Theirs: mobile_list_elements_on_screen and
 * mobile_take_screenshot over MCP stdio to its node process (MOBILEMCP_LEGACY_ROBOT=1: one adb
 * process per device command, telemetry off). Usage: ObserveBench <mobile-mcp index.js> [N=30].
 */
public final class ObserveBench {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    public static void main(String[] args) throws Exception {
        Path mobileMcp = Path.of(args[0]);
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        Path scratch = Files.createTempDirectory("lomi-android-bench");
        PrivateAdbServer server = PrivateAdbServer.start(scratch);
        byte[] dump = Files.readAllBytes(Path.of("src/test/resources/android/uiautomator-login.xml"));
        byte[] png = AndroidObserveBrokerTests.png(1080, 2400);
        byte[] small = AndroidObserveBrokerTests.png(720, 1280);
        byte[][] screen = {png};
        try (FakeAdbd device = FakeAdbd.open()) {
            device.onExec(argv -> argv.get(0).equals("uiautomator") ? dump : argv.get(0).equals("screencap") ? screen[0] : new byte[0]);
            device.onShell(ObserveBench::shell);
            server.connect(device, DeviceState.DEVICE);
            System.out.printf("test device %s (screen 1080x2400 PNG of %d bytes, dump of %d bytes), N=%d%n",
                    device.serial(), png.length, dump.length, n);

            BrokerCallsFixture broker = new BrokerCallsFixture(scratch.resolve("broker"));
            broker.androidDevices = () -> new AndroidDevices(server.bridge(), new AvdDirectory(scratch.resolve("no-avds")));
            AndroidCalls calls = new AndroidCalls(broker, "bench");
            AndroidCalls.Opened panel = calls.opened(device.serial());
            double[] oursSnapshot = time(n, () -> require(calls.snapshot(panel, panel.generation())));
            double[] oursShot = time(n, () -> require(calls.screenshot(panel, panel.generation())));
            long oursShotBytes = calls.screenshot(panel, panel.generation()).at("/data/artifact/byteLength").asLong();
            broker.close();
            // a second broker: the artifact store holds 64 screenshots
            BrokerCallsFixture second = new BrokerCallsFixture(scratch.resolve("broker2"));
            second.androidDevices = () -> new AndroidDevices(server.bridge(), new AvdDirectory(scratch.resolve("no-avds")));
            AndroidCalls again = new AndroidCalls(second, "bench");
            AndroidCalls.Opened opened = again.opened(device.serial());
            screen[0] = small;
            double[] oursSmallShot = time(n, () -> require(again.screenshot(opened, opened.generation())));
            screen[0] = png;
            String lease = again.lease(opened, "bench-claim");
            long[] sequence = {0};
            double[] oursTap = time(n, () -> require(second.call(again.session, "lomi_android_input", BrokerCallsFixture.json(
                    "workspaceId", again.workspace(), "panelId", opened.panelId(), "deviceId", opened.deviceId(),
                    "generation", opened.generation(), "leaseId", lease, "inputSequence", Long.toString(++sequence[0]),
                    "event", JSON.readTree("{\"type\":\"tap\",\"x\":540,\"y\":1200}"), "retryEpoch", again.epoch.value()))));
            long oursTaps = device.count("input");
            second.close();

            ProcessBuilder start = new ProcessBuilder("node", mobileMcp.toString()).redirectError(scratch.resolve("mcp.err").toFile());
            start.environment().putAll(server.environment());
            start.environment().put("MOBILEMCP_DISABLE_TELEMETRY", "1");
            start.environment().put("MOBILEMCP_LEGACY_ROBOT", "1");
            start.environment().remove("ANDROID_HOME"); // its adb: the PATH's (Debian's), the one the private server runs
            Process node = start.start();
            try (Mcp mcp = new Mcp(node)) {
                mcp.call("initialize", "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}");
                mcp.notify("notifications/initialized");
                String device0 = device.serial();
                Supplier<JsonNode> elements = () -> mcp.tool("mobile_list_elements_on_screen", "{\"device\":\"" + device0 + "\"}");
                Supplier<JsonNode> shot = () -> mcp.tool("mobile_take_screenshot", "{\"device\":\"" + device0 + "\"}");
                Supplier<JsonNode> tap = () -> mcp.tool("mobile_click_on_screen_at_coordinates",
                        "{\"device\":\"" + device0 + "\",\"x\":540,\"y\":1200}");
                requireTool(elements.get());
                requireTool(shot.get());
                requireTool(tap.get());
                double[] theirsSnapshot = time(n, () -> requireTool(elements.get()));
                double[] theirsShot = time(n, () -> requireTool(shot.get()));
                long theirsShotBytes = shot.get().at("/result/content").findValue("data").asString().length() * 3L / 4;
                screen[0] = small;
                double[] theirsSmallShot = time(n, () -> requireTool(shot.get()));
                long before = device.count("input");
                double[] theirsTap = time(n, () -> requireTool(tap.get()));
                report("snapshot (ours: lomi_android_snapshot; theirs: mobile_list_elements_on_screen)", oursSnapshot, theirsSnapshot);
                report("screenshot, 1080x2400 screen (ours: lomi_android_screenshot, maxEdge 1280; theirs: mobile_take_screenshot)", oursShot, theirsShot);
                System.out.printf("screenshot bytes: ours %d (PNG scaled to 576x1280), theirs %d (as the device sent it)%n",
                        oursShotBytes, theirsShotBytes);
                report("screenshot, 720x1280 screen (fits: both pass the device's PNG on)", oursSmallShot, theirsSmallShot);
                report("tap (ours: lomi_android_input {type: tap} under a lease, a durable receipt; theirs: mobile_click_on_screen_at_coordinates)",
                        oursTap, theirsTap);
                System.out.printf("input commands the device saw: ours %d, theirs %d (each call: one `input tap`)%n",
                        oursTaps, device.count("input") - before);
            }
        } finally {
            server.close();
        }
    }

    private static FakeAdbd.Answer shell(List<String> argv) {
        String line = String.join(" ", argv);
        if (argv.get(0).equals("input")) {
            return FakeAdbd.Answer.out("");
        }
        if (line.equals("wm size")) {
            return FakeAdbd.Answer.out("Physical size: 1080x2400\n");
        }
        if (line.equals("dumpsys SurfaceFlinger --display-id")) {
            return FakeAdbd.Answer.out("Display 4619827259835644672 (HWC display 0): port=0 pnpId=GGL displayName=\"EMU_display_0\"\n");
        }
        if (line.equals("wm density")) {
            return FakeAdbd.Answer.out("Physical density: 420\n");
        }
        if (argv.get(0).equals("getprop")) {
            return FakeAdbd.Answer.out(line.contains("version.release") ? "14\n" : line.contains("model") ? "FakeDevice\n" : "\n");
        }
        return FakeAdbd.Answer.fail("/system/bin/sh: " + argv.get(0) + ": inaccessible or not found\n", 127);
    }

    private static void require(JsonNode envelope) {
        if (!envelope.path("status").asString().equals("ok")) {
            throw new IllegalStateException(envelope.toString());
        }
    }

    private static void requireTool(JsonNode response) {
        if (response.has("error") || response.at("/result/isError").asBoolean(false)) {
            throw new IllegalStateException(response.toString());
        }
    }

    private static double[] time(int n, Runnable call) {
        call.run();
        call.run();
        double[] ms = new double[n];
        for (int i = 0; i < n; i++) {
            long start = System.nanoTime();
            call.run();
            ms[i] = (System.nanoTime() - start) / 1e6;
        }
        Arrays.sort(ms);
        return ms;
    }

    private static void report(String what, double[] ours, double[] theirs) {
        double oursMedian = ours[ours.length / 2];
        double theirsMedian = theirs[theirs.length / 2];
        System.out.printf("%s%n  ours   median %7.1f ms  p90 %7.1f ms%n  theirs median %7.1f ms  p90 %7.1f ms%n  ratio ours/theirs %.2fx%n",
                what, oursMedian, ours[(int) (ours.length * 0.9)], theirsMedian, theirs[(int) (theirs.length * 0.9)],
                oursMedian / theirsMedian);
    }

    /** A minimal MCP stdio client: one JSON-RPC message a line. */
    private static final class Mcp implements AutoCloseable {
        private final Process process;
        private final OutputStream in;
        private final BufferedReader out;
        private int id;

        Mcp(Process process) {
            this.process = process;
            this.in = process.getOutputStream();
            this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        }

        JsonNode tool(String name, String arguments) {
            return call("tools/call", "{\"name\":\"" + name + "\",\"arguments\":" + arguments + "}");
        }

        JsonNode call(String method, String params) {
            try {
                int mine = ++id;
                send("{\"jsonrpc\":\"2.0\",\"id\":" + mine + ",\"method\":\"" + method + "\",\"params\":" + params + "}");
                for (String line; (line = out.readLine()) != null; ) {
                    JsonNode message = JSON.readTree(line);
                    if (message.path("id").asInt(-1) == mine) {
                        return message;
                    }
                }
                throw new IllegalStateException("mobile-mcp closed its output");
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        void notify(String method) throws IOException {
            send("{\"jsonrpc\":\"2.0\",\"method\":\"" + method + "\"}");
        }

        private void send(String message) throws IOException {
            in.write((message + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        }

        @Override
        public void close() {
            process.destroy();
        }
    }

    private ObserveBench() {}
}
