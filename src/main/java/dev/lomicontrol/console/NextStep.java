package dev.lomicontrol.console;

/**
 * What the user does after {@code client register} or {@code client show}: make the client start
 * lomi-control's helper (each client's own way, plus the trust its project scope needs — and
 * Gemini CLI's in any scope: it connects no MCP server in a folder it does not trust), then
 * approve the pairing request the helper sends, within its 120 s.
 */
final class NextStep {

    /**
     * Gemini CLI's folder trust (docs/cli/trusted-folders.md): in an untrusted folder it connects no
     * MCP server, user-level ones included, and ignores the folder's .gemini/settings.json; the
     * choice is kept in ~/.gemini/trustedFolders.json. Headless it has no prompt: the variable
     * (the name its own error message gives) or --skip-trust trusts the folder for that run.
     */
    static final String GEMINI_TRUST =
            "Gemini CLI connects no MCP server (user-level ones included) in a folder it does"
                    + " not trust: start it in a trusted folder, or trust this one (accept its trust prompt, or run /permissions"
                    + " in it; kept in ~/.gemini/trustedFolders.json); headless (gemini -p): GEMINI_CLI_TRUST_WORKSPACE=true"
                    + " gemini ..., or --skip-trust";

    private NextStep() {}

    static String after(McpClient client, McpClient.Scope scope) {
        StringBuilder out = new StringBuilder("next:\n  1. ").append(start(client));
        String trust =
                client == McpClient.GEMINI ? GEMINI_TRUST : scope == McpClient.Scope.PROJECT ? trust(client) : "";
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
            case CODEX -> "Codex loads .codex/config.toml only for a trusted project: trust this project";
            case ZED -> "Zed starts a project's MCP servers only in a trusted worktree: trust it";
            default -> "";
        };
    }
}
