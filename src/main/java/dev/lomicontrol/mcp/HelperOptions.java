package dev.lomicontrol.mcp;

import dev.lomicontrol.core.DataDirectory;
import dev.lomicontrol.tools.ToolSelection;
import dev.lomicontrol.tools.Toolset;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

/**
 * The helper's command line and tunables. Arguments: {@code --mcp}, {@code --discovery-file F}
 * (default: the data directory's {@code agent-control/discovery.json}), {@code --discovery-key HEX}
 * (no default: without it the helper reports app_unavailable), {@code --toolsets LIST} (default
 * {@code $LOMI_TOOLSETS}, else {@code all}) and {@code --read-only} (or {@code LOMI_READ_ONLY=1}):
 * the {@link ToolSelection} it lists and serves. Any other argument, a missing value or an unknown
 * toolset is a {@link UsageException}: the helper says so on stderr and exits 2. System properties (for tests and
 * operators): {@code lomi.mcp.call-timeout-ms} (30000; the whole wait of one forwarded call, well
 * under the 60 s clients allow), {@code lomi.mcp.drain-ms} (5000; how long in-flight calls may
 * finish after stdin closes), {@code lomi.mcp.label-grace-ms} (1000; how long the first pairing
 * request waits for initialize to name the client).
 */
record HelperOptions(
        ToolSelection selection,
        Optional<Path> discoveryFile,
        Optional<String> discoveryKey,
        Duration callTimeout,
        Duration drainWait,
        Duration labelGrace) {

    /** The arguments the helper takes, as {@link UsageException}s name them. */
    static final String USAGE =
            "lomi-control --mcp [--discovery-file FILE] [--discovery-key HEX] [--toolsets all|LIST] "
                    + "[--read-only]; LIST is a comma-separated list of " + Toolset.names()
                    + " (core is always served)";

    /** A command line the helper cannot run with. */
    static final class UsageException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message + "\nusage: " + USAGE);
        }
    }

    /**
     * Parses the arguments; environment variables apply where no argument says otherwise.
     *
     * @throws UsageException for an unknown argument, an option without its value or an unknown toolset
     */
    static HelperOptions parse(List<String> args, Map<String, String> environment, Properties properties) {
        Optional<Path> file = Optional.empty();
        Optional<String> key = Optional.empty();
        Optional<String> toolsets =
                Optional.ofNullable(environment.get(ToolSelection.ENVIRONMENT)).filter(value -> !value.isBlank());
        boolean readOnly = isSet(environment.get(ToolSelection.READ_ONLY_ENVIRONMENT));
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            int equals = arg.indexOf('=');
            String name = arg.startsWith("--") && equals > 0 ? arg.substring(0, equals) : arg;
            boolean takesValue = name.equals("--discovery-file")
                    || name.equals("--discovery-key")
                    || name.equals(ToolSelection.OPTION);
            String value = "";
            if (takesValue) {
                if (equals > 0) {
                    value = arg.substring(equals + 1);
                } else if (i + 1 < args.size()) {
                    value = args.get(++i);
                } else {
                    throw new UsageException(name + " needs a value");
                }
            }
            if (name.equals("--discovery-file")) {
                file = path(value);
            } else if (name.equals("--discovery-key")) {
                key = Optional.of(value);
            } else if (name.equals(ToolSelection.OPTION)) {
                toolsets = Optional.of(value);
            } else if (arg.equals(ToolSelection.READ_ONLY_OPTION)) {
                readOnly = true;
            } else if (!arg.equals("--mcp")) {
                throw new UsageException("unknown argument " + arg);
            }
        }
        ToolSelection selection;
        try {
            selection = toolsets.isEmpty()
                    ? new ToolSelection(ToolSelection.all().toolsets(), readOnly)
                    : ToolSelection.parse(toolsets.get(), readOnly);
        } catch (IllegalArgumentException e) {
            throw new UsageException(String.valueOf(e.getMessage()));
        }
        if (file.isEmpty()) {
            Path store = DataDirectory.resolve(Optional.empty(), environment, properties.getProperty("user.home", "/"))
                    .store();
            file = Optional.of(store.resolve("discovery.json"));
        }
        return new HelperOptions(
                selection,
                file,
                key,
                millis(properties, "lomi.mcp.call-timeout-ms", 30_000),
                millis(properties, "lomi.mcp.drain-ms", 5_000),
                millis(properties, "lomi.mcp.label-grace-ms", 1_000));
    }

    /** An environment flag: set unless absent, empty, {@code 0}, {@code false} or {@code no}. */
    private static boolean isSet(@Nullable String value) {
        if (value == null) {
            return false;
        }
        String flag = value.trim().toLowerCase(Locale.ROOT);
        return !flag.isEmpty() && !flag.equals("0") && !flag.equals("false") && !flag.equals("no");
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
