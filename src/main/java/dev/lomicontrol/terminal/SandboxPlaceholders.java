package dev.lomicontrol.terminal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Collection;
import java.util.List;
import java.util.stream.Stream;

/**
 * The durable list of the sandbox placeholders a broker created in projects (security review
 * 2026-12-06, N10): a file in the data directory, one absolute path a line, rewritten whenever the
 * set of live placeholders changes. A broker killed with SIGKILL cannot remove its placeholders
 * (empty 0500 directories named {@code .mcp.json}, {@code .vscode}, …); the next start removes the
 * listed ones that are still empty directories with the placeholder's exact mode, and nothing else,
 * so a user's own empty directory of the same name is never touched.
 */
final class SandboxPlaceholders {

    /** The record's name in the data directory. */
    static final String FILE = "sandbox-placeholders";

    static final String MODE = "r-x------";
    private static final long MAX_BYTES = 1 << 20;

    private SandboxPlaceholders() {}

    /** Removes the placeholders {@code record} lists that are still ours, then empties it; returns how many went. */
    static int sweep(Path record) {
        int removed = 0;
        for (Path placeholder : read(record)) {
            if (isPlaceholder(placeholder)) {
                try {
                    Files.delete(placeholder);
                    removed++;
                } catch (IOException e) {
                    // not empty any more, or gone: left alone
                }
            }
        }
        write(record, List.of());
        return removed;
    }

    /** Replaces the record's content with {@code placeholders} (written to a sibling, then moved over it). */
    static void write(Path record, Collection<Path> placeholders) {
        try {
            if (placeholders.isEmpty()) {
                Files.deleteIfExists(record);
                return;
            }
            Path next = record.resolveSibling(FILE + ".next");
            StringBuilder text = new StringBuilder();
            placeholders.forEach(path -> text.append(path.toAbsolutePath()).append('\n'));
            Files.writeString(next, text, StandardCharsets.UTF_8);
            Files.move(next, record, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            // the record is best effort: a placeholder it misses is left for the user, as before
        }
    }

    private static List<Path> read(Path record) {
        try {
            if (!Files.isRegularFile(record, LinkOption.NOFOLLOW_LINKS) || Files.size(record) > MAX_BYTES) {
                return List.of();
            }
            try (Stream<String> lines = Files.lines(record, StandardCharsets.UTF_8)) {
                return lines.filter(line -> !line.isBlank())
                        .map(Path::of)
                        .filter(Path::isAbsolute)
                        .toList();
            }
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /** An empty directory (not a link) with exactly the placeholder's mode. */
    private static boolean isPlaceholder(Path path) {
        try {
            if (!Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)
                    || !PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS))
                            .equals(MODE)) {
                return false;
            }
            try (Stream<Path> entries = Files.list(path)) {
                return entries.findAny().isEmpty();
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
