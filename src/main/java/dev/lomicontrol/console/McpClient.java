package dev.lomicontrol.console;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The MCP clients {@code client register} knows, where each keeps its stdio server entries (Linux
 * paths; user scope under the console's home, project scope in the console's working directory)
 * and in which shape.
 */
public enum McpClient {
    CLAUDE_CODE("claude-code", ".claude.json", ".mcp.json", Format.MCP_SERVERS),
    CLAUDE_DESKTOP("claude-desktop", ".config/Claude/claude_desktop_config.json", null, Format.MCP_SERVERS),
    CURSOR("cursor", ".cursor/mcp.json", ".cursor/mcp.json", Format.MCP_SERVERS),
    VSCODE("vscode", ".config/Code/User/mcp.json", ".vscode/mcp.json", Format.VSCODE_SERVERS),
    GEMINI("gemini", ".gemini/settings.json", ".gemini/settings.json", Format.MCP_SERVERS),
    CODEX("codex", ".codex/config.toml", ".codex/config.toml", Format.CODEX_TOML);

    /** {@code {"mcpServers":{name:{command,args}}}}, VS Code's {@code {"servers":{name:{type:"stdio",command,args}}}}, or Codex TOML. */
    public enum Format {
        MCP_SERVERS,
        VSCODE_SERVERS,
        CODEX_TOML
    }

    public enum Scope {
        USER,
        PROJECT;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }

        static Scope of(String value) {
            return Arrays.stream(values()).filter(s -> s.wire().equals(value)).findFirst()
                    .orElseThrow(() -> new UsageException("--scope is user or project, not '" + value + "'"));
        }
    }

    private final String id;
    private final String userFile;
    private final String projectFile;
    private final Format format;

    McpClient(String id, String userFile, String projectFile, Format format) {
        this.id = id;
        this.userFile = userFile;
        this.projectFile = projectFile;
        this.format = format;
    }

    public String id() {
        return id;
    }

    public Format format() {
        return format;
    }

    /** The config file for {@code scope}; empty when the client has no such scope. */
    public Optional<Path> file(Scope scope, Caller caller) {
        return scope == Scope.USER ? Optional.of(caller.home().resolve(userFile)) : Optional.ofNullable(projectFile).map(caller.cwd()::resolve);
    }

    public static McpClient of(String id) {
        return Arrays.stream(values()).filter(c -> c.id.equals(id)).findFirst()
                .orElseThrow(() -> new UsageException("unknown client '" + id + "'; one of: " + String.join(", ", ids())));
    }

    public static List<String> ids() {
        return Arrays.stream(values()).map(McpClient::id).toList();
    }
}
