package dev.lomicontrol.console;

import dev.lomicontrol.android.AdbBridge;
import dev.lomicontrol.android.AdbTimeouts;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.tools.HostNeed;
import dev.lomicontrol.tools.HostProbe;
import dev.lomicontrol.tools.HostQualification;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Android lines of the console's {@code status}: which adb the host probe found and the version
 * of the adb server that answers on its port ({@code host:version}, within 2 s; a server that is
 * not running is not started from here — the Android tools start it when they need it), then each
 * Android capability ({@link HostNeed}) with {@code available} or what it lacks. {@code lomi_status}
 * has no field for the server's version, so this is where the admin sees it.
 */
final class AndroidStatusLines {

    static final Duration ASK = Duration.ofSeconds(2);

    private AndroidStatusLines() {}

    static List<String[]> lines(HostProbe host) {
        List<String[]> lines = new ArrayList<>();
        lines.add(new String[] {"android adb", adb(host)});
        for (HostNeed need : HostNeed.values()) {
            if (need.android()) {
                lines.add(new String[] {
                    "android " + name(need),
                    HostQualification.reason(host, need).orElse("available")
                });
            }
        }
        return lines;
    }

    static String adb(HostProbe host) {
        if (host.adb().isEmpty()) {
            return "not found (apt-get install adb, or the SDK's platform-tools)";
        }
        Map<String, String> environment = host.environment();
        int port = AdbBridge.serverPort(environment);
        AdbBridge bridge = new AdbBridge(
                port, Optional.empty(), new AdbTimeouts(Duration.ofSeconds(1), ASK, Duration.ofSeconds(1)));
        String where = host.adb().get() + "; server on 127.0.0.1:" + port;
        try {
            return where + ": version " + bridge.version(ASK);
        } catch (LomiException e) {
            return e.code() == dev.lomicontrol.core.ErrorCode.HOST_UNQUALIFIED
                    ? where + ": not running (the Android tools start it with 'adb start-server' when they need it)"
                    : where + ": not answering (" + e.getMessage() + ")";
        }
    }

    private static String name(HostNeed need) {
        return need.name().substring("ANDROID_".length()).toLowerCase(java.util.Locale.ROOT);
    }
}
