package dev.lomicontrol.android;

import dev.lomicontrol.core.LomiException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The Android devices a user has: those the adb server sees now, with their states (emulators,
 * USB and wireless phones), and the AVDs of {@link AvdDirectory}; a running emulator
 * ({@code emulator-<port>}) is one entry with its AVD, found through its
 * {@code ro.boot.qemu.avd_name} (or the older {@code ro.kernel.qemu.avd_name}), asked within what
 * is left of the listing's deadline (an emulator that does not answer in time is listed without its
 * AVD). At most {@link #MAX} entries, attached devices first.
 */
public final class AndroidDevices {

    /** The reference's cap on the devices listed. */
    public static final int MAX = 16;

    /** How long asking one emulator for its AVD may take; past it the emulator is listed without one. */
    static final Duration AVD_NAME = Duration.ofSeconds(2);

    private final AdbBridge bridge;
    private final AvdDirectory avds;

    public AndroidDevices(AdbBridge bridge, AvdDirectory avds) {
        this.bridge = bridge;
        this.avds = avds;
    }

    /** The devices of the user on this host: the adb server of its environment, the AVD home of its environment. */
    public static AndroidDevices ofHost(
            Map<String, String> environment, java.nio.file.Path userHome, Optional<java.nio.file.Path> adb) {
        return new AndroidDevices(
                new AdbBridge(AdbBridge.serverPort(environment), adb, AdbTimeouts.DEFAULT),
                AvdDirectory.of(environment, userHome));
    }

    public AdbBridge bridge() {
        return bridge;
    }

    /** The AVD home the AVDs are listed from. */
    public AvdDirectory avds() {
        return avds;
    }

    /**
     * One device: attached ({@code serial} and {@code state} present), an AVD ({@code avd} present),
     * or a running emulator of an AVD (all three).
     */
    public record Listed(Optional<String> serial, Optional<DeviceState> state, Optional<AvdDirectory.Avd> avd) {

        /** A stable key: {@code adb:<serial>} for a device without an AVD, else {@code avd:<name>}. */
        public String key() {
            return avd.map(a -> "avd:" + a.name()).orElseGet(() -> "adb:" + serial.orElse(""));
        }
    }

    /** The list (≤ {@link #MAX}); the adb server's listing bounded by {@code deadline}, errors as the bridge maps them. */
    public List<Listed> list(Duration deadline) {
        long end = System.nanoTime() + deadline.toNanos();
        List<AvdDirectory.Avd> known = avds.list();
        List<Listed> listed = new ArrayList<>();
        Set<String> running = new HashSet<>();
        for (AttachedDevice device : bridge.devices(deadline)) {
            Optional<AvdDirectory.Avd> avd = device.isEmulator() && device.state() == DeviceState.DEVICE
                    ? avdOf(device.serial(), known, Duration.ofNanos(end - System.nanoTime()))
                    : Optional.empty();
            avd.ifPresent(a -> running.add(a.name()));
            listed.add(new Listed(Optional.of(device.serial()), Optional.of(device.state()), avd));
        }
        for (AvdDirectory.Avd avd : known) {
            if (!running.contains(avd.name())) {
                listed.add(new Listed(Optional.empty(), Optional.empty(), Optional.of(avd)));
            }
        }
        return List.copyOf(listed.subList(0, Math.min(MAX, listed.size())));
    }

    /** The AVD an emulator runs, asked within {@code left} (at most {@link #AVD_NAME}); empty when it does not say in time. */
    private Optional<AvdDirectory.Avd> avdOf(String serial, List<AvdDirectory.Avd> known, Duration left) {
        for (String property : List.of("ro.boot.qemu.avd_name", "ro.kernel.qemu.avd_name")) {
            Duration ask = left.compareTo(AVD_NAME) < 0 ? left : AVD_NAME;
            if (ask.toMillis() < 1) {
                return Optional.empty();
            }
            try {
                ShellResult result = bridge.shell(serial, List.of("getprop", property), ask, 256);
                String name = result.stdoutText().strip();
                if (result.exitCode() == 0 && !name.isEmpty()) {
                    return known.stream().filter(a -> a.name().equals(name)).findFirst();
                }
            } catch (LomiException unanswered) {
                return Optional.empty(); // listed as an attached device without its AVD
            }
        }
        return Optional.empty();
    }
}
