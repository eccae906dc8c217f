package dev.lomicontrol.console;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Reads and writes the {@code lomi-control} entry in one client's config file, by format: JSON
 * merge ({@link JsonMcpConfig}) or Codex TOML ({@link CodexToml}). Writes are atomic and keep an
 * existing file's mode; new user-scope files are 0600, new project-scope files 0644.
 */
final class ClientConfigs {

    /** What {@link #register} did: the file and whether it changed. */
    record Written(Path file, boolean changed) {}

    private ClientConfigs() {}

    static Written register(McpClient client, McpClient.Scope scope, Caller caller, McpEntry entry) {
        Path file = client.file(scope, caller).orElseThrow(() -> new LomiException(ErrorCode.INVALID_ARGUMENT,
                client.id() + " has no project-level config; use --scope user"));
        try {
            Optional<String> existing = AtomicFiles.read(file);
            Optional<String> merged = client.format() == McpClient.Format.CODEX_TOML ? CodexToml.upsert(file, existing.orElse(""), entry)
                    : new JsonMcpConfig(client.format()).merge(file, existing, entry);
            if (merged.isEmpty()) {
                return new Written(file, false);
            }
            AtomicFiles.replace(file, merged.get().getBytes(StandardCharsets.UTF_8), scope == McpClient.Scope.USER ? AtomicFiles.PRIVATE : AtomicFiles.SHARED);
            return new Written(file, true);
        } catch (IOException e) {
            throw new LomiException(ErrorCode.STORAGE_UNAVAILABLE, "cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** The file's state for {@code client list}: a short word, or why it could not be read. */
    static String describe(Path file, McpClient client, Optional<McpEntry> entry) {
        try {
            Optional<String> text = AtomicFiles.read(file);
            if (text.isEmpty()) {
                return "no file";
            }
            if (text.get().isBlank()) {
                return "absent";
            }
            EntryState state = client.format() == McpClient.Format.CODEX_TOML ? CodexToml.state(file, text.get(), entry)
                    : new JsonMcpConfig(client.format()).state(file, text.get(), entry);
            return state == EntryState.DIFFERENT ? "different (run client register again)" : state.name().toLowerCase(java.util.Locale.ROOT);
        } catch (IOException | LomiException e) {
            return "unreadable: " + e.getMessage();
        }
    }
}
