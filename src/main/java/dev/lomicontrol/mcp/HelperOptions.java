package dev.lomicontrol.mcp;

import dev.lomicontrol.core.DataDirectory;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The helper's command line and tunables. Arguments: {@code --mcp}, {@code --discovery-file F}
 * (default: the data directory's {@code agent-control/discovery.json}), {@code --discovery-key HEX}
 * (no default: without it the helper reports app_unavailable). System properties (for tests and
 * operators): {@code lomi.mcp.call-timeout-ms} (30000; the whole wait of one forwarded call, well
 * under the 60 s clients allow), {@code lomi.mcp.drain-ms} (5000; how long in-flight calls may
 * finish after stdin closes), {@code lomi.mcp.label-grace-ms} (1000; how long the first pairing
 * request waits for initialize to name the client).
 */
record HelperOptions(
        Optional<Path> discoveryFile,
        Optional<String> discoveryKey,
        Duration callTimeout,
        Duration drainWait,
        Duration labelGrace) {

    /** Parses the arguments; unknown ones are reported on stderr and ignored (a client may add its own). */
    static HelperOptions parse(List<String> args, Map<String, String> environment, Properties properties) {
        Optional<Path> file = Optional.empty();
        Optional<String> key = Optional.empty();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String value = i + 1 < args.size() ? args.get(i + 1) : null;
            if (arg.equals("--discovery-file") && value != null) {
                file = path(value);
                i++;
            } else if (arg.equals("--discovery-key") && value != null) {
                key = Optional.of(value);
                i++;
            } else if (!arg.equals("--mcp")) {
                Diagnostics.warn("ignoring unknown argument " + arg);
            }
        }
        if (file.isEmpty()) {
            Path store = DataDirectory.resolve(Optional.empty(), environment, properties.getProperty("user.home", "/"))
                    .store();
            file = Optional.of(store.resolve("discovery.json"));
        }
        return new HelperOptions(
                file,
                key,
                millis(properties, "lomi.mcp.call-timeout-ms", 30_000),
                millis(properties, "lomi.mcp.drain-ms", 5_000),
                millis(properties, "lomi.mcp.label-grace-ms", 1_000));
    }

    private static Optional<Path> path(String value) {
        try {
            return Optional.of(Path.of(value));
        } catch (InvalidPathException e) {
            Diagnostics.warn("--discovery-file is not a valid path: " + value);
            return Optional.empty();
        }
    }

    private static Duration millis(Properties properties, String name, long fallback) {
        String value = properties.getProperty(name);
        try {
            return Duration.ofMillis(value == null ? fallback : Math.max(1, Long.parseLong(value.trim())));
        } catch (NumberFormatException e) {
            Diagnostics.warn("ignoring " + name + "=" + value + " (not a number of milliseconds)");
            return Duration.ofMillis(fallback);
        }
    }
}
