package dev.lomicontrol.android;

import dev.lomicontrol.testing.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;

/**
 * The main of the stand-in {@code emulator} the lifecycle tests write (a script that runs this JVM):
 * it serves {@link FakeEmulatorConsole} on {@code -port N} and {@link FakeAdbd} on N+1, registers
 * that device with the adb server of {@code ANDROID_ADB_SERVER_PORT} ({@code host:emulator:}, as the
 * real emulator does), sets {@code sys.boot_completed} to 1 after {@code STANDIN_BOOT_MS} (never when
 * negative), and exits when its console is told {@code kill} — unless {@code STANDIN_MODE} is
 * {@code ignores-kill} (it lingers) or {@code ignores-term} (it lingers and SIGTERM cannot end it
 * either). Its device names its AVD ({@code ro.boot.qemu.avd_name}), answers {@code uiautomator
 * dump} with the login screen of {@link AndroidObserveBrokerTests} and accepts every {@code input}
 * command. It writes its argv to {@code STANDIN_DIR/argv}, and when killed the console's lines to
 * {@code STANDIN_DIR/console} and its device's shell and exec commands (words joined by spaces) to
 * {@code STANDIN_DIR/device};
 * {@link #script} also records each start in {@code STANDIN_DIR/starts} and the process group's
 * leader in {@code leader.pid}, its child in {@code child.pid}.
 */
public final class StandInEmulator {

    private StandInEmulator() {}

    public static void main(String[] args) throws Exception {
        List<String> argv = List.of(args);
        Path dir = Path.of(System.getenv("STANDIN_DIR"));
        Files.write(dir.resolve("argv"), argv, StandardCharsets.UTF_8);
        String mode = System.getenv().getOrDefault("STANDIN_MODE", "normal");
        if (mode.equals("ignores-term")) {
            Runtime.getRuntime().addShutdownHook(new Thread(StandInEmulator::blockForever));
        }
        int port = Integer.parseInt(argv.get(argv.indexOf("-port") + 1));
        String avd = argv.get(argv.indexOf("-avd") + 1);
        FakeEmulatorConsole console = new FakeEmulatorConsole(port, System.getenv("STANDIN_TOKEN"), avd);
        byte[] dump = AndroidObserveBrokerTests.loginDump();
        FakeAdbd device = FakeAdbd.onPort(port + 1)
                .property("sys.boot_completed", "0")
                .property("ro.boot.qemu.avd_name", avd)
                .onExec(words -> words.equals(List.of("uiautomator", "dump", "/dev/tty")) ? dump : new byte[0]);
        device.onShell(words -> !words.isEmpty() && words.get(0).equals("input")
                ? FakeAdbd.Answer.out("")
                : device.defaultShell(words));
        register(Integer.parseInt(System.getenv("ANDROID_ADB_SERVER_PORT")), port + 1);
        long bootMillis = Long.parseLong(System.getenv("STANDIN_BOOT_MS"));
        // boots after STANDIN_BOOT_MS unless killed first (a negative value: never boots), then runs until killed
        if (bootMillis >= 0 && !console.awaitKilled(Duration.ofMillis(bootMillis))) {
            device.property("sys.boot_completed", "1");
        }
        console.awaitKilled(Duration.ofDays(1));
        Files.write(dir.resolve("console"), console.lines(), StandardCharsets.UTF_8);
        Files.write(
                dir.resolve("device"),
                device.shellCommands().stream()
                        .map(words -> String.join(" ", words))
                        .toList(),
                StandardCharsets.UTF_8);
        if (!mode.equals("normal")) {
            blockForever();
        }
        device.close();
        System.exit(0);
    }

    /**
     * The stand-in SDK {@code emulator} script for {@code dir}: a child in its process group (as the
     * emulator starts qemu), then this main in a JVM ({@code exec}, so the script's pid leads the group).
     */
    static String script(Path dir, String mode, long bootMillis, String token) {
        String java = ChildJvm.builder(StandInEmulator.class, List.of()).command().stream()
                .map(ShellQuote::quote)
                .collect(Collectors.joining(" "));
        String quoted = ShellQuote.quote(dir.toString());
        return "#!/bin/sh\n"
                + "echo $$ > " + quoted + "/leader.pid\n"
                + "echo \"$@\" >> " + quoted + "/starts\n"
                + "sleep 300 &\n"
                + "echo $! > " + quoted + "/child.pid\n"
                + "export STANDIN_DIR=" + quoted + " STANDIN_MODE=" + mode + " STANDIN_TOKEN=" + token
                + " STANDIN_BOOT_MS=" + bootMillis + "\n"
                + "exec " + java + " \"$@\"\n";
    }

    private static void register(int serverPort, int adbPort) throws IOException {
        try (SmartSocket socket =
                SmartSocket.open(serverPort, AdbTimeouts.DEFAULT, Duration.ofSeconds(5), "host:emulator")) {
            byte[] request = ("host:emulator:" + adbPort).getBytes(StandardCharsets.UTF_8);
            socket.write(String.format(Locale.ROOT, "%04x", request.length).getBytes(StandardCharsets.US_ASCII));
            socket.write(request);
            socket.flush();
        }
    }

    private static void blockForever() {
        try {
            new CountDownLatch(1).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
