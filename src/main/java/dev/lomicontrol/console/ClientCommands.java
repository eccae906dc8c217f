package dev.lomicontrol.console;

import dev.lomicontrol.broker.BrokerRuntime;
import dev.lomicontrol.core.LomiException;
import java.util.Map;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.shell.core.command.CommandContext;
import org.springframework.shell.core.command.annotation.Argument;
import org.springframework.shell.core.command.annotation.Command;
import org.springframework.shell.core.command.annotation.Option;
import org.springframework.stereotype.Component;

/** {@code client register | list}: this broker's MCP server entry in the clients' config files. */
@Component
class ClientCommands implements CommandGroup {

    private final BrokerRuntime runtime;
    private final Map<String, String> environment;

    @Autowired
    ClientCommands(BrokerRuntime runtime) {
        this(runtime, System.getenv());
    }

    ClientCommands(BrokerRuntime runtime, Map<String, String> environment) {
        this.runtime = runtime;
        this.environment = environment;
    }

    @Command(name = "client register", group = "Clients", description = "Write the lomi-control MCP entry into a client's config",
            completionProvider = "clientCompletions",
            help = "client register <claude-code|claude-desktop|cursor|vscode|gemini|codex> [--scope user|project]\n"
                    + "  Sets only the 'lomi-control' server (absolute command; --mcp --discovery-file <abs> --discovery-key <hex>) and keeps"
                    + " every other entry. user (default): the client's file under your home; project: its project file in the console's"
                    + " working directory (.mcp.json, .cursor/mcp.json, .vscode/mcp.json, .gemini/settings.json, .codex/config.toml)."
                    + " A file that does not parse is refused and left untouched. Restart the client afterwards.")
    public String register(@Argument(index = 0, description = "client") String client,
            @Option(longName = "scope", description = "user or project", defaultValue = "user") String scope, CommandContext context) {
        McpClient target = McpClient.of(Text.required(client, "client"));
        McpEntry entry = McpEntry.forBroker(runtime, environment);
        ClientConfigs.Written written = ClientConfigs.register(target, McpClient.Scope.of(scope), Caller.of(context), entry);
        return (written.changed() ? "wrote " : "already up to date: ") + McpEntry.NAME + " in " + written.file() + " (" + target.id() + ", "
                + scope + " scope)\n  command: " + entry.command() + "\n  args: " + String.join(" ", entry.args());
    }

    @Command(name = "client list", group = "Clients", description = "Show each client's config file and its lomi-control entry",
            help = "client list\n  For every client and scope: the file (under your home or the console's working directory) and whether it"
                    + " holds a lomi-control entry matching this broker (current), another one (different), none (absent), or no file.")
    public String list(CommandContext context) {
        Caller caller = Caller.of(context);
        Optional<McpEntry> entry;
        try {
            entry = Optional.of(McpEntry.forBroker(runtime, environment));
        } catch (LomiException e) {
            entry = Optional.empty();
        }
        Table table = new Table("CLIENT", "SCOPE", "FILE", "ENTRY");
        for (McpClient client : McpClient.values()) {
            for (McpClient.Scope scope : McpClient.Scope.values()) {
                Optional<McpEntry> expected = entry;
                client.file(scope, caller).ifPresentOrElse(file -> table.row(client.id(), scope.wire(), file, ClientConfigs.describe(file, client, expected)),
                        () -> table.row(client.id(), scope.wire(), "-", "n/a (no project-level config)"));
            }
        }
        return table + (entry.isEmpty() ? "\n(no registration key yet: entries cannot be compared with this broker)" : "");
    }
}
