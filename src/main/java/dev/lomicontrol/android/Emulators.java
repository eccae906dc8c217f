package dev.lomicontrol.android;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Starts and stops the SDK's emulators. Start runs {@code setsid EMULATOR -avd NAME -port N
 * -no-window -no-audio -no-boot-anim -no-snapshot-save} (argv only; its own session and so its own
 * process group, {@code ANDROID_ADB_SERVER_PORT} set to the bridge's server, output to
 * {@code emulator-N.log}) and waits until adb lists {@code emulator-N} and its {@code getprop
 * sys.boot_completed} says 1, polled until the boot deadline (the reference's 180 s); each boot
 * gets a fresh generation. A boot past its deadline, or an emulator that exits first, ends its
 * process group. Stop sends the console's {@code kill} — through the real {@code adb emu kill}
 * ({@link AdbEmu}) when the bridge knows its adb, else to the console directly — then SIGTERM and at
 * last SIGKILL to the process group if the emulator lingers.
 */
public final class Emulators {

    /** The reference's boot budget. */
    public static final Duration BOOT_DEADLINE = Duration.ofSeconds(180);

    /** How often boot completion is asked (mobilecli polls every 2 s). */
    public static final Duration BOOT_POLL = Duration.ofSeconds(2);

    static final Duration GRACE = Duration.ofSeconds(5);

    /** How an emulator ended. */
    public enum Ended {
        CONSOLE_KILL,
        SIGTERM,
        SIGKILL,
        ALREADY_EXITED
    }

    /** A booted emulator: its AVD, console port, adb serial, generation and process (the leader of its group). */
    public record Booted(String avdName, int consolePort, String serial, String generation, ProcessHandle process) {}

    private final AdbBridge bridge;
    private final Path emulator;
    private final Path consoleToken;
    private final Path logDirectory;
    private final Duration poll;
    private final SecureRandom random = new SecureRandom();

    /**
     * @param emulator the SDK's {@code emulator} executable
     * @param consoleToken the user's {@code ~/.emulator_console_auth_token}
     * @param logDirectory where each emulator's output goes
     * @param poll how often boot completion is asked ({@link #BOOT_POLL})
     */
    public Emulators(AdbBridge bridge, Path emulator, Path consoleToken, Path logDirectory, Duration poll) {
        this.bridge = bridge;
        this.emulator = emulator;
        this.consoleToken = consoleToken;
        this.logDirectory = logDirectory;
        this.poll = poll;
    }

    /** The argv that starts {@code avdName} with its console on {@code consolePort}. */
    public List<String> argv(String avdName, int consolePort) {
        if (!avdName.matches("[A-Za-z0-9._-]{1,255}") || avdName.startsWith("-")) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "not an AVD name: " + avdName);
        }
        if (consolePort < 5554 || consolePort > 5682 || consolePort % 2 != 0) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "an emulator's console port is even, 5554..5682: " + consolePort);
        }
        return List.of(
                "setsid",
                emulator.toString(),
                "-avd",
                avdName,
                "-port",
                Integer.toString(consolePort),
                "-no-window",
                "-no-audio",
                "-no-boot-anim",
                "-no-snapshot-save");
    }

    /** Starts {@code avdName} and returns once it has booted, within {@code bootDeadline}. */
    public Booted start(String avdName, int consolePort, Duration bootDeadline) {
        List<String> argv = argv(avdName, consolePort);
        if (!Files.isExecutable(emulator)) {
            throw new LomiException(
                    ErrorCode.HOST_UNQUALIFIED,
                    "the Android SDK's emulator was not found at " + emulator
                            + "; install it (sdkmanager emulator) or set ANDROID_HOME");
        }
        long end = System.nanoTime() + bootDeadline.toNanos();
        ProcessHandle process = launch(argv, consolePort);
        String serial = "emulator-" + consolePort;
        Boot.await(bridge, serial, process, end, poll, () -> endGroup(process, GRACE), log(consolePort));
        return new Booted(avdName, consolePort, serial, generation(), process);
    }

    /**
     * Stops {@code booted}: the console's kill (at most half of {@code deadline}, and {@link #GRACE},
     * to answer and exit), then SIGTERM to its process group (the rest, at least a second), then
     * SIGKILL; how it ended. The group is sent SIGKILL at the end in every case, for what is left of it.
     */
    public Ended stop(Booted booted, Duration deadline) {
        ProcessHandle process = booted.process();
        if (!process.isAlive()) {
            ProcessGroup.signal(process.pid(), "KILL");
            return Ended.ALREADY_EXITED;
        }
        long end = System.nanoTime() + deadline.toNanos();
        long consoleEnd = System.nanoTime() + min(GRACE, deadline.dividedBy(2)).toNanos();
        if (consoleKill(booted, until(consoleEnd)) && ProcessGroup.exited(process, until(consoleEnd))) {
            ProcessGroup.signal(process.pid(), "KILL");
            return Ended.CONSOLE_KILL;
        }
        return endGroup(process, min(GRACE, max(Duration.ofSeconds(1), until(end))));
    }

    /**
     * The console's {@code kill}: through the real adb client's {@code adb emu kill} when the bridge
     * knows its adb ({@link AdbEmu}), else by talking to the console directly ({@link EmulatorConsole}).
     */
    private boolean consoleKill(Booted booted, Duration deadline) {
        Optional<Path> adb = bridge.adb();
        if (adb.isPresent()) {
            return AdbEmu.kill(adb.get(), bridge.port(), booted.serial(), deadline);
        }
        return EmulatorConsole.kill(booted.consolePort(), EmulatorConsole.token(consoleToken), deadline);
    }

    private Ended endGroup(ProcessHandle process, Duration termWait) {
        ProcessGroup.signal(process.pid(), "TERM");
        if (ProcessGroup.exited(process, termWait)) {
            ProcessGroup.signal(process.pid(), "KILL");
            return Ended.SIGTERM;
        }
        ProcessGroup.signal(process.pid(), "KILL");
        ProcessGroup.exited(process, GRACE);
        return Ended.SIGKILL;
    }

    private ProcessHandle launch(List<String> argv, int consolePort) {
        try {
            Files.createDirectories(logDirectory);
            ProcessBuilder builder = new ProcessBuilder(argv)
                    .redirectErrorStream(true)
                    .redirectOutput(
                            ProcessBuilder.Redirect.appendTo(log(consolePort).toFile()))
                    .redirectInput(
                            ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
            builder.environment().put("ANDROID_ADB_SERVER_PORT", Integer.toString(bridge.port()));
            return builder.start().toHandle();
        } catch (IOException e) {
            throw new UncheckedIOException("the emulator could not be started: " + argv, e);
        }
    }

    private Path log(int consolePort) {
        return logDirectory.resolve("emulator-" + consolePort + ".log");
    }

    private String generation() {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    private static Duration until(long end) {
        return Duration.ofNanos(Math.max(1, end - System.nanoTime()));
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    static Optional<String> lastLine(Path file) {
        try {
            List<String> lines = Files.readAllLines(file);
            return lines.isEmpty() ? Optional.empty() : Optional.of(lines.get(lines.size() - 1));
        } catch (IOException | UncheckedIOException e) {
            return Optional.empty();
        }
    }
}
