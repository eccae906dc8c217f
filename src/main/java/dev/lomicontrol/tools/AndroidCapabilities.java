package dev.lomicontrol.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether this host has each Android capability ({@link HostNeed#ANDROID_DEVICES} and the others),
 * from file checks only (the helper runs it on every Android call and in {@code lomi_status}; it
 * opens no socket — the adb server's version is the device bridge's to report): the reason names
 * every missing piece and where it was looked for, and the install step.
 */
final class AndroidCapabilities {

    static final String ADB_LOOKED_FOR =
            "$ANDROID_HOME/platform-tools/adb, $ANDROID_SDK_ROOT/platform-tools/adb, ~/Android/Sdk/platform-tools/adb, 'adb' on the PATH";
    static final String SDK_LOOKED_FOR = "$ANDROID_HOME, $ANDROID_SDK_ROOT, ~/Android/Sdk";

    private AndroidCapabilities() {}

    /** Why {@code host} lacks the Android capability {@code need}; empty when it has it. */
    static Optional<String> missing(HostNeed need, HostProbe host) {
        List<String> missing = new ArrayList<>();
        switch (need) {
            case ANDROID_DEVICES:
                adb(host, missing);
                break;
            case ANDROID_EMULATOR:
                adb(host, missing);
                if (host.emulator().isEmpty()) {
                    missing.add("the Android SDK's emulator was not found (<sdk>/emulator/emulator with the SDK at "
                            + SDK_LOOKED_FOR + ", or 'emulator' on the PATH; install it with Android Studio's SDK"
                            + " Manager or sdkmanager 'emulator')");
                }
                host.kvmProblem().ifPresent(missing::add);
                break;
            case ANDROID_SETUP:
                sdkTool(host, "sdkmanager", missing);
                break;
            case ANDROID_MANAGE:
                sdkTool(host, "avdmanager", missing);
                break;
            default:
                throw new IllegalArgumentException(need + " is not an Android capability");
        }
        return missing.isEmpty()
                ? Optional.empty()
                : Optional.of(what(need) + " is not available on this host: " + String.join("; ", missing)
                        + "; nothing was done");
    }

    /** The capability's name in an answer. */
    static String what(HostNeed need) {
        switch (need) {
            case ANDROID_DEVICES:
                return "Android device access (observation and input over adb)";
            case ANDROID_EMULATOR:
                return "the Android emulator's lifecycle (start, stop)";
            case ANDROID_SETUP:
                return "Android SDK setup";
            default:
                return "Android device management (create, modify, wipe, delete emulators)";
        }
    }

    private static void adb(HostProbe host, List<String> missing) {
        if (host.adb().isEmpty()) {
            missing.add("adb was not found (" + ADB_LOOKED_FOR
                    + "); install it with: apt-get install adb (or the SDK's platform-tools)");
        }
    }

    private static void sdkTool(HostProbe host, String name, List<String> missing) {
        if (host.cmdlineTool(name).isPresent()) {
            return;
        }
        if (host.sdkRoot().isEmpty()) {
            missing.add("no Android SDK was found (" + SDK_LOOKED_FOR + ") and '" + name
                    + "' is not on the PATH; install the SDK's command-line tools (Android Studio, or the"
                    + " commandlinetools zip into ~/Android/Sdk/cmdline-tools/latest)");
        } else {
            missing.add("the SDK at " + host.sdkRoot().get() + " has no " + name
                    + " (cmdline-tools/latest/bin, cmdline-tools/<version>/bin, tools/bin) and '" + name
                    + "' is not on the PATH; install the SDK's command-line tools");
        }
    }
}
