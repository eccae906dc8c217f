package dev.lomicontrol.console;

/**
 * What the user does after {@code client register} or {@code client show}: make the client start
 * lomi-control's helper (each client's own way, plus the trust prompt its project scope needs),
 * then approve the pairing request the helper sends, within its 120 s.
 */
final class NextStep {

    private NextStep() {}

    static String after(McpClient client, McpClient.Scope scope) {
        StringBuilder out = new StringBuilder("next:\n  1. ").append(start(client));
        String trust = scope == McpClient.Scope.PROJECT ? trust(client) : "";
        if (!trust.isEmpty()) {
            out.append("\n     ").append(trust);
        }
        return out.append(
                        "\n  2. approve its pairing request (it waits 120 s) in the console (bin/lomi-control console ...):")
                .append("\n       pairing list")
                .append("\n       pairing approve pr-...")
                .toString();
    }

    private static String start(McpClient client) {
        return switch (client) {
            case CLAUDE_CODE ->
                "quit Claude Code if it is running (it rewrites ~/.claude.json from memory; if it dropped the entry, register"
                        + " again), then start it";
            case CLAUDE_DESKTOP -> "quit Claude Desktop completely and start it again";
            case VSCODE -> "in VS Code run 'MCP: List Servers' and start lomi-control (or reload the window)";
            case CLINE -> "in Cline's MCP Servers panel restart lomi-control (or reload the VS Code window)";
            case ZED -> "Zed reloads its settings by itself; check the server's dot in the Agent Panel settings";
            case WINDSURF -> "refresh the MCP servers in Windsurf's Cascade panel (or restart Windsurf)";
            case JETBRAINS -> "save the MCP settings; AI Assistant starts the server";
            default -> "restart " + client.title() + " so it starts lomi-control's helper";
        };
    }

    private static String trust(McpClient client) {
        return switch (client) {
            case CLAUDE_CODE -> "Claude Code asks once to approve the servers in .mcp.json: approve lomi-control";
            case GEMINI -> "Gemini CLI reads .gemini/settings.json only in a trusted folder: trust this folder";
            case CODEX -> "Codex loads .codex/config.toml only for a trusted project: trust this project";
            case ZED -> "Zed starts a project's MCP servers only in a trusted worktree: trust it";
            default -> "";
        };
    }
}
