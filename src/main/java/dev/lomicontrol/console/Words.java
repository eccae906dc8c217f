package dev.lomicontrol.console;

import dev.lomicontrol.core.Visible;
import java.util.ArrayList;
import java.util.List;

/**
 * Splitting a console line into words the way a POSIX shell would (without expansion): words are
 * separated by blanks; {@code '...'} is literal; inside {@code "..."} a backslash escapes {@code "}
 * and {@code \}; outside quotes a backslash escapes the next character; adjacent pieces join.
 */
public final class Words {

    private Words() {}

    /** The words of {@code line}; an unterminated quote is a {@link UsageException}. */
    public static List<String> split(String line) {
        Split split = scan(line);
        if (split.openQuote != 0) {
            throw new UsageException("unterminated " + split.openQuote + " quote in: " + line);
        }
        return split.words;
    }

    /**
     * The words of a partial line for completion: the last element is the word under the cursor
     * ({@code ""} after a blank); an open quote is tolerated.
     */
    public static List<String> splitForCompletion(String line) {
        Split split = scan(line);
        List<String> words = new ArrayList<>(split.words);
        if (!split.inWord) {
            words.add("");
        }
        return words;
    }

    /** One argument quoted so that {@link #split} gives it back unchanged. */
    public static String quote(String word) {
        if (!word.isEmpty() && word.chars().allMatch(Words::isPlain)) {
            return word;
        }
        return "'" + word.replace("'", "'\\''") + "'";
    }

    /** Arguments (as a shell passed them) joined into one line {@link #split} reverses exactly. */
    public static String join(List<String> words) {
        List<String> quoted = new ArrayList<>();
        words.forEach(w -> quoted.add(quote(w)));
        return String.join(" ", quoted);
    }

    /**
     * What a log may say of a console line: its first three words at most (every command's name,
     * perhaps an id), never the rest — {@code terminal keys} carries what the admin typed.
     */
    static String commandOf(String line) {
        String[] words = line.strip().split("\\s+", 4);
        return Visible.line(String.join(" ", List.of(words).subList(0, Math.min(3, words.length))));
    }

    private static boolean isPlain(int c) {
        return Character.isLetterOrDigit(c) || "-_.,/:=@%+~".indexOf(c) >= 0;
    }

    private record Split(List<String> words, char openQuote, boolean inWord) {}

    private static Split scan(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote == '\'') {
                if (c == '\'') {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (quote == '"') {
                if (c == '"') {
                    quote = 0;
                } else if (c == '\\'
                        && i + 1 < line.length()
                        && (line.charAt(i + 1) == '"' || line.charAt(i + 1) == '\\')) {
                    word.append(line.charAt(++i));
                } else {
                    word.append(c);
                }
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                inWord = true;
                if (c == '\'' || c == '"') {
                    quote = c;
                } else if (c == '\\' && i + 1 < line.length()) {
                    word.append(line.charAt(++i));
                } else {
                    word.append(c);
                }
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return new Split(words, quote, inWord);
    }
}
