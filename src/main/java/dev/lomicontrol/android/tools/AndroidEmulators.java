package dev.lomicontrol.android.tools;

import dev.lomicontrol.android.AndroidDevices;
import dev.lomicontrol.android.Emulators;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.tools.HostProbe;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The emulator engine of the host the dispatch checks calls against: the SDK's {@code emulator}
 * that probe finds (a test's stand-in SDK in tests, this process's environment in the broker), the
 * user's console auth token in the probe's home, the devices' adb server. Built per call, so an SDK
 * installed later is found; for lomi_android_start and lomi_android_stop ({@link AndroidRuntimes}).
 * Each emulator's output goes to {@code emulator-N.log} in a private temporary folder of this broker.
 */
final class AndroidEmulators {

    /** Where the emulator's console auth token is, under the user's home. */
    static final String CONSOLE_TOKEN = ".emulator_console_auth_token";

    private final Supplier<HostProbe> host;
    private final Supplier<AndroidDevices> devices;
    private @Nullable Path logs;

    AndroidEmulators(Supplier<HostProbe> host, Supplier<AndroidDevices> devices) {
        this.host = host;
        this.devices = devices;
    }

    /** The engine now; HOST_UNQUALIFIED without the SDK's emulator. */
    Emulators engine() {
        HostProbe probe = host.get();
        Path emulator = probe.emulator()
                .orElseThrow(() -> new LomiException(
                        ErrorCode.HOST_UNQUALIFIED,
                        "the Android SDK's emulator was not found (<sdk>/emulator/emulator under ANDROID_HOME,"
                                + " ANDROID_SDK_ROOT or ~/Android/Sdk, or 'emulator' on the PATH); install it with"
                                + " Android Studio's SDK Manager or sdkmanager 'emulator'"));
        return new Emulators(
                devices.get().bridge(),
                emulator,
                probe.home().resolve(CONSOLE_TOKEN),
                logDirectory(),
                Emulators.BOOT_POLL);
    }

    private synchronized Path logDirectory() {
        if (logs == null) {
            try {
                logs = Files.createTempDirectory("lomi-emulators-");
            } catch (IOException e) {
                throw new UncheckedIOException("no folder for the emulators' output could be made", e);
            }
        }
        return logs;
    }
}
