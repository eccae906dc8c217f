package dev.lomicontrol.tools;

import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A string input's rule — a length in code points and a pattern matched whole — published in the
 * fewest bytes that accept and refuse exactly the same values (in Java and in JSON Schema's
 * ECMA-262, where {@code $} is the end of the value): the pattern anchored without a group unless
 * it has a top-level {@code |}; a character class repeated with {@code +} or {@code *} at the end,
 * after a prefix of fixed length, takes the length as its quantifier ({@code ^[a-z]{1,128}$},
 * {@code ^x[a-z]{0,127}$}); a length the pattern already implies is not repeated
 * ({@code [0-9a-f]{64}} needs no {@code minLength}/{@code maxLength}). Classes are kept as written:
 * {@code \w} would be Unicode word characters in Python's {@code re}. A pattern this class does not measure (flags, back references, quoting, …)
 * is published as written, grouped and anchored, with both lengths.
 */
final class StringSchema {

    private static final int UNBOUNDED = Integer.MAX_VALUE;

    private StringSchema() {}

    /** The schema keywords for a string of {@code min}..{@code max} code points matching {@code pattern} whole. */
    static ObjectNode of(int min, int max, Optional<String> pattern) {
        ObjectNode schema = JsonNodeFactory.instance.objectNode();
        if (pattern.isEmpty()) {
            lengths(schema, min, max);
            return schema;
        }
        String regex = pattern.get();
        Regex parsed = Regex.parse(regex);
        if (parsed == null) {
            lengths(schema, min, max);
            schema.put("pattern", "^(?:" + regex + ")$");
            return schema;
        }
        int classEnd = parsed.singleClassEnd();
        int least = Math.max(min, classEnd > 0 && regex.charAt(classEnd) == '+' ? 1 : 0);
        if (classEnd > 0 && least <= max) {
            schema.put("pattern", "^" + regex.substring(0, classEnd) + quantifier(least, max) + "$");
            return schema;
        }
        Tail repeated = parsed.topLevelAlternation() ? null : repeatedTail(regex);
        if (repeated != null) {
            int tail = repeated.start();
            int fixed = repeated.fixed();
            int end = regex.length() - 1;
            int tailLeast = Math.max(Math.max(min - fixed, 0), regex.charAt(end) == '+' ? 1 : 0);
            if (max < UNBOUNDED && fixed <= max && tailLeast <= max - fixed) {
                schema.put(
                        "pattern",
                        "^" + regex.substring(0, tail) + regex.substring(tail, end) + quantifier(tailLeast, max - fixed)
                                + "$");
                return schema;
            }
        }
        lengths(schema, parsed.shortest() >= min ? 0 : min, parsed.longest() <= max ? UNBOUNDED : max);
        schema.put("pattern", parsed.topLevelAlternation() ? "^(?:" + regex + ")$" : "^" + regex + "$");
        return schema;
    }

    /**
     * Where a closing character class repeated with {@code +} or {@code *} starts, when what comes
     * before it always matches the same number of code points (a fixed prefix, lookarounds); else null.
     * The maximum length then becomes that class's quantifier.
     */
    private static @Nullable Tail repeatedTail(String regex) {
        for (int at = regex.lastIndexOf('['); at > 0; at = regex.lastIndexOf('[', at - 1)) {
            Regex tail = Regex.parse(regex.substring(at));
            Regex head = Regex.parse(regex.substring(0, at));
            if (tail != null && head != null && !head.topLevelAlternation() && head.shortest() == head.longest()) {
                return tail.singleClassEnd() == regex.length() - at - 1 ? new Tail(at, head.shortest()) : null;
            }
        }
        return null;
    }

    /** A repeated closing class starting at {@code start}, after a prefix of {@code fixed} code points. */
    private record Tail(int start, int fixed) {}

    private static void lengths(ObjectNode schema, int min, int max) {
        if (min > 0) {
            schema.put("minLength", min);
        }
        if (max < UNBOUNDED) {
            schema.put("maxLength", max);
        }
    }

    private static String quantifier(int least, int most) {
        if (most == UNBOUNDED) {
            return least == 0 ? "*" : least == 1 ? "+" : "{" + least + ",}";
        }
        return least == most ? "{" + least + "}" : "{" + least + "," + most + "}";
    }

    /**
     * What a (Java) regular expression says about the lengths it matches, in code points: the
     * shortest and longest match ({@link #UNBOUNDED} when unbounded), whether it has a top-level
     * alternation, and where a leading character class ends. {@link #parse} answers null for a
     * construct it does not measure (back references, quoting, {@code \R}, {@code \X}, …), and the
     * caller then publishes the rule in full.
     */
    private static final class Regex {

        private final String text;
        private int at;
        private boolean topLevelBar;
        private long shortest;
        private long longest;

        private Regex(String text) {
            this.text = text;
        }

        static @Nullable Regex parse(String text) {
            Regex regex = new Regex(text);
            long @Nullable [] range = regex.alternation(0);
            if (range == null || regex.at != text.length()) {
                return null;
            }
            regex.shortest = range[0];
            regex.longest = range[1];
            return regex;
        }

        int shortest() {
            return (int) Math.min(shortest, UNBOUNDED);
        }

        int longest() {
            return (int) Math.min(longest, UNBOUNDED);
        }

        boolean topLevelAlternation() {
            return topLevelBar;
        }

