package dev.lomicontrol.files;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.util.regex.Pattern;

/**
 * A search include/exclude glob over project-relative paths: {@code *} and {@code ?} stay within one
 * component, {@code **} crosses components ({@code **}{@code /} may match nothing), {@code [abc]},
 * {@code [!a-z]}, {@code {a,b}} and {@code \} escapes. A glob without {@code /} matches the last
 * component (the file or directory name) anywhere.
 */
final class Glob {

    static final int MAX_LENGTH = 512;

    private final Pattern pattern;
    private final boolean nameOnly;

    private Glob(Pattern pattern, boolean nameOnly) {
        this.pattern = pattern;
        this.nameOnly = nameOnly;
    }

    /** Compiles {@code glob}; a malformed one is {@code INVALID_ARGUMENT}. */
    static Glob compile(String glob) {
        if (glob == null || glob.isEmpty() || glob.length() > MAX_LENGTH) {
            throw invalid(glob);
        }
        return new Glob(Pattern.compile(translate(glob, false)), glob.indexOf('/') < 0);
    }

    /** True when {@code path} (project-relative, {@code /}-separated) matches. */
    boolean matches(RelativePath path) {
        String subject = nameOnly ? path.name() : path.toString();
        return pattern.matcher(subject).matches();
    }

    private static String translate(String glob, boolean inAlternative) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < glob.length()) {
            char c = glob.charAt(i);
            switch (c) {
                case '*' -> {
                    if (i + 1 < glob.length() && glob.charAt(i + 1) == '*') {
                        boolean slash = i + 2 < glob.length() && glob.charAt(i + 2) == '/';
                        out.append(slash ? "(?:.*/)?" : ".*");
                        i += slash ? 3 : 2;
                        continue;
                    }
                    out.append("[^/]*");
                }
                case '?' -> out.append("[^/]");
                case '[' -> i = characterClass(glob, i, out);
                case '{' -> {
                    if (inAlternative) {
                        throw invalid(glob);
                    }
                    int close = glob.indexOf('}', i);
                    if (close < 0) {
                        throw invalid(glob);
                    }
                    out.append("(?:");
                    String[] alternatives = glob.substring(i + 1, close).split(",", -1);
                    for (int a = 0; a < alternatives.length; a++) {
                        out.append(a == 0 ? "" : "|").append(translate(alternatives[a], true));
                    }
                    out.append(")");
                    i = close;
                }
                case '\\' -> {
                    if (i + 1 >= glob.length()) {
                        throw invalid(glob);
                    }
                    out.append(Pattern.quote(String.valueOf(glob.charAt(++i))));
                }
                default -> out.append(Pattern.quote(String.valueOf(c)));
            }
            i++;
        }
        return out.toString();
    }

    /** Appends {@code [..]} starting at {@code open}; returns the index of the closing bracket. */
    private static int characterClass(String glob, int open, StringBuilder out) {
        int i = open + 1;
        boolean negate = i < glob.length() && (glob.charAt(i) == '!' || glob.charAt(i) == '^');
        if (negate) {
            i++;
        }
        StringBuilder body = new StringBuilder();
        int start = i;
        while (i < glob.length() && (glob.charAt(i) != ']' || i == start)) {
            char c = glob.charAt(i);
            if (c == '/') {
                throw invalid(glob);
            }
            if (c == '-' && i != start && i + 1 < glob.length() && glob.charAt(i + 1) != ']') {
                body.append('-');
            } else if (Character.isLetterOrDigit(c)) {
                body.append(c);
            } else {
                body.append('\\').append(c);
            }
            i++;
        }
        if (i >= glob.length()) {
            throw invalid(glob);
        }
        out.append(negate ? "[^/" : "[").append(body).append("]");
        return i;
    }

    private static LomiException invalid(String glob) {
        return new LomiException(ErrorCode.INVALID_ARGUMENT, "invalid glob: " + glob);
    }
}
