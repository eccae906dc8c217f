package dev.lomicontrol.console;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Codex's {@code config.toml}: the {@code [mcp_servers.lomi-control]} table is replaced (or
 * appended) and every other byte of the file stays as it was, including comments, blank lines and
 * sub-tables such as {@code [mcp_servers.lomi-control.env]}. The file is scanned line by line
 * (strings, multi-line strings and arrays tracked) so that the table's end is found reliably; a
 * line that is not TOML, an unterminated value, a duplicate table, or {@code lomi-control} defined
 * in another form (dotted keys, an inline table, an array of tables) is refused and the file is
 * left untouched.
 */
final class CodexToml {

    static final List<String> TABLE = List.of("mcp_servers", McpEntry.NAME);

    private CodexToml() {}

    /** The new file text, or empty when the table already is exactly the entry. */
    static Optional<String> upsert(Path file, String text, McpEntry entry) {
        String newline = text.contains("\r\n") ? "\r\n" : "\n";
        String table = render(entry, newline);
        Optional<int[]> region = region(file, text);
        if (region.isPresent()) {
            int[] r = region.get();
            String current = text.substring(r[0], r[1]);
            return current.equals(table) ? Optional.empty() : Optional.of(text.substring(0, r[0]) + table + text.substring(r[1]));
        }
        StringBuilder out = new StringBuilder(text);
        if (!text.isEmpty() && !text.endsWith("\n")) {
            out.append(newline);
        }
        if (!text.isBlank() && !text.endsWith(newline + newline)) {
            out.append(newline);
        }
        return Optional.of(out.append(table).toString());
    }

    static EntryState state(Path file, String text, Optional<McpEntry> entry) {
        Optional<int[]> region = region(file, text);
        if (region.isEmpty()) {
            return EntryState.ABSENT;
        }
        String current = text.substring(region.get()[0], region.get()[1]).replace("\r\n", "\n");
        return entry.map(e -> render(e, "\n").equals(current) ? EntryState.CURRENT : EntryState.DIFFERENT).orElse(EntryState.PRESENT);
    }

    /** {@code [mcp_servers.lomi-control]} with {@code command} and {@code args}, each line ended by {@code newline}. */
    static String render(McpEntry entry, String newline) {
        List<String> args = new ArrayList<>();
        entry.args().forEach(a -> args.add(string(a)));
        return "[" + String.join(".", TABLE) + "]" + newline + "command = " + string(entry.command()) + newline
                + "args = [" + String.join(", ", args) + "]" + newline;
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
     * Offsets of our table: from its header line to the end of its last key/value line (trailing
     * blank and comment lines belong to what follows). Empty when the file has no such table.
     */
    private static Optional<int[]> region(Path file, String text) {
        List<TomlLines.Line> lines = TomlLines.scan(file, text);
        int header = -1;
        List<String> table = List.of();
        for (int i = 0; i < lines.size(); i++) {
            TomlLines.Line line = lines.get(i);
            if (line.kind() == TomlLines.Kind.HEADER || line.kind() == TomlLines.Kind.ARRAY_HEADER) {
                table = line.path();
                if (line.path().equals(TABLE)) {
                    if (line.kind() == TomlLines.Kind.ARRAY_HEADER || header >= 0) {
                        throw conflict(file, line, "defines [" + String.join(".", TABLE) + "] twice or as an array of tables");
                    }
                    header = i;
                }
            } else if (line.kind() == TomlLines.Kind.KEY && startsWith(concat(table, line.path()), TABLE) && !startsWith(table, TABLE)) {
                throw conflict(file, line, "defines " + McpEntry.NAME + " with dotted keys or an inline table");
            }
        }
        if (header < 0) {
            return Optional.empty();
        }
        int end = lines.get(header).end();
        for (int i = header + 1; i < lines.size() && !lines.get(i).kind().isHeader(); i++) {
            if (lines.get(i).kind() == TomlLines.Kind.KEY || lines.get(i).kind() == TomlLines.Kind.CONTINUATION) {
                end = lines.get(i).end();
            }
        }
        return Optional.of(new int[] {lines.get(header).start(), end});
    }

    private static LomiException conflict(Path file, TomlLines.Line line, String what) {
        return new LomiException(ErrorCode.INVALID_ARGUMENT, file + " line " + line.number() + " " + what
                + "; convert it to a [" + String.join(".", TABLE) + "] table by hand (file left untouched)");
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