        /** The index just after a character class that starts the text, when it is followed by exactly one {@code +} or {@code *}; else -1. */
        int singleClassEnd() {
            if (text.isEmpty() || text.charAt(0) != '[') {
                return -1;
            }
            Regex scan = new Regex(text);
            if (!scan.characterClass()) {
                return -1;
            }
            int end = scan.at;
            return end == text.length() - 1 && (text.charAt(end) == '+' || text.charAt(end) == '*') ? end : -1;
        }

        private long @Nullable [] alternation(int depth) {
            long @Nullable [] range = sequence(depth);
            while (range != null && at < text.length() && text.charAt(at) == '|') {
                if (depth == 0) {
                    topLevelBar = true;
                }
                at++;
                long @Nullable [] other = sequence(depth);
                if (other == null) {
                    return null;
                }
                range = new long[] {Math.min(range[0], other[0]), Math.max(range[1], other[1])};
            }
            return range;
        }

        private long @Nullable [] sequence(int depth) {
            long lo = 0;
            long hi = 0;
            while (at < text.length() && text.charAt(at) != '|' && text.charAt(at) != ')') {
                long @Nullable [] atom = atom(depth);
                if (atom == null) {
                    return null;
                }
                long @Nullable [] repeated = quantified(atom);
                if (repeated == null) {
                    return null;
                }
                lo = add(lo, repeated[0]);
                hi = add(hi, repeated[1]);
            }
            return new long[] {lo, hi};
        }

        private long @Nullable [] atom(int depth) {
            char c = text.charAt(at);
            if (c == '(') {
                return group(depth);
            }
            if (c == '[') {
                return characterClass() ? new long[] {1, 1} : null;
            }
            if (c == '\\') {
                return escape();
            }
            if (c == '^' || c == '$') {
                at++;
                return new long[] {0, 0};
            }
            if (c == '*' || c == '+' || c == '?' || c == '{') {
                return null;
            }
            at += Character.charCount(text.codePointAt(at));
            return new long[] {1, 1};
        }

        private long @Nullable [] group(int depth) {
            at++;
            boolean zeroWidth = false;
            if (text.startsWith("?", at)) {
                if (text.startsWith("?:", at)) {
                    at += 2;
                } else if (text.startsWith("?=", at) || text.startsWith("?!", at)) {
                    at += 2;
                    zeroWidth = true;
                } else if (text.startsWith("?<=", at) || text.startsWith("?<!", at)) {
                    at += 3;
                    zeroWidth = true;
                } else {
                    return null;
                }
            }
            long @Nullable [] inner = alternation(depth + 1);
            if (inner == null || at >= text.length() || text.charAt(at) != ')') {
                return null;
            }
            at++;
            return zeroWidth ? new long[] {0, 0} : inner;
        }

        /** Skips a character class starting at {@code at} (nested classes and escapes included); false when unterminated. */
        private boolean characterClass() {
            int depth = 0;
            while (at < text.length()) {
                char c = text.charAt(at);
                if (c == '\\') {
                    if (text.startsWith("Q", at + 1)) {
                        return false;
                    }
                    at += 2;
                    continue;
                }
                if (c == '[') {
                    depth++;
                } else if (c == ']') {
                    depth--;
                    if (depth == 0) {
                        at++;
                        return true;
                    }
                }
                at++;
            }
            return false;
        }

        private long @Nullable [] escape() {
            if (at + 1 >= text.length()) {
                return null;
            }
            char c = text.charAt(at + 1);
            at += 2;
            if ("pP".indexOf(c) >= 0) {
                int close = text.indexOf('}', at);
                if (!text.startsWith("{", at) || close < 0) {
                    return null;
                }
                at = close + 1;
                return new long[] {1, 1};
            }
            if (c == 'u') {
                at += 4;
                return at <= text.length() ? new long[] {1, 1} : null;
            }
            if ("bBAzZG".indexOf(c) >= 0) {
                return new long[] {0, 0};
            }
            if (Character.isLetterOrDigit(c) && "dDwWsStnrfae".indexOf(c) < 0) {
                return null;
            }
            return new long[] {1, 1};
        }

        private long @Nullable [] quantified(long[] atom) {
            if (at >= text.length()) {
                return atom;
            }
            char c = text.charAt(at);
            long lo;
            long hi;
            if (c == '?' || c == '*' || c == '+') {
                at++;
                lo = c == '+' ? atom[0] : 0;
                hi = c == '?' ? atom[1] : atom[1] == 0 ? 0 : UNBOUNDED;
            } else if (c == '{') {
                int close = text.indexOf('}', at);
                if (close < 0) {
                    return null;
                }
                String[] bounds = text.substring(at + 1, close).split(",", -1);
                try {
                    long least = Long.parseLong(bounds[0]);
                    long most = bounds.length == 1 ? least : bounds[1].isEmpty() ? -1 : Long.parseLong(bounds[1]);
                    lo = atom[0] * least;
                    hi = most < 0 ? (atom[1] == 0 ? 0 : UNBOUNDED) : Math.min(UNBOUNDED, atom[1] * most);
                } catch (NumberFormatException e) {
                    return null;
                }
                at = close + 1;
            } else {
                return atom;
            }
            if (at < text.length() && (text.charAt(at) == '?' || text.charAt(at) == '+')) {
                at++;
            }
            return new long[] {lo, Math.min(hi, UNBOUNDED)};
        }

        private static long add(long a, long b) {
            return Math.min(UNBOUNDED, a + b);
        }
    }
}
