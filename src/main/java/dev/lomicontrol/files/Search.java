package dev.lomicontrol.files;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * One bounded, recursive search below a project directory. It sees exactly what listings show
 * (no secrets, links, multiply linked or special files), uses only the query's globs (never
 * .gitignore), reads every file through the same no-follow, stamp-checked path as {@code read},
 * and matches line by line. Each bound that is hit sets {@code truncated}.
 */
final class Search {

    static final int MAX_MATCHES = 256;
    static final int MAX_TOTAL_BYTES = 32 * 1024 * 1024;
    static final int MAX_ENTRIES = 10_000;
    static final int MAX_LINE = 32 * 1024;
    static final int MAX_PREVIEW_BYTES = 128 * 1024;
    static final int PREVIEW_CHARS = 240;
    static final int MAX_QUERY = 1024;
    static final int MAX_GLOBS = 64;
    static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(15);

    private final Tree tree;
    private final Pattern pattern;
    private final List<Glob> include;
    private final List<Glob> exclude;
    private final int maxMatches;
    private final LongSupplier nanoTime;
    private final long deadline;

    private final List<SearchMatch> matches = new ArrayList<>();
    private boolean truncated;
    private int filesScanned;
    private int skipped;
    private long bytesRead;
    private int entriesSeen;
    private int previewBytes;

    Search(Tree tree, SearchQuery query, int maxMatches, LongSupplier nanoTime) {
        if (maxMatches < 1) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "maxMatches must be at least 1");
        }
        this.tree = tree;
        this.pattern = compile(query);
        this.include = globs(query.include());
        this.exclude = globs(query.exclude());
        this.maxMatches = Math.min(maxMatches, MAX_MATCHES);
        this.nanoTime = nanoTime;
        this.deadline = nanoTime.getAsLong() + DEADLINE_NANOS;
    }

    SearchResult run(RelativePath directory) {
        try (Fd dir = tree.openDirectory(directory)) {
            walk(dir, directory);
        } catch (Stop stop) {
            truncated = true;
        }
        return new SearchResult(matches, truncated, filesScanned, skipped);
    }

    private void walk(Fd dir, RelativePath path) {
        DirectorySnapshot snapshot;
        try {
            snapshot = DirectorySnapshot.of(tree, dir);
        } catch (LomiException e) {
            skipped++;
            return;
        }
        for (DirectorySnapshot.Item item : snapshot.items()) {
            if (++entriesSeen > MAX_ENTRIES || nanoTime.getAsLong() > deadline) {
                throw new Stop();
            }
            RelativePath child;
            try {
                child = path.child(item.name());
            } catch (LomiException tooDeep) {
                skipped++;
                continue;
            }
            if (item.kind() == EntryKind.DIRECTORY) {
                descend(dir, item, child);
            } else if (selected(child)) {
                scanFile(dir, item, child);
            }
        }
    }

    private void descend(Fd dir, DirectorySnapshot.Item item, RelativePath child) {
        if (anyMatch(exclude, child)) {
            return;
        }
        Fd sub;
        try {
            sub = tree.openChildDirectory(dir, item.name(), item.stat(), child.toString());
        } catch (LomiException changed) {
            skipped++;
            return;
        }
        try (sub) {
            walk(sub, child);
        }
    }

    private boolean selected(RelativePath file) {
        return (include.isEmpty() || anyMatch(include, file)) && !anyMatch(exclude, file);
    }

    private void scanFile(Fd dir, DirectorySnapshot.Item item, RelativePath file) {
        long size = item.stat().size();
        if (size > FileContent.MAX_BYTES) {
            skipped++;
            return;
        }
        if (bytesRead + size > MAX_TOTAL_BYTES) {
            throw new Stop();
        }
        DecodedText text;
        FileContent content;
        try {
            content = FileContent.read(tree, dir, item.name(), item.stat(), file.toString());
            bytesRead += content.bytes().length;
            filesScanned++;
            text = TextCodec.decode(content.bytes());
        } catch (LomiException unreadable) {
            skipped++;
            return;
        }
        scanLines(file, content.revision(), text.text());
    }

    private void scanLines(RelativePath file, String revision, String text) {
        int line = 1;
        int start = 0;
        while (start <= text.length()) {
            int end = lineEnd(text, start);
            if (end - start > MAX_LINE) {
                skipped++;
            } else {
                scanLine(file, revision, line, text.substring(start, end));
            }
            if (end == text.length()) {
                return;
            }
            start = end + (text.startsWith("\r\n", end) ? 2 : 1);
            line++;
        }
    }

    private static int lineEnd(String text, int from) {
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r') {
                return i;
            }
        }
        return text.length();
    }

    private void scanLine(RelativePath file, String revision, int line, String content) {
        Matcher m = pattern.matcher(new DeadlineChars(content));
        while (m.find()) {
            if (m.end() == m.start()) {
                continue;
            }
            String preview = preview(content, m.start());
            previewBytes += preview.getBytes(StandardCharsets.UTF_8).length;
            if (matches.size() >= maxMatches || previewBytes > MAX_PREVIEW_BYTES) {
                throw new Stop();
            }
            matches.add(new SearchMatch(file.toString(), revision, line, m.start() + 1, m.end() - m.start(), preview));
        }
    }

    /** The whole line, or a window of it around the match, never splitting a surrogate pair. */
    private static String preview(String line, int matchStart) {
        if (line.length() <= PREVIEW_CHARS) {
            return line;
        }
        int from = Math.max(0, Math.min(matchStart - PREVIEW_CHARS / 4, line.length() - PREVIEW_CHARS));
        if (TextPage.splitsPair(line, from)) {
            from++;
        }
        int to = Math.min(line.length(), from + PREVIEW_CHARS);
        if (TextPage.splitsPair(line, to)) {
            to--;
        }
        return line.substring(from, to);
    }

    private static Pattern compile(SearchQuery query) {
        String text = query.text();
        if (text.isEmpty() || text.length() > MAX_QUERY) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "query text must be 1.." + MAX_QUERY + " characters");
        }
        String body = query.regex() ? text : Pattern.quote(text);
        if (query.wholeWord()) {
            body = "(?<![\\p{L}\\p{N}_])(?:" + body + ")(?![\\p{L}\\p{N}_])";
        }
        int flags = query.caseSensitive() ? 0 : Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
        try {
            return Pattern.compile(body, flags);
        } catch (PatternSyntaxException e) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "invalid regular expression: " + e.getDescription());
        }
    }

    private static List<Glob> globs(List<String> texts) {
        if (texts.size() > MAX_GLOBS) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "at most " + MAX_GLOBS + " globs");
        }
        return texts.stream().map(Glob::compile).toList();
    }

    private static boolean anyMatch(List<Glob> globs, RelativePath path) {
        for (Glob glob : globs) {
            if (glob.matches(path)) {
                return true;
            }
        }
        return false;
    }

    /** Unwinds the walk when a bound is reached. */
    private static final class Stop extends RuntimeException {
        Stop() {
            super(null, null, false, false);
        }
    }

    /** A line that aborts a runaway regular expression once the search deadline passes. */
    private final class DeadlineChars implements CharSequence {
        private final String s;
        private int reads;

        DeadlineChars(String s) {
            this.s = s;
        }

        @Override
        public char charAt(int index) {
            if ((++reads & 0xfff) == 0 && nanoTime.getAsLong() > deadline) {
                throw new Stop();
            }
            return s.charAt(index);
        }

        @Override
        public int length() {
            return s.length();
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return s.substring(start, end);
        }

        @Override
        public String toString() {
            return s;
        }
    }
}
