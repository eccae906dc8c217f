package dev.lomicontrol.tools;

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

    /** Whether this broker implements the Android tools (until it does, they answer HOST_UNQUALIFIED on every host). */
    public static final boolean ANDROID_TOOLS_SERVED = false;

    private HostQualification() {}

    /** Why this host cannot serve {@code need}; empty when it can. */
    public static Optional<String> reason(HostNeed need) {
        switch (need) {
            case ANDROID:
                return android();
            case BROWSER:
                return browser();
            default:
                return Optional.empty();
        }
    }

    /** Where this host's Chromium is: {@code lomi.browser.executable} (system property) or {@code LOMI_BROWSER_EXECUTABLE}, else the Debian paths ({@link HostProbe#browserExecutable}). */
    public static Optional<Path> browserExecutable() {
        return HostProbe.current().browserExecutable();
    }

    /** The browser tools need a headless Chromium: a configured executable, else /usr/bin/chromium-headless-shell or /usr/bin/chromium. */
    static Optional<String> browser() {
        HostProbe host = HostProbe.current();
        if (host.browserExecutable().isPresent()) {
            return Optional.empty();
        }
        String configured = host.configuredBrowser().orElse("");
        return Optional.of(
                (configured.isBlank()
                                ? "no Chromium was found (/usr/bin/chromium-headless-shell, /usr/bin/chromium)"
                                : "the configured browser " + configured + " is not an executable file")
                        + "; install it with: apt-get install chromium-headless-shell (or set lomi.browser.executable); nothing was done");
    }

    /**
     * A managed Android emulator needs hardware virtualisation ({@code /dev/kvm}, readable and
     * writable), the SDK's {@code emulator} and {@code adb} ({@code $ANDROID_HOME} or
     * {@code $ANDROID_SDK_ROOT} or {@code ~/Android/Sdk}, else the PATH: {@link HostProbe#sdkTool});
     * the reason names each one missing.
     */
    static Optional<String> android() {
        HostProbe host = HostProbe.current();
        List<String> missing = new ArrayList<>();
        Path kvm = Path.of("/dev/kvm");
        if (!Files.exists(kvm)) {
            missing.add("/dev/kvm is absent (no hardware virtualisation for the emulator)");
        } else if (!Files.isReadable(kvm) || !Files.isWritable(kvm)) {
            missing.add("/dev/kvm is not readable and writable by this user");
        }
        if (host.sdkTool("emulator/emulator", "emulator").isEmpty()) {
            missing.add(
                    "the Android SDK emulator was not found (ANDROID_HOME/emulator/emulator, ~/Android/Sdk or 'emulator' on the PATH)");
        }
        if (host.adb().isEmpty()) {
            missing.add("adb was not found (ANDROID_HOME/platform-tools/adb, ~/Android/Sdk or 'adb' on the PATH)");
        }
        if (missing.isEmpty()) {
            return Optional.of(
                    "a managed Android emulator is present, but the Android tools are not implemented on this broker yet");
        }
        return Optional.of("this host cannot run a managed Android emulator: " + String.join("; ", missing));
    }
}
