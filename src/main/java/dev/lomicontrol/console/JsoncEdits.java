package dev.lomicontrol.console;

import tools.jackson.core.util.DefaultIndenter;
import tools.jackson.core.util.DefaultPrettyPrinter;
import tools.jackson.core.util.Separators;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Text edits on a {@link Jsonc} document that touch nothing but the value replaced or the member
 * inserted. New text follows the file's own layout: its line break, its indent unit (spaces or a
 * tab), the indentation of the neighbouring member, and a trailing comma after the last member when
 * the file already puts one there.
 */
final class JsoncEdits {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private JsoncEdits() {}

    /** {@code text} with {@code member}'s value replaced by {@code value}. */
    static String replaceValue(String text, Jsonc.Member member, JsonNode value) {
        String rendered = firstOnLine(text, member.keyStart())
                ? render(text, value, indentOf(text, member.keyStart()))
                : compact(value);
        return text.substring(0, member.value().start())
                + rendered
                + text.substring(member.value().end());
    }

    /** {@code text} with {@code "key": value} added as the last member of {@code object}. */
    static String insertMember(String text, Jsonc.Obj object, String key, JsonNode value) {
        String nl = newline(text);
        if (object.members().isEmpty()) {
            String base = indentOf(text, object.start());
            String indent = base + unit(text);
            String member = quote(key) + ": " + render(text, value, indent);
            String interior = text.substring(object.start() + 1, object.end() - 1);
            if (interior.isBlank()) {
                return text.substring(0, object.start() + 1)
                        + nl
                        + indent
                        + member
                        + nl
                        + base
                        + text.substring(object.end() - 1);
            }
            return insert(text, object.start() + 1, nl + indent + member);
        }
        Jsonc.Member last = object.members().get(object.members().size() - 1);
        if (!firstOnLine(text, last.keyStart())) {
            String member = quote(key) + ": " + compact(value);
            return last.comma() >= 0
                    ? insert(text, last.comma(), " " + member + ",")
                    : insert(text, last.value().end(), ", " + member);
        }
        String indent = indentOf(text, last.keyStart());
        String member = quote(key) + ": " + render(text, value, indent);
        if (last.comma() >= 0) {
            int at = lineEndAfterTrivia(text, last.comma());
            return insert(text, at < 0 ? last.comma() : at, nl + indent + member + ",");
        }
        String withComma = insert(text, last.value().end(), ",");
        int at = lineEndAfterTrivia(withComma, last.value().end() + 1);
        return at < 0
                ? insert(withComma, last.value().end() + 1, " " + compactMember(key, value))
                : insert(withComma, at, nl + indent + member);
    }

    /** A whole new document holding {@code value}, in the layout this class writes. */
    static String document(JsonNode value) {
        return render("", value, "") + "\n";
    }

    /** {@code value} pretty-printed with the file's indent unit, continuation lines indented by {@code indent}. */
    static String render(String text, JsonNode value, String indent) {
        String nl = newline(text);
        DefaultPrettyPrinter pretty = new DefaultPrettyPrinter(Separators.createDefaultInstance()
                        .withObjectNameValueSpacing(Separators.Spacing.AFTER)
                        .withObjectEmptySeparator("")
                        .withArrayEmptySeparator(""))
                .withObjectIndenter(new DefaultIndenter(unit(text), nl))
                .withArrayIndenter(new DefaultIndenter(unit(text), nl));
        return MAPPER.writer().with(pretty).writeValueAsString(value).replace(nl, nl + indent);
    }

    private static String compact(JsonNode value) {
        return MAPPER.writeValueAsString(value);
    }

    private static String compactMember(String key, JsonNode value) {
        return quote(key) + ": " + compact(value);
    }

    private static String quote(String key) {
        return MAPPER.writeValueAsString(MAPPER.getNodeFactory().stringNode(key));
    }

    private static String insert(String text, int at, String what) {
        return text.substring(0, at) + what + text.substring(at);
    }

    /**
     * Where the line goes on after {@code from} holds only blanks and comments: the offset of its
     * line break (or the end of the text); -1 when something else follows on that line.
     */
    static int lineEndAfterTrivia(String text, int from) {
        int i = from;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == ' ' || c == '\t') {
                i++;
            } else if (c == '\r' || c == '\n') {
                return i;
            } else if (text.startsWith("//", i)) {
                int nl = text.indexOf('\n', i);
                return nl < 0 ? text.length() : (nl > 0 && text.charAt(nl - 1) == '\r' ? nl - 1 : nl);
            } else if (text.startsWith("/*", i)) {
                int close = text.indexOf("*/", i + 2);
                if (close < 0 || text.substring(i, close).contains("\n")) {
                    return -1;
                }
                i = close + 2;
            } else {
                return -1;
            }
        }
        return text.length();
    }

    private static boolean firstOnLine(String text, int offset) {
        return text.substring(lineStart(text, offset), offset).isBlank();
    }

    private static String indentOf(String text, int offset) {
        int start = lineStart(text, offset);
        int end = start;
        while (end < text.length() && (text.charAt(end) == ' ' || text.charAt(end) == '\t')) {
            end++;
        }
        return text.substring(start, end);
    }

    private static int lineStart(String text, int offset) {
        return text.lastIndexOf('\n', offset - 1) + 1;
    }

    private static String newline(String text) {
        return text.contains("\r\n") ? "\r\n" : "\n";
    }

    /** The file's indent unit: a tab when its first indented line starts with one, else its smallest indentation (default 2 spaces). */
    static String unit(String text) {
        int smallest = Integer.MAX_VALUE;
        for (String line : text.split("\n", -1)) {
            int n = 0;
            while (n < line.length() && (line.charAt(n) == ' ' || line.charAt(n) == '\t')) {
                n++;
            }
            if (n == 0 || n == line.length() || "\"}]".indexOf(line.charAt(n)) < 0) {
                continue;
            }
            if (line.charAt(0) == '\t') {
                return "\t";
            }
            smallest = Math.min(smallest, n);
        }
        return smallest == Integer.MAX_VALUE ? "  " : " ".repeat(smallest);
    }
}
