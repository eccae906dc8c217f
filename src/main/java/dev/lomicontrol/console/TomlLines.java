package dev.lomicontrol.console;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A line-level TOML scanner, enough to edit one table safely: each physical line is classified
 * (blank, comment, table header, key/value start, continuation of a multi-line value) with the
 * header's or key's dotted path. Strings, multi-line strings, arrays and inline tables are tracked
 * so brackets inside values are never mistaken for headers. Anything else is refused
 * (INVALID_ARGUMENT naming the line).
 */
final class TomlLines {

    enum Kind {
        BLANK,
        COMMENT,
        HEADER,
        ARRAY_HEADER,
        KEY,
        CONTINUATION;

        boolean isHeader() {
            return this == HEADER || this == ARRAY_HEADER;
        }
    }

    /** One physical line: {@code [start, end)} includes its line break; {@code number} is 1-based. */
    record Line(int number, int start, int end, Kind kind, List<String> path) {}

    private final Path file;
    private int number;
    /** Open string while scanning a value: 0, '"', '\'', 'M' (""") or 'L' ('''). */
    private char string;

    private int depth;

    private TomlLines(Path file) {
        this.file = file;
    }

    static List<Line> scan(Path file, String text) {
        TomlLines scanner = new TomlLines(file);
        List<Line> lines = new ArrayList<>();
        int start = 0;
        while (start < text.length()) {
            int nl = text.indexOf('\n', start);
            int end = nl < 0 ? text.length() : nl + 1;
            String content = text.substring(start, nl < 0 ? end : nl);
            scanner.number++;
            lines.add(scanner.line(
                    start, end, content.endsWith("\r") ? content.substring(0, content.length() - 1) : content));
            start = end;
        }
        if (scanner.string != 0 || scanner.depth != 0) {
            throw scanner.invalid("a value is not terminated at the end of the file");
        }
        return lines;
    }

    private Line line(int start, int end, String content) {
        if (string != 0 || depth != 0) {
            value(content, 0);
            return new Line(number, start, end, Kind.CONTINUATION, List.of());
        }
        String trimmed = content.strip();
        if (trimmed.isEmpty()) {
            return new Line(number, start, end, Kind.BLANK, List.of());
        }
        if (trimmed.startsWith("#")) {
            return new Line(number, start, end, Kind.COMMENT, List.of());
        }
        if (trimmed.startsWith("[")) {
            boolean array = trimmed.startsWith("[[");
            int close = trimmed.indexOf(array ? "]]" : "]");
            String after =
                    close < 0 ? "" : trimmed.substring(close + (array ? 2 : 1)).strip();
            List<String> path = close < 0 ? null : keyPath(trimmed.substring(array ? 2 : 1, close));
            if (path == null || !(after.isEmpty() || after.startsWith("#"))) {
                throw invalid("malformed table header");
            }
            return new Line(number, start, end, array ? Kind.ARRAY_HEADER : Kind.HEADER, path);
        }
        int eq = keyEnd(trimmed);
        List<String> path = eq < 0 ? null : keyPath(trimmed.substring(0, eq));
        if (path == null || trimmed.substring(eq + 1).isBlank()) {
            throw invalid("expected 'key = value'");
        }
        value(trimmed, eq + 1);
        return new Line(number, start, end, Kind.KEY, path);
    }

    /** Scans value text from {@code from}, carrying open strings and bracket depth to the next line. */
    private void value(String text, int from) {
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (string == '"' || string == 'M') {
                if (c == '\\') {
                    i++;
                } else if (string == '"' && c == '"') {
                    string = 0;
                } else if (string == 'M' && text.startsWith("\"\"\"", i)) {
                    string = 0;
                    i += 2;
                }
            } else if (string == '\'' || string == 'L') {
                if (string == '\'' && c == '\'') {
                    string = 0;
                } else if (string == 'L' && text.startsWith("'''", i)) {
                    string = 0;
                    i += 2;
                }
            } else if (c == '#') {
                break;
            } else if (c == '"' || c == '\'') {
                boolean multi = text.startsWith(c == '"' ? "\"\"\"" : "'''", i);
                string = multi ? (c == '"' ? 'M' : 'L') : c;
                i += multi ? 2 : 0;
            } else if (c == '[' || c == '{') {
                depth++;
            } else if ((c == ']' || c == '}') && --depth < 0) {
                throw invalid("unbalanced '" + c + "'");
            }
        }
        if (string == '"' || string == '\'') {
            throw invalid("unterminated string");
        }
    }

    /** Index of the {@code =} ending the key (outside quotes), or -1. */
    static int keyEnd(String text) {
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                quote = c == quote ? 0 : quote;
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '=') {
                return i;
            }
        }
        return -1;
    }

    /** A dotted key ({@code a."b c".'d'}) as its parts, or null when malformed. */
    static @Nullable List<String> keyPath(String text) {
        List<String> parts = new ArrayList<>();
        int i = 0;
        while (true) {
            while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
                i++;
            }
            if (i >= text.length()) {
                return null;
            }
            char c = text.charAt(i);
            int end;
            if (c == '"' || c == '\'') {
                end = text.indexOf(c, i + 1);
                if (end < 0) {
                    return null;
                }
                parts.add(text.substring(i + 1, end).replace("\\\"", "\"").replace("\\\\", "\\"));
                end++;
            } else {
                end = i;
                while (end < text.length()
                        && (Character.isLetterOrDigit(text.charAt(end))
                                || text.charAt(end) == '_'
                                || text.charAt(end) == '-')) {
                    end++;
                }
                if (end == i) {
                    return null;
                }
                parts.add(text.substring(i, end));
            }
            i = end;
            while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
                i++;
            }
            if (i == text.length()) {
                return parts;
            }
            if (text.charAt(i) != '.') {
                return null;
            }
            i++;
        }
    }

    private LomiException invalid(String what) {
        return new LomiException(
                ErrorCode.INVALID_ARGUMENT,
                file + " is not valid TOML: line " + number + ": " + what + "; fix it by hand (file left untouched)");
    }
}
