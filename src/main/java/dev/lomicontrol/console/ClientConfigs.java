package dev.lomicontrol.console;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.tools.ToolSelection;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads and writes the {@code lomi-control} entry in one client's config file, by format: JSON /
 * JSONC merge ({@link JsonMcpConfig}) or Codex TOML ({@link CodexToml}). Writes are atomic and keep
 * an existing file's mode; new user-scope files are 0600, new project-scope files 0644. Before an
 * existing file's content changes, its previous bytes are kept beside it in
 * {@code <file>.lomi-backup} (same mode; one backup, replaced by the next change). A register that
 * changes nothing writes nothing, backup included.
 */
final class ClientConfigs {

    static final String BACKUP_SUFFIX = ".lomi-backup";

    /** What {@link #register} did: the file, whether it changed, and the backup of its previous content if one was made. */
    record Written(Path file, boolean changed, Optional<Path> backup) {}

    /**
     * One line of {@code client list}: the client, the scope, the file (empty for a scope the client
     * does not have or a client configured in its UI), the state word ({@code current}, {@code stale},
     * {@code hand-edited}, {@code present}, {@code absent}, {@code no-file}, {@code unreadable},
     * {@code n/a}, {@code ui}) and, for stale and hand-edited entries, what differs; {@code detail}
     * is the whole human text; {@code selection} is the tool selection the entry's args give its
     * helper (empty without an entry in the shape register writes).
     */
    record Row(
            String client,
            String scope,
            Optional<Path> file,
            String state,
            List<String> differences,
            String detail,
            Optional<ToolSelection> selection) {

        Row(String client, String scope, Optional<Path> file, String state, List<String> differences, String detail) {
            this(client, scope, file, state, differences, detail, Optional.empty());
        }
    }

    private ClientConfigs() {}

