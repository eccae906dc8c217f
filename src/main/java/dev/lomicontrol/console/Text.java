package dev.lomicontrol.console;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/** Small formatting and argument helpers shared by the command groups. */
final class Text {

    private Text() {}

    /** An instant as ISO-8601 to the second. */
    static String time(Instant instant) {
        return instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** {@code 1m 5s}-style duration (negative durations print as 0s). */
    static String duration(Duration duration) {
        long seconds = Math.max(0, duration.getSeconds());
        if (seconds >= 3600) {
            return seconds / 3600 + "h " + (seconds % 3600) / 60 + "m";
        }
        return seconds >= 60 ? seconds / 60 + "m " + seconds % 60 + "s" : seconds + "s";
    }

    /** A comma-separated option value as its non-blank items; none at all is a usage error. */
    static List<String> list(String value, String option) {
        List<String> items = new ArrayList<>();
        for (String item : value.split(",")) {
            if (!item.isBlank()) {
                items.add(item.strip());
            }
        }
        if (items.isEmpty()) {
            throw new UsageException("--" + option + " needs at least one comma-separated item");
        }
        return items;
    }

    /**
     * Destructive commands run only with {@code --confirm}; without it they are refused (exit 1)
     * with a message saying what would happen.
     */
    static void requireConfirm(boolean confirm, String consequence) {
        if (!confirm) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, consequence + "; repeat with --confirm");
        }
    }

    /** A required positional argument that must not be blank. */
    static String required(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new UsageException("missing <" + name + ">");
        }
        return value.strip();
    }
}
