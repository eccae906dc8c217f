package dev.lomicontrol.android;

import java.util.ArrayList;
import java.util.List;

/**
 * How the test device reads a command line into words, like a POSIX shell without expansion:
 * single quotes literal, double quotes with backslash escapes, a backslash outside quotes escaping
 * the next character, unquoted blanks separating words. Enough to see the argv an adb command
 * carried; the real quoting rules are checked against /bin/sh in {@code ShellQuoteTests}.
 */
final class ShellWords {

    private ShellWords() {}

    static List<String> split(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\'') {
                int end = line.indexOf('\'', i + 1);
                word.append(line, i + 1, end < 0 ? line.length() : end);
                i = end < 0 ? line.length() : end;
                inWord = true;
            } else if (c == '"') {
                i++;
                while (i < line.length() && line.charAt(i) != '"') {
                    if (line.charAt(i) == '\\' && i + 1 < line.length()) {
                        i++;
                    }
                    word.append(line.charAt(i++));
                }
                inWord = true;
            } else if (c == '\\' && i + 1 < line.length()) {
                word.append(line.charAt(++i));
                inWord = true;
            } else if (c == ' ' || c == '\t' || c == '\n') {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }
}
