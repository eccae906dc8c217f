package dev.lomicontrol.console;

import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Reads the TOML values lomi-control's Codex fields can hold (strings of all four kinds, integers,
 * booleans and arrays of them, with comments and line breaks inside arrays) as JSON nodes, so a
 * found value compares with ours by meaning, not spelling. Anything else (floats, dates, inline
 * tables) or malformed text is empty: such a field is "not ours" and register replaces it.
 */
final class TomlValue {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final String text;
    private int pos;

    private TomlValue(String text) {
        this.text = text;
    }

    /** The value in {@code text} (what follows {@code key =}, up to the end of the value's last line). */
    static Optional<JsonNode> parse(String text) {
        TomlValue parser = new TomlValue(text);
        try {
            parser.blank(false);
            JsonNode value = parser.value();
            parser.blank(true);
            return parser.pos == text.length() ? Optional.of(value) : Optional.empty();
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            return Optional.empty();
        }
    }

    private JsonNode value() {
        char c = text.charAt(pos);
        if (c == '[') {
            pos++;
            ArrayNode array = NODES.arrayNode();
            blank(true);
            while (text.charAt(pos) != ']') {
                array.add(value());
                blank(true);
                if (text.charAt(pos) == ',') {
                    pos++;
                    blank(true);
                } else if (text.charAt(pos) != ']') {
                    throw new IllegalArgumentException("expected , or ]");
                }
            }
            pos++;
            return array;
        }
        if (text.startsWith("\"\"\"", pos) || text.startsWith("'''", pos)) {
            return NODES.stringNode(multiline(text.substring(pos, pos + 3)));
        }
        if (c == '"') {
            return NODES.stringNode(basic());
        }
        if (c == '\'') {
            int close = text.indexOf('\'', pos + 1);
            String value = text.substring(pos + 1, close);
            pos = close + 1;
            return NODES.stringNode(value);
        }
        int start = pos;
        while (pos < text.length() && "+-_0123456789abcdefABCDEFxotrulsn".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
        return scalar(text.substring(start, pos));
    }

    private static JsonNode scalar(String word) {
        if (word.equals("true") || word.equals("false")) {
            return NODES.booleanNode(word.equals("true"));
        }
        String digits = word.replace("_", "");
        int radix = digits.startsWith("0x") ? 16 : digits.startsWith("0o") ? 8 : digits.startsWith("0b") ? 2 : 10;
        if (radix != 10) {
            return NODES.numberNode(Long.parseLong(digits.substring(2), radix));
        }
        if (!digits.matches("[+-]?(0|[1-9][0-9]*)")
                || word.startsWith("_")
                || word.endsWith("_")
                || word.contains("__")) {
            throw new IllegalArgumentException("not an integer");
        }
        return NODES.numberNode(Long.parseLong(digits));
    }

    private String basic() {
        StringBuilder out = new StringBuilder();
        pos++;
        while (text.charAt(pos) != '"') {
            char c = text.charAt(pos++);
            if (c == '\n') {
                throw new IllegalArgumentException("line break in a string");
            }
            out.append(c == '\\' ? escape() : String.valueOf(c));
        }
        pos++;
        return out.toString();
    }

    private String multiline(String quotes) {
        pos += 3;
        if (text.startsWith("\r\n", pos)) {
            pos += 2;
        } else if (text.startsWith("\n", pos)) {
            pos++;
        }
        StringBuilder out = new StringBuilder();
        while (!text.startsWith(quotes, pos) || text.startsWith(quotes + quotes.charAt(0), pos)) {
            char c = text.charAt(pos++);
            if (c == '\\' && quotes.equals("\"\"\"")) {
                if (text.startsWith("\n", pos)
                        || text.startsWith("\r\n", pos)
                        || text.charAt(pos) == ' '
                        || text.charAt(pos) == '\t') {
                    while (" \t\r\n".indexOf(text.charAt(pos)) >= 0) {
                        pos++;
                    }
                } else {
                    out.append(escape());
                }
            } else {
                out.append(c);
            }
        }
        pos += 3;
        return out.toString();
    }

    private String escape() {
        char e = text.charAt(pos++);
        return switch (e) {
            case 'b' -> "\b";
            case 't' -> "\t";
            case 'n' -> "\n";
            case 'f' -> "\f";
            case 'r' -> "\r";
            case 'e' -> "\u001b";
            case '"' -> "\"";
            case '\\' -> "\\";
            case 'u', 'U' -> {
                int length = e == 'u' ? 4 : 8;
                String hex = text.substring(pos, pos + length);
                pos += length;
                yield new String(Character.toChars(Integer.parseInt(hex, 16)));
            }
            default -> throw new IllegalArgumentException("bad escape");
        };
    }

    /** Skips blanks and comments; line breaks too when {@code lines}. */
    private void blank(boolean lines) {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == ' ' || c == '\t' || (lines && (c == '\n' || c == '\r'))) {
                pos++;
            } else if (c == '#') {
                while (pos < text.length() && text.charAt(pos) != '\n') {
                    pos++;
                }
            } else {
                return;
            }
        }
    }
}
