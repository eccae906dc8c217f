package dev.lomicontrol.console;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A JSON / JSONC document as source spans, so one value can be replaced or one member inserted
 * while every other byte (comments, trailing commas, spacing, key order, number spelling) stays.
 * {@link #parse} accepts {@code //} and {@code /* *}{@code /} comments and trailing commas only when
 * asked to; anything else that is not JSON throws {@link Invalid} with the offending line. Semantic
 * checks (duplicate keys, the values themselves) are left to Jackson, which reads the same text.
 */
final class Jsonc {

    /** A value's span {@code [start, end)} in the text. */
    sealed interface Node permits Obj, Arr, Scalar {
        int start();

        int end();
    }

    /** One {@code "key": value} of an object; {@code comma} is the offset just after its comma, or -1. */
    record Member(String key, int keyStart, Node value, int comma) {}

    record Obj(int start, int end, List<Member> members) implements Node {
        @Nullable
        Member member(String key) {
            return members.stream().filter(m -> m.key().equals(key)).findFirst().orElse(null);
        }
    }

    record Arr(int start, int end, List<Node> items) implements Node {}

    record Scalar(int start, int end) implements Node {}

    /** The text is not JSON (or JSONC when allowed); the message names the line. */
    static final class Invalid extends RuntimeException {
        Invalid(String message) {
            super(message);
        }
    }

    private final String text;
    private final boolean jsonc;
    private int pos;

    private Jsonc(String text, boolean jsonc) {
        this.text = text;
        this.jsonc = jsonc;
    }

    /** The document's top-level value; {@code jsonc} allows comments and trailing commas. */
    static Node parse(String text, boolean jsonc) {
        Jsonc parser = new Jsonc(text, jsonc);
        parser.skip();
        Node root = parser.value();
        parser.skip();
        if (parser.pos != text.length()) {
            throw parser.invalid("unexpected text after the document");
        }
        return root;
    }

    private Node value() {
        if (pos >= text.length()) {
            throw invalid("a value is missing");
        }
        char c = text.charAt(pos);
        if (c == '{') {
            return object();
        }
        if (c == '[') {
            return array();
        }
        int start = pos;
        if (c == '"') {
            string();
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            number();
        } else if (!(word("true") || word("false") || word("null"))) {
            throw invalid("unexpected '" + c + "'");
        }
        return new Scalar(start, pos);
    }

    private Obj object() {
        int start = pos++;
        List<Member> members = new ArrayList<>();
        skip();
        while (peek() != '}') {
            if (peek() != '"') {
                throw invalid("expected a quoted key");
            }
            int keyStart = pos;
            String key = string();
            skip();
            expect(':');
            skip();
            Node value = value();
            skip();
            int comma = -1;
            if (peek() == ',') {
                comma = ++pos;
                skip();
                if (peek() == '}' && !jsonc) {
                    throw invalid("a trailing comma is not JSON, and this client reads plain JSON");
                }
            } else if (peek() != '}') {
                throw invalid("expected ',' or '}'");
            }
            members.add(new Member(key, keyStart, value, comma));
        }
        pos++;
        return new Obj(start, pos, List.copyOf(members));
    }

    private Arr array() {
        int start = pos++;
        List<Node> items = new ArrayList<>();
        skip();
        while (peek() != ']') {
            items.add(value());
            skip();
            if (peek() == ',') {
                pos++;
                skip();
                if (peek() == ']' && !jsonc) {
                    throw invalid("a trailing comma is not JSON, and this client reads plain JSON");
                }
            } else if (peek() != ']') {
                throw invalid("expected ',' or ']'");
            }
        }
        pos++;
        return new Arr(start, pos, List.copyOf(items));
    }

    /** Reads a string literal and returns its decoded value. */
    private String string() {
        StringBuilder out = new StringBuilder();
        pos++;
        while (true) {
            if (pos >= text.length()) {
                throw invalid("unterminated string");
            }
            char c = text.charAt(pos++);
            if (c == '"') {
                return out.toString();
            }
            if (c < 0x20) {
                throw invalid("control character in a string");
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = pos < text.length() ? text.charAt(pos++) : 0;
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (pos + 4 > text.length() || !text.substring(pos, pos + 4).matches("[0-9a-fA-F]{4}")) {
                        throw invalid("bad \\u escape");
                    }
                    out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    pos += 4;
                }
                default -> throw invalid("bad escape in a string");
            }
        }
    }

    private void number() {
        int start = pos;
        while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
        if (!text.substring(start, pos).matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) {
            throw invalid("malformed number");
        }
    }

    private boolean word(String word) {
        if (text.startsWith(word, pos)) {
            pos += word.length();
            return true;
        }
        return false;
    }

    /** Skips whitespace and, for JSONC, comments. */
    private void skip() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                pos++;
            } else if (c == '/' && text.startsWith("//", pos) && jsonc) {
                int nl = text.indexOf('\n', pos);
                pos = nl < 0 ? text.length() : nl;
            } else if (c == '/' && text.startsWith("/*", pos) && jsonc) {
                int close = text.indexOf("*/", pos + 2);
                if (close < 0) {
                    throw invalid("unterminated comment");
                }
                pos = close + 2;
            } else if (c == '/') {
                throw invalid(jsonc ? "unexpected '/'" : "comments are not JSON, and this client reads plain JSON");
            } else {
                return;
            }
        }
    }

    private char peek() {
        if (pos >= text.length()) {
            throw invalid("the document ends too early");
        }
        return text.charAt(pos);
    }

    private void expect(char c) {
        if (peek() != c) {
            throw invalid("expected '" + c + "'");
        }
        pos++;
    }

    private Invalid invalid(String what) {
        int line = 1;
        for (int i = 0; i < Math.min(pos, text.length()); i++) {
            line += text.charAt(i) == '\n' ? 1 : 0;
        }
        return new Invalid("line " + line + ": " + what);
    }
}
