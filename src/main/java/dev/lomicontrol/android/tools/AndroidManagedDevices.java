package dev.lomicontrol.android.tools;

import dev.lomicontrol.android.AvdDirectory;
import dev.lomicontrol.android.AvdFiles;
import dev.lomicontrol.android.SdkPackages;
import dev.lomicontrol.android.api.AndroidInputs;
import dev.lomicontrol.android.api.AndroidResults;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The AVDs as the setup inventory shows them, read from each one's {@code config.ini}: the image
 * ({@code image.sysdir.1} {@code system-images/android-34/google_apis/x86_64/} is the package
 * {@code system-images;android-34;google_apis;x86_64}, its revision from the SDK's inventory), the
 * profile ({@code hw.device.name}), the hardware ({@code hw.ramSize}, {@code hw.cpu.ncore},
 * {@code disk.dataPartition.size}, {@code hw.gpu.mode}, {@code fastboot.forceColdBoot}), and
 * whether an emulator holds it ({@code *.lock} files). The device id is lomi_android_list's.
 */
final class AndroidManagedDevices {

    private AndroidManagedDevices() {}

    static List<AndroidResults.ManagedDevice> of(AvdDirectory avds, List<SdkPackages.Installed> installed) {
        List<AndroidResults.ManagedDevice> devices = new ArrayList<>();
        for (AvdDirectory.Avd avd : avds.list()) {
            Map<String, String> config = AvdFiles.config(avd);
            String image = imageOf(config);
            devices.add(new AndroidResults.ManagedDevice(
                    idOf(avd.name()),
                    avd.name(),
                    image,
                    installed.stream()
                            .filter(p -> p.id().equals(image))
                            .map(SdkPackages.Installed::revision)
                            .findFirst()
                            .orElse(""),
                    config.getOrDefault("hw.device.name", ""),
                    hardware(config),
                    Optional.empty(),
                    AvdFiles.locked(avd)));
        }
        return List.copyOf(devices);
    }

    /** The id lomi_android_list gives the AVD {@code name}. */
    static String idOf(String name) {
        return UUID.nameUUIDFromBytes(("avd:" + name).getBytes(StandardCharsets.UTF_8))
                .toString();
    }

    static String imageOf(Map<String, String> config) {
        String dir = config.getOrDefault("image.sysdir.1", "").replaceAll("/+$", "");
        return dir.replace('/', ';');
    }

    static AndroidInputs.Hardware hardware(Map<String, String> config) {
        String gpu = config.getOrDefault("hw.gpu.mode", "auto").toLowerCase(Locale.ROOT);
        return new AndroidInputs.Hardware(
                size(config.getOrDefault("hw.ramSize", "0"), 1L << 20),
                number(config.getOrDefault("hw.cpu.ncore", "0")),
                size(config.getOrDefault("disk.dataPartition.size", "0"), 1L << 30),
                gpu.equals("host")
                        ? AndroidInputs.Gpu.HOST
                        : gpu.startsWith("swiftshader") || gpu.equals("guest") || gpu.equals("off")
                                ? AndroidInputs.Gpu.SOFTWARE
                                : AndroidInputs.Gpu.AUTO,
                !config.getOrDefault("fastboot.forceColdBoot", "no").equalsIgnoreCase("yes"));
    }

    /** The config.ini lines of {@code hardware}. */
    static Map<String, String> lines(AndroidInputs.Hardware hardware) {
        return Map.of(
                "hw.ramSize",
                hardware.ramMib() + "M",
                "hw.cpu.ncore",
                Long.toString(hardware.cpuCount()),
                "disk.dataPartition.size",
                hardware.dataGib() + "G",
                "hw.gpu.enabled",
                hardware.gpu() == AndroidInputs.Gpu.SOFTWARE ? "no" : "yes",
                "hw.gpu.mode",
                switch (hardware.gpu()) {
                    case HOST -> "host";
                    case SOFTWARE -> "swiftshader_indirect";
                    case AUTO -> "auto";
                },
                "fastboot.forceColdBoot",
                hardware.quickBoot() ? "no" : "yes");
    }

    /** A size such as {@code 2048}, {@code 2048M}, {@code 6G} or bytes, in units of {@code unit} bytes. */
    static long size(String value, long unit) {
        String v = value.strip().toUpperCase(Locale.ROOT);
        long bytes;
        if (v.endsWith("G")) {
            bytes = number(v.substring(0, v.length() - 1)) << 30;
        } else if (v.endsWith("M")) {
            bytes = number(v.substring(0, v.length() - 1)) << 20;
        } else if (v.endsWith("K")) {
            bytes = number(v.substring(0, v.length() - 1)) << 10;
        } else {
            long n = number(v);
            bytes = unit == (1L << 20) && n < (1L << 20) ? n << 20 : n;
        }
        return bytes / unit;
    }

    private static long number(String value) {
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
