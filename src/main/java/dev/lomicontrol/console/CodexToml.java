package dev.lomicontrol.console;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;

/**
 * Codex's {@code config.toml}: inside the {@code [mcp_servers.lomi-control]} table only the keys
 * lomi-control owns ({@link EntryFields}: {@code command}, {@code args}, and the two timeouts, which
 * a larger value of the user's also satisfies) are set, each on its own line; every other byte of
 * the file stays as it was, including the table's other keys ({@code env}, {@code enabled}, …),
 * comments, blank lines and sub-tables such as {@code [mcp_servers.lomi-control.env]}. A missing
 * table is appended. The file is scanned line by line (strings, multi-line strings and arrays
 * tracked) so that keys and the table's end are found reliably; a line that is not TOML, an
 * unterminated value, a duplicate table, or {@code lomi-control} defined in another form (dotted
 * keys, an inline table, an array of tables) is refused and the file is left untouched. A comment
 * on the same line as a key we replace goes with that line.
 */
final class CodexToml {

    static final List<String> TABLE = List.of("mcp_servers", McpEntry.NAME);

    /** One key = value of our table: its lines {@code [start, end)} and its value read as JSON (null when unreadable). */
    private record Key(int start, int end, @Nullable JsonNode value) {}

    /** Our table: where a new key goes (after its last key line) and its keys by name. */
    private record Table(int insertAt, Map<String, Key> keys) {}

    private CodexToml() {}

    /** The new file text, or empty when every key we own already satisfies {@code entry}. */
    static Optional<String> upsert(Path file, String text, McpEntry entry) {
        String newline = text.contains("\r\n") ? "\r\n" : "\n";
        List<EntryFields.Field> fields = EntryFields.of(McpClient.Format.CODEX_TOML, entry);
        Optional<Table> table = table(file, text);
        if (table.isEmpty()) {
            StringBuilder out = new StringBuilder(text);
            if (!text.isEmpty() && !text.endsWith("\n")) {
                out.append(newline);
            }
            if (!text.isBlank() && !text.endsWith(newline + newline)) {
                out.append(newline);
            }
            return Optional.of(out.append(render(entry, newline)).toString());
        }
        StringBuilder missing = new StringBuilder();
        TreeMap<Integer, Map.Entry<Key, String>> replaced = new TreeMap<>();
        for (EntryFields.Field field : fields) {
            Key key = table.get().keys().get(field.name());
            if (key == null) {
                missing.append(line(field, newline));
            } else if (!field.rule().satisfiedBy(key.value(), field.value())) {
                replaced.put(key.start(), Map.entry(key, line(field, newline)));
            }
        }
        if (missing.isEmpty() && replaced.isEmpty()) {
            return Optional.empty();
        }
        String out = text;
        int at = table.get().insertAt();
        if (!missing.isEmpty()) {
            out = out.substring(0, at)
                    + (at == out.length() && !out.endsWith("\n") ? newline : "")
                    + missing
                    + out.substring(at);
        }
        for (Map.Entry<Key, String> edit : replaced.descendingMap().values()) {
            out = out.substring(0, edit.getKey().start())
                    + edit.getValue()
                    + out.substring(edit.getKey().end());
        }
        return Optional.of(out);
    }

    static EntryFields.Verdict state(Path file, String text, Optional<McpEntry> entry) {
        Optional<Table> table = table(file, text);
        if (table.isEmpty()) {
            return new EntryFields.Verdict(EntryState.ABSENT, List.of());
        }
        Map<String, JsonNode> found = new LinkedHashMap<>();
        table.get()
                .keys()
                .forEach((name, key) -> found.put(name, key.value() == null ? NullNode.getInstance() : key.value()));
        return EntryFields.judge(McpClient.Format.CODEX_TOML, found, entry);
    }

    /** {@code [mcp_servers.lomi-control]} with every field we own, each line ended by {@code newline}. */
    static String render(McpEntry entry, String newline) {
        StringBuilder out = new StringBuilder("[" + String.join(".", TABLE) + "]" + newline);
        EntryFields.of(McpClient.Format.CODEX_TOML, entry).forEach(f -> out.append(line(f, newline)));
        return out.toString();
    }

    private static String line(EntryFields.Field field, String newline) {
        return field.name() + " = " + toml(field.value()) + newline;
    }

    private static String toml(JsonNode value) {
        if (value.isArray()) {
            List<String> items = new ArrayList<>();
            value.forEach(v -> items.add(toml(v)));
            return "[" + String.join(", ", items) + "]";
        }
        return value.isString() ? string(value.asString()) : value.toString();
    }

    /** A TOML basic string. */
    static String string(String value) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                default -> out.append(c < 0x20 || c == 0x7f ? String.format("\\u%04X", (int) c) : String.valueOf(c));
            }
        }
        return out.append('"').toString();
    }

    /**
     * Our table, when the file has one: its single keys (a key's lines run from its line to the last
     * continuation line of its value) and the offset just after its last key line (trailing blank
     * and comment lines belong to what follows).
     */
    private static Optional<Table> table(Path file, String text) {
        List<TomlLines.Line> lines = TomlLines.scan(file, text);
        int header = -1;
        List<String> table = List.of();
        for (int i = 0; i < lines.size(); i++) {
            TomlLines.Line line = lines.get(i);
            if (line.kind() == TomlLines.Kind.HEADER || line.kind() == TomlLines.Kind.ARRAY_HEADER) {
                table = line.path();
                if (line.path().equals(TABLE)) {
                    if (line.kind() == TomlLines.Kind.ARRAY_HEADER || header >= 0) {
                        throw conflict(
                                file, line, "defines [" + String.join(".", TABLE) + "] twice or as an array of tables");
                    }
                    header = i;
                }
            } else if (line.kind() == TomlLines.Kind.KEY
                    && startsWith(concat(table, line.path()), TABLE)
                    && !startsWith(table, TABLE)) {
                throw conflict(file, line, "defines " + McpEntry.NAME + " with dotted keys or an inline table");
            }
        }
        if (header < 0) {
            return Optional.empty();
        }
        int insertAt = lines.get(header).end();
        Map<String, Key> keys = new LinkedHashMap<>();
        for (int i = header + 1; i < lines.size() && !lines.get(i).kind().isHeader(); i++) {
            TomlLines.Line line = lines.get(i);
            if (line.kind() != TomlLines.Kind.KEY) {
                continue;
            }
            int last = i;
            while (last + 1 < lines.size() && lines.get(last + 1).kind() == TomlLines.Kind.CONTINUATION) {
                last++;
            }
            insertAt = lines.get(last).end();
            if (line.path().size() == 1) {
                String content = text.substring(line.start(), lines.get(last).end());
                String value = content.substring(TomlLines.keyEnd(content) + 1);
                keys.put(
                        line.path().get(0),
                        new Key(line.start(), insertAt, TomlValue.parse(value).orElse(null)));
            }
            i = last;
        }
        return Optional.of(new Table(insertAt, keys));
    }

    private static LomiException conflict(Path file, TomlLines.Line line, String what) {
        return new LomiException(
                ErrorCode.INVALID_ARGUMENT,
                file + " line " + line.number() + " " + what + "; convert it to a [" + String.join(".", TABLE)
                        + "] table by hand (file left untouched)");
    }

    private static boolean startsWith(List<String> path, List<String> prefix) {
        return path.size() >= prefix.size() && path.subList(0, prefix.size()).equals(prefix);
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
