package dev.lomicontrol.core;

import java.util.List;
import java.util.Locale;

/**
 * The project's MCP and IDE client configuration: entries of a project folder that client programs
 * execute when the user opens the project (a {@code .mcp.json} server command, {@code .claude}
 * hooks, a {@code .vscode} task that runs on folder open). Shells see them read-only (the terminal
 * sandbox) and the file, editor and git tools may read but never write them; an admin edits them
 * by hand. One list for both boundaries.
 */
public final class ClientConfiguration {

    /** The names, as entries of the project root (the sandbox binds exactly these read-only). */
    public static final List<String> PROJECT_ENTRIES = List.of(
            ".mcp.json",
            ".vscode",
            ".cursor",
            ".gemini",
            ".codex",
            ".claude",
            ".zed",
            "opencode.json",
            "opencode.jsonc");

    private ClientConfiguration() {}

    /**
     * True when a single file or directory name is client configuration, compared case-insensitively
     * (as secret names are: a case-insensitive file system opens {@code .VSCode} as {@code .vscode}).
     */
    public static boolean isClientConfigurationName(String name) {
        return PROJECT_ENTRIES.contains(name.toLowerCase(Locale.ROOT));
    }

    /**
     * The refusal of a write to {@code path}: what it is and what to do instead. Every tool that
     * would write one uses it, so the wording is the same everywhere.
     */
    public static LomiException writeRefused(String path) {
        return new LomiException(
                ErrorCode.SCOPE_DENIED,
                "'" + path + "' is MCP/IDE client configuration (" + String.join(", ", PROJECT_ENTRIES)
                        + "), which client programs run as the user; agents may read it but not create, change,"
                        + " move or remove it. Ask the admin to edit it by hand outside lomi-control, and work with"
                        + " other files");
    }
}
