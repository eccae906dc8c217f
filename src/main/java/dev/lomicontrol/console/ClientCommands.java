package dev.lomicontrol.console;

import dev.lomicontrol.broker.BrokerRuntime;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.UserDirectories;
import dev.lomicontrol.tools.HostProbe;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.shell.core.command.CommandContext;
import org.springframework.shell.core.command.annotation.Argument;
import org.springframework.shell.core.command.annotation.Command;
import org.springframework.shell.core.command.annotation.Option;
import org.springframework.stereotype.Component;

/** {@code client register | list | show}: this broker's MCP server entry in the clients' config files. */
@Component
class ClientCommands implements CommandGroup {

    private static final String CLIENTS =
            "claude-code|claude-desktop|cursor|vscode|gemini|codex|windsurf|cline|zed|opencode";

    private static final String SELECTION = "[--toolsets LIST|all] [--read-only]";
    /** {@link dev.lomicontrol.tools.Toolset#names()} as a constant, for the help texts. */
    static final String TOOLSETS =
            "core,layout,terminal,files,editor,git,artifacts,settings,chat,browser,android,episodes";

    private final BrokerRuntime runtime;
    private final Map<String, String> environment;
    private final Supplier<HostProbe> host;

    @Autowired
    ClientCommands(BrokerRuntime runtime) {
        this(runtime, System.getenv());
    }

    ClientCommands(BrokerRuntime runtime, Map<String, String> environment) {
        this.runtime = runtime;
        this.environment = environment;
        this.host = () -> new HostProbe(
                environment,
                Optional.ofNullable(System.getProperty("lomi.browser.executable")),
                UserDirectories.of(environment).home());
    }

    /** With {@code host}: where register looks for Chromium and adb to choose the toolsets. */
    ClientCommands(BrokerRuntime runtime, Map<String, String> environment, HostProbe host) {
        this.runtime = runtime;
        this.environment = environment;
        this.host = () -> host;
    }

    @Command(
            name = "client register",
            group = "Clients",
            description = "Write the lomi-control MCP entry into a client's config",
            completionProvider = "clientCompletions",
            help = "client register <" + CLIENTS + "> [--scope user|project] " + SELECTION + "\n"
                    + "  Sets only the fields lomi-control owns in its 'lomi-control' server entry (the absolute command and --mcp"
                    + " --discovery-file <abs> --discovery-key <hex> [--toolsets LIST] [--read-only]; VS Code's type, Zed's source, opencode's type/enabled, Codex's"
                    + " startup_timeout_sec/tool_timeout_sec) and keeps everything else of yours: other servers, other fields of the entry,"
                    + " comments and trailing commas where the client accepts them. user (default): the client's file under your home"
                    + " ($XDG_CONFIG_HOME and $CODEX_HOME honoured); project: its project file in the console's working directory."
                    + " The previous file is kept as <file>.lomi-backup; a second register changes nothing. A file that does not parse"
                    + " is refused and left untouched. Quit Claude Code first (it rewrites ~/.claude.json from memory). JetBrains:"
                    + " client show jetbrains.\n"
                    + "  The helper serves the toolsets that can work on this host: all of them, but browser where no Chromium"
                    + " is found and android where no adb is (then the entry names the others with --toolsets; with every one it"
                    + " names none). --toolsets LIST|all (" + TOOLSETS + ") chooses them instead,"
                    + " --read-only serves only the tools that change nothing. Registering again writes the selection of that"
                    + " command line: repeat your options to keep a choice.")
    public String register(
            @Argument(index = 0, description = "client") String client,
            @Option(longName = "scope", description = "user or project", defaultValue = "user") String scope,
            @Option(longName = "toolsets", description = "all or a comma-separated list of toolsets") String toolsets,
            @Option(
                            longName = "read-only",
                            description = "serve only the tools that change nothing",
                            defaultValue = "false")
                    boolean readOnly,
            CommandContext context) {
        McpClient target = McpClient.of(Text.required(client, "client"));
        McpClient.Scope where = McpClient.Scope.of(scope);
        return registerFor(target, where, paths(context), ClientToolsets.choose(host.get(), toolsets, readOnly));
    }

