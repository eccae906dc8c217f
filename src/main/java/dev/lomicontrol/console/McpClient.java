package dev.lomicontrol.console;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The MCP clients {@code client register} knows, where each keeps its stdio server entries (Linux
 * paths; user scope under the caller's home, {@code $XDG_CONFIG_HOME} or {@code $CODEX_HOME} as
 * the client itself does, project scope in the caller's working directory), in which shape, and
 * whether the client reads comments and trailing commas (JSONC). JetBrains is configured in the
 * IDE: it has no file, only {@code client show}.
 */
public enum McpClient {
    CLAUDE_CODE(
            "claude-code",
            "Claude Code",
            Base.HOME,
            List.of(".claude.json"),
            List.of(".mcp.json"),
            Format.MCP_SERVERS,
            false),
    CLAUDE_DESKTOP(
            "claude-desktop",
            "Claude Desktop",
            Base.XDG_CONFIG,
            List.of("Claude/claude_desktop_config.json"),
            List.of(),
            Format.MCP_SERVERS,
            false),
    CURSOR(
            "cursor",
            "Cursor",
            Base.HOME,
            List.of(".cursor/mcp.json"),
            List.of(".cursor/mcp.json"),
            Format.MCP_SERVERS,
            false),
    VSCODE(
            "vscode",
            "VS Code",
            Base.XDG_CONFIG,
            List.of("Code/User/mcp.json"),
            List.of(".vscode/mcp.json"),
            Format.VSCODE_SERVERS,
            true),
    GEMINI(
            "gemini",
            "Gemini CLI",
            Base.HOME,
            List.of(".gemini/settings.json"),
            List.of(".gemini/settings.json"),
            Format.MCP_SERVERS,
            true),
    CODEX(
            "codex",
            "Codex",
            Base.CODEX_HOME,
            List.of("config.toml"),
            List.of(".codex/config.toml"),
            Format.CODEX_TOML,
            false),
    WINDSURF(
            "windsurf",
            "Windsurf",
            Base.HOME,
            List.of(".codeium/windsurf/mcp_config.json"),
            List.of(),
            Format.MCP_SERVERS,
            false),
    CLINE(
            "cline",
            "Cline (VS Code extension)",
            Base.XDG_CONFIG,
            List.of("Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json"),
            List.of(),
            Format.MCP_SERVERS,
            false),
    ZED("zed", "Zed", Base.XDG_CONFIG, List.of("zed/settings.json"), List.of(".zed/settings.json"), Format.ZED, true),
    OPENCODE(
            "opencode",
            "opencode",
            Base.XDG_CONFIG,
            List.of("opencode/opencode.json", "opencode/opencode.jsonc"),
            List.of("opencode.json", "opencode.jsonc"),
            Format.OPENCODE,
            true),
    JETBRAINS("jetbrains", "JetBrains AI Assistant", null, List.of(), List.of(), Format.MCP_SERVERS, false);

    /** The shape of the entry and the path of the server map that holds it. */
    public enum Format {
        /** {@code {"mcpServers":{name:{command,args}}}} (Claude, Cursor, Gemini, Windsurf, Cline, JetBrains). */
        MCP_SERVERS("mcpServers"),
        /** {@code {"servers":{name:{type:"stdio",command,args}}}}. */
        VSCODE_SERVERS("servers"),
        /** {@code {"context_servers":{name:{source:"custom",command,args}}}}. */
        ZED("context_servers"),
        /** {@code {"mcp":{name:{type:"local",command:[cmd,…args],enabled}}}}. */
        OPENCODE("mcp"),
        /** Codex's {@code [mcp_servers.name]} TOML table. */
        CODEX_TOML("mcp_servers");

        private final String container;

        Format(String container) {
            this.container = container;
        }

        List<String> container() {
            return List.of(container);
        }
    }

    public enum Scope {
        USER,
        PROJECT;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }

        static Scope of(String value) {
            return Arrays.stream(values())
                    .filter(s -> s.wire().equals(value))
                    .findFirst()
                    .orElseThrow(() -> new UsageException("--scope is user or project, not '" + value + "'"));
        }
    }

    /** What a user-scope path is relative to. */
    enum Base {
        HOME,
        XDG_CONFIG,
        CODEX_HOME
    }

    private final String id;
    private final String title;
    private final @Nullable Base base;
    private final List<String> userFiles;
    private final List<String> projectFiles;
    private final Format format;
    private final boolean jsonc;

    McpClient(
            String id,
            String title,
            @Nullable Base base,
            List<String> userFiles,
            List<String> projectFiles,
            Format format,
            boolean jsonc) {
        this.id = id;
        this.title = title;
        this.base = base;
        this.userFiles = userFiles;
        this.projectFiles = projectFiles;
        this.format = format;
        this.jsonc = jsonc;
    }

    public String id() {
        return id;
    }

    /** The client's name as its users know it. */
    public String title() {
        return title;
    }

    public Format format() {
        return format;
    }

    /** Whether the client reads comments and trailing commas in its JSON file. */
    public boolean jsonc() {
        return jsonc;
    }

    /** Whether the client keeps its servers in a file at all (JetBrains keeps them in the IDE's settings). */
    public boolean hasFile() {
        return base != null;
    }

    /**
     * The config file for {@code scope}: of the client's names, the first that exists, else the
     * first. Empty when the client has no such scope.
     */
    public Optional<Path> file(Scope scope, ClientPaths paths) {
        if (scope == Scope.PROJECT) {
            return pick(paths.cwd(), projectFiles);
        }
        if (base == null) {
            return Optional.empty();
        }
        Path root = switch (base) {
            case HOME -> paths.home();
            case XDG_CONFIG -> paths.xdgConfig();
            case CODEX_HOME -> paths.codexHome();
        };
        return pick(root, userFiles);
    }

    private static Optional<Path> pick(Path root, List<String> names) {
        return names.stream()
                .map(root::resolve)
                .filter(Files::exists)
                .findFirst()
                .or(() -> names.stream().findFirst().map(root::resolve));
    }

    /**
     * Every user-level file {@code register} may write, relative to the home with the default
     * config directories ({@code ~/.config}, {@code ~/.codex}), each followed by its backup: for
     * the terminal sandbox's list of hidden client files.
     */
    public static List<String> defaultUserFiles() {
        List<String> files = new ArrayList<>();
        for (McpClient client : values()) {
            Base base = client.base;
            if (base == null) {
                continue; // a client without a user file base has no user files
            }
            for (String name : client.userFiles) {
                String prefix = switch (base) {
                    case HOME -> "";
                    case XDG_CONFIG -> ".config/";
                    case CODEX_HOME -> ".codex/";
                };
                files.add(prefix + name);
                files.add(prefix + name + ClientConfigs.BACKUP_SUFFIX);
            }
        }
        return List.copyOf(files);
    }

    /** The first path element of every project-level file {@code register} may write ({@code .mcp.json}, {@code .zed}, …). */
    public static List<String> projectEntries() {
        return Arrays.stream(values())
                .flatMap(c -> c.projectFiles.stream())
                .map(f -> f.split("/")[0])
                .distinct()
                .toList();
    }

    public static McpClient of(String id) {
        return Arrays.stream(values())
                .filter(c -> c.id.equals(id))
                .findFirst()
                .orElseThrow(
                        () -> new UsageException("unknown client '" + id + "'; one of: " + String.join(", ", ids())));
    }

    public static List<String> ids() {
        return Arrays.stream(values()).map(McpClient::id).toList();
    }
}
