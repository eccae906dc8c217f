package dev.lomicontrol.android;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code sdkmanager} prints, parsed: the {@code Available Packages:} table of
 * {@code --list} ({@code Path | Version | Description}) and the licence blocks it shows before asking
 * {@code Accept? (y/N):} ({@code License <id>:}, a dashed line, the text, a dashed line).
 */
public final class SdkManagerOutput {

    /** At most this many catalog entries are kept. */
    public static final int MAX_ENTRIES = 4096;

    /** One package sdkmanager can install. */
    public record Entry(String id, String revision, String description) {}

    /** A licence as sdkmanager shows it: its id and its text (lines joined with '\n', stripped). */
    public record License(String id, String text) {

        /** The SHA-256 of the text, in hex: what the admin approves. */
        public String digest() {
            return SdkPackages.sha256(text);
        }

        /** The first {@code lines} lines of the text. */
        public String firstLines(int lines) {
            String[] all = text.split("\n", lines + 1);
            return String.join("\n", java.util.Arrays.asList(all).subList(0, Math.min(lines, all.length)));
        }
    }

    private static final Pattern LICENSE = Pattern.compile(
            "(?m)(?:\\d+/\\d+: )?License ([A-Za-z0-9._-]+):[ \\t]*\\n-{5,}[ \\t]*\\n(.*?)\\n-{5,}[ \\t]*$",
            Pattern.DOTALL);

    private SdkManagerOutput() {}

    /** The entries of {@code --list}'s {@code Available Packages:} table, in its order. */
    public static List<Entry> available(String output) {
        List<Entry> entries = new ArrayList<>();
        boolean inTable = false;
        for (String raw : output.split("\r\n|\r|\n")) {
            String line = raw.strip();
            if (line.equals("Available Packages:")) {
                inTable = true;
                continue;
            }
            if (!inTable) {
                continue;
            }
            if (line.isEmpty() || line.endsWith(":")) {
                if (!entries.isEmpty() || line.endsWith(":")) {
                    break;
                }
                continue;
            }
            String[] cells = line.split("\\|");
            if (cells.length < 2) {
                continue;
            }
            String id = cells[0].strip();
            String revision = cells[1].strip();
            if (id.equals("Path") || id.startsWith("---") || id.isEmpty() || revision.isEmpty()) {
                continue;
            }
            entries.add(new Entry(id, revision, cells.length > 2 ? cells[2].strip() : ""));
            if (entries.size() >= MAX_ENTRIES) {
                break;
            }
        }
        return List.copyOf(entries);
    }

    /** The licences shown in {@code output}, by id (the first text shown for an id). */
    public static List<License> licenses(String output) {
        Map<String, License> found = new LinkedHashMap<>();
        Matcher matcher = LICENSE.matcher(output.replace("\r\n", "\n"));
        while (matcher.find()) {
            found.putIfAbsent(
                    matcher.group(1),
                    new License(matcher.group(1), matcher.group(2).strip()));
        }
        return List.copyOf(found.values());
    }

    /** The last licence shown before a prompt at the end of {@code output}, if any. */
    public static Optional<License> lastLicense(String output) {
        Matcher matcher = LICENSE.matcher(output.replace("\r\n", "\n"));
        Optional<License> last = Optional.empty();
        while (matcher.find()) {
            last = Optional.of(new License(matcher.group(1), matcher.group(2).strip()));
        }
        return last;
    }
}