    /** {@code client register} with this host's selection. */
    String registerFor(McpClient target, McpClient.Scope scope, ClientPaths paths) {
        return registerFor(target, scope, paths, ClientToolsets.choose(host.get(), "", false));
    }

    String registerFor(McpClient target, McpClient.Scope scope, ClientPaths paths, ClientToolsets.Choice choice) {
        McpEntry entry = McpEntry.forBroker(runtime, environment).with(choice.selection());
        ClientConfigs.Written written = ClientConfigs.register(target, scope, paths, entry);
        StringBuilder out = new StringBuilder((written.changed() ? "wrote " : "already up to date: ") + McpEntry.NAME
                + " in " + written.file() + " (" + target.id() + ", " + scope.wire() + " scope)\n  command: "
                + entry.command() + "\n  args: " + String.join(" ", entry.args()) + "\n  toolsets: "
                + ClientToolsets.describe(choice.selection()) + "; " + choice.why());
        written.backup().ifPresent(b -> out.append("\n  previous file kept as ").append(b));
        return out.append('\n').append(NextStep.after(target, scope)).toString();
    }

    @Command(
            name = "client list",
            group = "Clients",
            description = "Show each client's config file and the state of its lomi-control entry",
            help =
                    "client list\n  For every client and scope: the file and whether its lomi-control entry is current (what register writes now),"
                            + " stale (written for another launcher path, data directory or discovery key, or by an older version: register again),"
                            + " hand-edited (one of our fields changed by hand: register resets it), absent, or there is no file;"
                            + " and the toolsets its helper serves (read from the entry's args) with what they cost a model per"
                            + " request. --json: one JSON document.")
    public String list(
            @Option(
                            longName = "json",
                            description = "print one JSON document (docs/OPERATIONS.md \"Scripting\")",
                            defaultValue = "false")
                    boolean json,
            CommandContext context) {
        if (json) {
            return ConsoleJson.write(new ConsoleJson.Clients(
                    currentEntry().isPresent(),
                    rows(context).stream()
                            .map(row -> new ConsoleJson.Client(
                                    row.client(),
                                    row.scope(),
                                    row.file().map(Path::toString),
                                    row.state(),
                                    row.differences(),
                                    row.detail(),
                                    row.selection().map(ClientToolsets::json)))
                            .toList()));
        }
        return listFor(paths(context));
    }

    String listFor(ClientPaths paths) {
        Optional<McpEntry> entry = currentEntry();
        Table table = new Table("CLIENT", "SCOPE", "FILE", "ENTRY", "TOOLSETS");
        for (ClientConfigs.Row row : ClientConfigs.entries(paths, entry)) {
            table.row(
                    row.client(),
                    row.scope(),
                    row.file().map(Path::toString).orElse("-"),
                    row.detail(),
                    row.selection().map(ClientToolsets::describe).orElse("-"));
        }
        return table
                + (entry.isEmpty() ? "\n(no registration key yet: entries cannot be compared with this broker)" : "");
    }

    /** The rows of {@code client list}, typed, for a machine-readable form ({@code client list --json}). */
    List<ClientConfigs.Row> rows(CommandContext context) {
        return rows(paths(context));
    }

    List<ClientConfigs.Row> rows(ClientPaths paths) {
        return ClientConfigs.entries(paths, currentEntry());
    }

