package dev.lomicontrol.tools;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether this host can serve a tool's {@link HostNeed}, probed on the spot (a few file checks), so
 * that an unqualified host answers HOST_UNQUALIFIED with the exact reason instead of a fake success.
 */
public final class HostQualification {

    private HostQualification() {}

    /** Why this host cannot serve {@code need}; empty when it can. */
    public static Optional<String> reason(HostNeed need) {
        switch (need) {
            case ANDROID:
                return android();
            case BROWSER:
                return Optional.of("the browser tools are not yet available on this broker (a headless Chromium driver is being built); "
                        + "nothing was done");
            default:
                return Optional.empty();
        }
    }

    /**
     * A managed Android emulator needs hardware virtualisation ({@code /dev/kvm}, readable and
     * writable), the SDK's {@code emulator} and {@code adb} ({@code $ANDROID_HOME} or
     * {@code $ANDROID_SDK_ROOT}, else the PATH); the reason names each one missing.
     */
    static Optional<String> android() {
        List<String> missing = new ArrayList<>();
        Path kvm = Path.of("/dev/kvm");
        if (!Files.exists(kvm)) {
            missing.add("/dev/kvm is absent (no hardware virtualisation for the emulator)");
        } else if (!Files.isReadable(kvm) || !Files.isWritable(kvm)) {
            missing.add("/dev/kvm is not readable and writable by this user");
        }
        if (sdkTool("emulator/emulator", "emulator").isEmpty()) {
            missing.add("the Android SDK emulator was not found (ANDROID_HOME/emulator/emulator or 'emulator' on the PATH)");
        }
        if (sdkTool("platform-tools/adb", "adb").isEmpty()) {
            missing.add("adb was not found (ANDROID_HOME/platform-tools/adb or 'adb' on the PATH)");
        }
        if (missing.isEmpty()) {
            return Optional.of("a managed Android emulator is present, but the Android tools are not implemented on this broker yet");
        }
        return Optional.of("this host cannot run a managed Android emulator: " + String.join("; ", missing));
    }

    private static Optional<Path> sdkTool(String inSdk, String onPath) {
        for (String variable : List.of("ANDROID_HOME", "ANDROID_SDK_ROOT")) {
            String sdk = System.getenv(variable);
            if (sdk != null && !sdk.isBlank() && Files.isExecutable(Path.of(sdk, inSdk))) {
                return Optional.of(Path.of(sdk, inSdk));
            }
        }
        String path = System.getenv("PATH");
        for (String dir : path == null ? new String[0] : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, onPath))) {
                return Optional.of(Path.of(dir, onPath));
            }
        }
        return Optional.empty();
    }
}
