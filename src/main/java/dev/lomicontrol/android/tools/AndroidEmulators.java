package dev.lomicontrol.android.tools;

import dev.lomicontrol.android.AndroidDevices;
import dev.lomicontrol.android.Emulators;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.tools.HostProbe;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * The emulator engine of the host the dispatch checks calls against: the SDK's {@code emulator}
 * that probe finds (a test's stand-in SDK in tests, this process's environment in the broker), the
 * user's console auth token in the probe's home, the devices' adb server. Built per call, so an SDK
 * installed later is found; for lomi_android_start and lomi_android_stop (not served yet).
 */
final class AndroidEmulators {

    /** Where the emulator's console auth token is, under the user's home. */
    static final String CONSOLE_TOKEN = ".emulator_console_auth_token";

    private final Supplier<HostProbe> host;
    private final Supplier<AndroidDevices> devices;

    AndroidEmulators(Supplier<HostProbe> host, Supplier<AndroidDevices> devices) {
        this.host = host;
        this.devices = devices;
    }

    /** The engine now, each emulator's output in {@code logDirectory}; HOST_UNQUALIFIED without the SDK's emulator. */
    Emulators engine(Path logDirectory) {
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
                logDirectory,
                Emulators.BOOT_POLL);
    }
}