    @Command(
            name = "client show",
            group = "Clients",
            description = "Print the lomi-control entry for a client without writing anything",
            completionProvider = "clientCompletions",
            help = "client show <" + CLIENTS
                    + "|jetbrains> [--scope user|project] " + SELECTION + " [--json]"
                    + "\n  Prints the entry as the client's config holds it, and where it goes; the toolsets of the entry"
                    + " that file holds now (read from its args) and of the one register writes (this host's, or"
                    + " --toolsets/--read-only as register takes them), each with what it costs a model per request."
                    + " For clients configured in their UI (JetBrains AI Assistant) this is what to paste. --json: one"
                    + " JSON document.")
    public String show(
            @Argument(index = 0, description = "client") String client,
            @Option(longName = "scope", description = "user or project", defaultValue = "user") String scope,
            @Option(longName = "toolsets", description = "all or a comma-separated list of toolsets") String toolsets,
            @Option(
                            longName = "read-only",
                            description = "serve only the tools that change nothing",
                            defaultValue = "false")
                    boolean readOnly,
            @Option(
                            longName = "json",
                            description = "print one JSON document (docs/OPERATIONS.md \"Scripting\")",
                            defaultValue = "false")
                    boolean json,
            CommandContext context) {
        McpClient target = McpClient.of(Text.required(client, "client"));
        McpClient.Scope where = McpClient.Scope.of(scope);
        ClientToolsets.Choice choice = ClientToolsets.choose(host.get(), toolsets, readOnly);
        return json
                ? ConsoleJson.write(showDocument(target, where, paths(context), choice))
                : showFor(target, where, paths(context), choice);
    }

    /** {@code client show --json}: the file, the entry it holds now and its selection, and what register writes. */
    ConsoleJson.ClientShow showDocument(
            McpClient target, McpClient.Scope scope, ClientPaths paths, ClientToolsets.Choice choice) {
        McpEntry base = McpEntry.forBroker(runtime, environment);
        McpEntry entry = base.with(choice.selection());
        Optional<Path> file = target.hasFile() ? target.file(scope, paths) : Optional.empty();
        Optional<ClientConfigs.Row> row = file.map(f -> ClientConfigs.row(target, scope, f, Optional.of(base)));
        return new ConsoleJson.ClientShow(
                target.id(),
                scope.wire(),
                file.map(Path::toString),
                row.map(ClientConfigs.Row::state),
                row.flatMap(ClientConfigs.Row::selection).map(ClientToolsets::json),
                entry.command(),
                entry.args(),
                ClientToolsets.json(choice.selection()),
                choice.why());
    }

    /** {@code client show} with this host's selection. */
    String showFor(McpClient target, McpClient.Scope scope, ClientPaths paths) {
        return showFor(target, scope, paths, ClientToolsets.choose(host.get(), "", false));
    }

    String showFor(McpClient target, McpClient.Scope scope, ClientPaths paths, ClientToolsets.Choice choice) {
        McpEntry base = McpEntry.forBroker(runtime, environment);
        McpEntry entry = base.with(choice.selection());
        Optional<Path> file = target.hasFile() ? target.file(scope, paths) : Optional.empty();
        String where = target.hasFile()
                ? file.map(f -> "# " + target.title() + ": goes into " + f + " (client register " + target.id()
                                + (scope == McpClient.Scope.PROJECT ? " --scope project" : "") + " writes it for you)")
                        .orElse("# " + target.title() + " has no project-level config; this is its user-level entry")
                : "# " + target.title()
                        + ": Settings | Tools | AI Assistant | Model Context Protocol (MCP), Add (+), paste as JSON:";
        String written = file.map(f -> ClientConfigs.row(target, scope, f, Optional.of(base)))
                .map(row -> "\n# in that file now: " + row.detail()
                        + row.selection()
                                .map(s -> ", toolsets " + ClientToolsets.describe(s))
                                .orElse(""))
                .orElse("");
        return where + written + "\n# toolsets " + ClientToolsets.describe(choice.selection()) + "; " + choice.why()
                + "\n" + ClientConfigs.snippet(target, entry).stripTrailing() + "\n" + NextStep.after(target, scope);
    }

    private Optional<McpEntry> currentEntry() {
        try {
            return Optional.of(McpEntry.forBroker(runtime, environment));
        } catch (LomiException e) {
            return Optional.empty();
        }
    }

    private ClientPaths paths(CommandContext context) {
        return ClientPaths.forBrokerCaller(
                Caller.of(context), environment, UserDirectories.of(environment).home());
    }
}