    static Written register(McpClient client, McpClient.Scope scope, ClientPaths paths, McpEntry entry) {
        if (!client.hasFile()) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    client.title() + " is configured in the IDE, not in a file; run 'client show " + client.id()
                            + "' and paste what it prints");
        }
        Path file = client.file(scope, paths)
                .orElseThrow(() -> new LomiException(
                        ErrorCode.INVALID_ARGUMENT, client.id() + " has no project-level config; use --scope user"));
        if (scope == McpClient.Scope.PROJECT) {
            requireNoLinkInProject(paths.cwd(), file);
        }
        try {
            for (int attempt = 1; ; attempt++) {
                Optional<String> existing = AtomicFiles.read(file);
                Optional<String> merged = client.format() == McpClient.Format.CODEX_TOML
                        ? CodexToml.upsert(file, existing.orElse(""), entry)
                        : new JsonMcpConfig(client.format(), client.jsonc()).merge(file, existing, entry);
                if (merged.isEmpty() || merged.equals(existing)) {
                    return new Written(file, false, Optional.empty());
                }
                if (!AtomicFiles.read(file).equals(existing)) {
                    if (attempt < 3) {
                        continue;
                    }
                    throw new LomiException(
                            ErrorCode.TARGET_BUSY,
                            file + " keeps changing while it is merged (is the client writing it?); quit the"
                                    + " client and run client register again (file left untouched)");
                }
                return write(file, scope, existing, merged.get());
            }
        } catch (IOException e) {
            throw new LomiException(ErrorCode.STORAGE_UNAVAILABLE, "cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * A project is not trusted (security review 2026-12-06, N9): a repository may ship
     * {@code .vscode} as a link to {@code ~/.config/…} or {@code .mcp.json} as a link or a FIFO, so
     * every existing path element from the project to the file must be a real directory, and the
     * file a regular file. User-scope files may be links (a user's own dotfiles).
     */
    private static void requireNoLinkInProject(Path project, Path file) {
        Path relative = project.relativize(file);
        Path current = project;
        for (int i = 0; i < relative.getNameCount(); i++) {
            current = current.resolve(relative.getName(i));
            boolean last = i == relative.getNameCount() - 1;
            if (Files.isSymbolicLink(current)) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT,
                        current + " is a symbolic link in the project; client register --scope project does not follow"
                                + " links there (it could write outside the project): replace it with a real "
                                + (last ? "file" : "directory") + ", or use --scope user");
            }
            if (!Files.exists(current, LinkOption.NOFOLLOW_LINKS)) {
                return;
            }
            if (last
                    ? !Files.isRegularFile(current, LinkOption.NOFOLLOW_LINKS)
                    : !Files.isDirectory(current, LinkOption.NOFOLLOW_LINKS)) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT,
                        current + " is not a regular " + (last ? "file" : "directory")
                                + " in the project; remove it (or put a real one there) and run client register"
                                + " again");
            }
        }
    }

    /** Keeps the previous content beside the file (when there was any), then replaces the file atomically. */
    private static Written write(Path file, McpClient.Scope scope, Optional<String> existing, String merged)
            throws IOException {
        Optional<Path> backup = Optional.empty();
        if (existing.isPresent() && !existing.get().isEmpty()) {
            Path copy = file.resolveSibling(file.getFileName() + BACKUP_SUFFIX);
            AtomicFiles.write(
                    copy, existing.get().getBytes(StandardCharsets.UTF_8), Files.getPosixFilePermissions(file));
            backup = Optional.of(copy);
        }
        AtomicFiles.replace(
                file,
                merged.getBytes(StandardCharsets.UTF_8),
                scope == McpClient.Scope.USER ? AtomicFiles.PRIVATE : AtomicFiles.SHARED);
        return new Written(file, true, backup);
    }

    /** The entry as the client's file would hold it (a whole minimal document), for {@code client show}. */
    static String snippet(McpClient client, McpEntry entry) {
        if (client.format() == McpClient.Format.CODEX_TOML) {
            return CodexToml.render(entry, "\n");
        }
        return JsoncEdits.document(new JsonMcpConfig(client.format(), client.jsonc()).snippet(entry));
    }

    /** Every client and scope, in {@link McpClient} order, compared with {@code entry} (empty: no key yet). */
    static List<Row> entries(ClientPaths paths, Optional<McpEntry> entry) {
        List<Row> rows = new ArrayList<>();
        for (McpClient client : McpClient.values()) {
            if (!client.hasFile()) {
                rows.add(new Row(
                        client.id(),
                        "-",
                        Optional.empty(),
                        "ui",
                        List.of(),
                        "configured in the IDE: client show " + client.id()));
                continue;
            }
            for (McpClient.Scope scope : McpClient.Scope.values()) {
                Optional<Path> file = client.file(scope, paths);
                rows.add(file.map(f -> row(client, scope, f, entry))
                        .orElseGet(() -> new Row(
                                client.id(),
                                scope.wire(),
                                Optional.empty(),
                                "n/a",
                                List.of(),
                                "n/a (no project-level config)")));
            }
        }
        return rows;
    }

    /** The row of one client's file, compared with {@code entry} (empty: no key yet). */
    static Row row(McpClient client, McpClient.Scope scope, Path file, Optional<McpEntry> entry) {
        try {
            Optional<String> text = AtomicFiles.read(file);
            if (text.isEmpty()) {
                return new Row(client.id(), scope.wire(), Optional.of(file), "no-file", List.of(), "no file");
            }
            EntryFields.Verdict verdict = text.get().isBlank()
                    ? new EntryFields.Verdict(EntryState.ABSENT, List.of())
                    : client.format() == McpClient.Format.CODEX_TOML
                            ? CodexToml.state(file, text.get(), entry)
                            : new JsonMcpConfig(client.format(), client.jsonc()).state(file, text.get(), entry);
            String word = verdict.state().wire();
            String detail = switch (verdict.state()) {
                case STALE ->
                    word + " (" + String.join(", ", verdict.differences()) + "; run client register"
                            + verdict.selection()
                                    .map(ToolSelection::arguments)
                                    .filter(words -> !words.isEmpty())
                                    .map(words -> " " + client.id()
                                            + (scope == McpClient.Scope.PROJECT ? " --scope project " : " ")
                                            + String.join(" ", words))
                                    .orElse("")
                            + ")";
                case HAND_EDITED ->
                    word + " (" + String.join(", ", verdict.differences()) + "; client register resets them)";
                default -> word;
            };
            return new Row(
                    client.id(),
                    scope.wire(),
                    Optional.of(file),
                    word,
                    verdict.differences(),
                    detail,
                    verdict.selection());
        } catch (IOException | LomiException e) {
            return new Row(
                    client.id(),
                    scope.wire(),
                    Optional.of(file),
                    "unreadable",
                    List.of(),
                    "unreadable: " + e.getMessage());
        }
    }
}
