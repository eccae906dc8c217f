package dev.lomicontrol.android;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * bench/android-bridge.sh: a {@code shell,v2} round trip ({@code echo x}) through the real adb
 * server (private port and HOME) to the test device, N times each way: our {@link AdbBridge}, and
 * dev.mobile:dadb's AdbServer mode ({@code AdbServer.createDadb}); the adb CLI for scale. Compiled
 * against the test classes (it uses {@link FakeAdbd}), run by the script; not part of the build.
 */
public final class BridgeBench {

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        Path home = Files.createTempDirectory("adb-bench-home");
        int port;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        String adbPort = Integer.toString(port);
        run(home, adbPort, "start-server");
        try (FakeAdbd device = FakeAdbd.open()) {
            run(home, adbPort, "connect", device.serial());
            AdbBridge ours = new AdbBridge(port, Optional.empty(), AdbTimeouts.DEFAULT);
            awaitDevice(ours, device.serial());
            dadb.Dadb theirs =
                    dadb.adbserver.AdbServer.createDadb("127.0.0.1", port, "host:transport:" + device.serial(), 2000, 10000);
            Duration call = Duration.ofSeconds(10);
            List<String> echo = List.of("echo", "x");
            for (int round = 1; round <= 2; round++) {
                report("ours  round " + round, time(n, () -> check(ours.shell(device.serial(), echo, call, 100).stdoutText())));
                report("dadb  round " + round, time(n, () -> check(theirs.shell("echo x").getAllOutput())));
            }
            report("adb CLI (fork per call)", time(Math.min(n, 50), () -> check(run(home, adbPort, "-s", device.serial(), "shell", "echo", "x"))));
            theirs.close();
        } finally {
            run(home, adbPort, "kill-server");
        }
    }

    interface Call {
        void run() throws Exception;
    }

    static void check(String out) {
        if (!out.strip().equals("x")) {
            throw new IllegalStateException("unexpected answer: " + out);
        }
    }

    static long[] time(int n, Call call) throws Exception {
        for (int i = 0; i < 50; i++) {
            call.run(); // warm-up
        }
        long[] micros = new long[n];
        for (int i = 0; i < n; i++) {
            long start = System.nanoTime();
            call.run();
            micros[i] = (System.nanoTime() - start) / 1000;
        }
        Arrays.sort(micros);
        return micros;
    }

    static void report(String what, long[] micros) {
        double mean = Arrays.stream(micros).average().orElse(0);
        System.out.printf(
                "%-26s N=%d  p50 %.2f ms  p95 %.2f ms  mean %.2f ms%n",
                what, micros.length, micros[micros.length / 2] / 1000.0, micros[(int) (micros.length * 0.95)] / 1000.0, mean / 1000.0);
    }

    static void awaitDevice(AdbBridge bridge, String serial) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            if (bridge.devices(Duration.ofSeconds(5)).stream().anyMatch(d -> d.serial().equals(serial) && d.state() == DeviceState.DEVICE)) {
                return;
            }
            Thread.sleep(50); // a stand-alone benchmark without Awaitility on its class path
        }
        throw new IllegalStateException(serial + " never came online");
    }

    static String run(Path home, String port, String... args) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of("adb", "-P", port));
        argv.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true);
        builder.environment().put("HOME", home.toString());
        builder.environment().put("ANDROID_ADB_SERVER_PORT", port);
        Process process = builder.start();
        byte[] out = process.getInputStream().readAllBytes();
        process.waitFor(30, TimeUnit.SECONDS);
        return new String(out, StandardCharsets.UTF_8);
    }
}
