package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerRuntime;
import dev.lomicontrol.catalog.ToolCatalog;
import dev.lomicontrol.core.UserDirectories;
import dev.lomicontrol.tools.HostProbe;
import dev.lomicontrol.tools.ModelFacing;
import dev.lomicontrol.tools.ToolSelection;
import dev.lomicontrol.tools.Toolset;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Slice test of the toolsets {@code client register} writes (issue 39): this host's by default (a
 * fake host layout in a temp dir, probed by the real {@link HostProbe}), {@code --toolsets} and
 * {@code --read-only} instead, read back by {@code client list} and {@code client show}; and the
 * console client's usage check that needs no broker.
 */
class ClientToolsetsSliceTests extends ConsoleSliceSupport {

    static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    BrokerRuntime runtime;

    @Autowired
    CommandShapes shapes;

    @Autowired
    ClientCommands commands;

    String key;

    @BeforeEach
    void registrationKey() {
        key = registrationKey(runtime);
    }

    @Test
    void registerWritesTheToolsetsThisHostCanServeAndNoOptionWhenItCanServeThemAll() throws IOException {
        Path host = Files.createDirectories(temp.resolve("host"));
        Map<String, String> environment = Map.of(
                "PATH", Files.createDirectories(host.resolve("bin")).toString(),
                "LOMI_BROWSER_EXECUTABLE", host.resolve("chromium").toString());
        ClientPaths paths = ClientPaths.of(new Caller(cwd, home), Map.of());
        HostProbe probe = new HostProbe(environment, Optional.empty(), home);

        String bare = new ClientCommands(runtime, environment, probe)
                .registerFor(McpClient.CURSOR, McpClient.Scope.USER, paths);

        assertThat(args(home.resolve(".cursor/mcp.json")))
                .endsWith(
                        "--discovery-key",
                        key,
                        "--toolsets",
                        "core,layout,terminal,files,editor,git,artifacts,settings,chat,episodes");
        assertThat(bare)
                .contains("  toolsets: core,layout,terminal,files,editor,git,artifacts,settings,chat,episodes ("
                        + describedSize(probe.toolsets()) + " per model request); this host's default: all but browser"
                        + " (no Chromium found) and android (no adb found); --toolsets LIST|all chooses");

        executable(host.resolve("chromium"));
        executable(home.resolve("Android/Sdk/platform-tools/adb"));
        String full = new ClientCommands(runtime, environment, probe)
                .registerFor(McpClient.CURSOR, McpClient.Scope.USER, paths);

        assertThat(args(home.resolve(".cursor/mcp.json")))
                .as("Chromium and adb found: every toolset, android included, and so no --toolsets")
                .endsWith("--discovery-key", key);
        assertThat(full).startsWith("wrote lomi-control").contains("this host's default: every toolset");
        assertThat(probe.toolsets().toolsets()).containsExactlyInAnyOrder(Toolset.values());
    }

    @Test
    void theOptionsChooseInsteadAndRegisteringAgainReplacesTheSelection() throws IOException {
        Path file = home.resolve(".cursor/mcp.json");
        assertThat(ok("client register cursor --toolsets git,files --read-only"))
                .contains("toolsets: core,files,git, read-only (", "chosen with --toolsets");
        assertThat(args(file)).endsWith(key, "--toolsets", "core,files,git", "--read-only");

        ok("client register cursor --toolsets all");
        assertThat(args(file)).endsWith("--discovery-key", key);

        ok("client register cursor --toolsets episodes");
        ok("client register cursor --toolsets terminal");
        List<String> args = args(file);
        assertThat(args).endsWith(key, "--toolsets", "core,terminal");
        assertThat(args.stream().filter("--toolsets"::equals)).hasSize(1);
        assertThat(ok("client register cursor --toolsets terminal")).startsWith("already up to date");
        assertThat(ok("client list")).containsPattern("cursor +user +\\S+ +current +core,terminal \\(");

        ok("client register cursor --read-only");
        args = args(file);
        assertThat(McpEntry.selection(args.subList(args.indexOf(key) + 1, args.size())))
                .as("--read-only alone: this host's toolsets, read-only")
                .contains(new ToolSelection(hostProbe().toolsets().toolsets(), true));
    }

    @ParameterizedTest
    @EnumSource(McpClient.class)
    void everyClientsEntryTakesTheSelectionAndRegisteringAgainReplacesIt(McpClient client) {
        if (!client.hasFile()) {
            return;
        }
        ClientPaths paths = ClientPaths.of(new Caller(cwd, home), Map.of());
        Path file = client.file(McpClient.Scope.USER, paths).orElseThrow();
        ToolSelection gitReadOnly = new ToolSelection(EnumSet.of(Toolset.GIT), true);
        ToolSelection files = new ToolSelection(EnumSet.of(Toolset.FILES), false);

        commands.registerFor(client, McpClient.Scope.USER, paths, new ClientToolsets.Choice(gitReadOnly, "test"));
        ClientConfigs.Row first = ClientConfigs.row(client, McpClient.Scope.USER, file, Optional.of(entry()));
        commands.registerFor(client, McpClient.Scope.USER, paths, new ClientToolsets.Choice(files, "test"));
        ClientConfigs.Row second = ClientConfigs.row(client, McpClient.Scope.USER, file, Optional.of(entry()));
        commands.registerFor(
                client, McpClient.Scope.USER, paths, new ClientToolsets.Choice(ToolSelection.all(), "test"));
        ClientConfigs.Row all = ClientConfigs.row(client, McpClient.Scope.USER, file, Optional.of(entry()));

        assertThat(List.of(first.state(), second.state(), all.state())).containsOnly("current");
        assertThat(first.selection()).contains(gitReadOnly);
        assertThat(second.selection()).contains(files);
        assertThat(all.selection()).contains(ToolSelection.all());
        assertThat(readString(file)).doesNotContain("--toolsets", "--read-only");
    }

    @Test
    void aStaleEntryIsToldToRegisterAgainWithTheOptionsItHas() throws IOException {
        Path file = Files.createDirectories(cwd.resolve(".cursor")).resolve("mcp.json");
        McpEntry old = new McpEntry(
                        "/old/bin/lomi-control",
                        List.of("--mcp", "--discovery-file", "/old/discovery.json", "--discovery-key", "cd".repeat(32)))
                .with(new ToolSelection(EnumSet.of(Toolset.GIT), true));
        Files.writeString(
                file,
                "{\"mcpServers\": {\"lomi-control\": {\"command\": \"/old/bin/lomi-control\", \"args\": "
                        + JSON.writeValueAsString(old.args()) + "}}}");

        assertThat(ok("client list"))
                .contains("stale (launcher path, discovery file, discovery key; run client register cursor --scope"
                        + " project --toolsets core,git --read-only)");
        ok("client register cursor --scope project --toolsets core,git --read-only");
        assertThat(ok("client list")).containsPattern("cursor +project +\\S+ +current +core,git, read-only \\(");
    }

    @Test
    void anUnknownToolsetIsAUsageErrorNamingTheValidOnesAndNothingIsWritten() {
        assertThat(fails("client register cursor --toolsets core,nope", ConsoleResult.USAGE))
                .startsWith("usage: unknown toolset 'nope'")
                .contains(Toolset.names());
        assertUsage("client show cursor --toolsets brwoser", "'brwoser'");
        assertThat(home.resolve(".cursor/mcp.json")).doesNotExist();
        assertThat(ok("client register --help")).contains(ClientCommands.TOOLSETS, "--read-only");
        assertThat(ClientCommands.TOOLSETS).isEqualTo(Toolset.names());
    }

    @Test
    void listAndShowReadTheSelectionBackFromTheWrittenEntryWithItsModelFacingSize() {
        ToolSelection chosen = new ToolSelection(EnumSet.of(Toolset.GIT, Toolset.FILES), true);
        String expected = "core,files,git, read-only (" + describedSize(chosen) + " per model request)";
        assertThat(ok("client show cursor")).contains("# in that file now: no file\n# toolsets ");
        ok("client register cursor --toolsets files,git --read-only");

        assertThat(ok("client list")).contains(expected).containsPattern("claude-code +user +\\S+ +no file +-");
        assertThat(ok("client show cursor"))
                .contains("# in that file now: current, toolsets " + expected + "\n# toolsets "
                        + ClientToolsets.describe(hostProbe().toolsets()) + "; this host's default");
        assertThat(ok("client show cursor --toolsets files,git --read-only"))
                .contains("# toolsets " + expected + "; chosen with --toolsets", "\"--read-only\"");

        JsonNode rows = JSON.readTree(ok("client list --json")).get("entries");
        JsonNode cursor = null;
        for (JsonNode row : rows) {
            if (row.get("client").asString().equals("cursor")
                    && row.get("scope").asString().equals("user")) {
                cursor = row;
            }
            assertThat(row.has("detail")).as("the existing fields stay").isTrue();
        }
        assertThat(cursor).isNotNull();
        JsonNode selection = cursor.get("selection");
        assertThat(selection.get("toolsets").toString()).isEqualTo("[\"core\",\"files\",\"git\"]");
        assertThat(selection.get("readOnly").asBoolean()).isTrue();
        assertThat(selection.get("tools").asInt())
                .isEqualTo(ToolCatalog.standard().servedBy(chosen).size());
        assertThat(selection.get("modelFacingBytes").asInt())
                .isEqualTo(ModelFacing.bytes(ToolCatalog.standard().servedBy(chosen)));
        assertThat(rows.get(0).get("selection").isNull()).as("no entry: null").isTrue();

        JsonNode show = JSON.readTree(ok("client show cursor --json --toolsets all"));
        assertThat(show.get("file").asString())
                .isEqualTo(home.resolve(".cursor/mcp.json").toString());
        assertThat(show.get("state").asString()).isEqualTo("current");
        assertThat(show.get("written")).isEqualTo(selection);
        assertThat(show.get("selection").get("toolsets")).hasSize(Toolset.values().length);
        assertThat(show.get("args").get(show.get("args").size() - 1).asString()).isEqualTo(key);
        assertThat(show.get("why").asString()).isEqualTo("chosen with --toolsets");
        assertThat(JSON.readTree(ok("client show jetbrains --json")).get("file").isNull())
                .isTrue();
    }

    @Test
    void geminisNextStepSaysItConnectsNoServerInAnUntrustedFolderAndHowToTrustIt() {
        for (String line :
                List.of("client register gemini", "client register gemini --scope project", "client show gemini")) {
            assertThat(ok(line))
                    .as(line)
                    .contains(
                            "Gemini CLI connects no MCP server (user-level ones included) in a folder it does not trust",
                            "/permissions",
                            "GEMINI_CLI_TRUST_WORKSPACE=true");
        }
        assertThat(ok("client register cursor")).doesNotContain("GEMINI_CLI_TRUST_WORKSPACE");
    }

    @Test
    void aTypoIsAUsageErrorWithoutABrokerAndTheConsoleClientKnowsEveryCommandTheBrokerDoes() throws IOException {
        List<String> lines =
                shapes.all().stream().map(DeclaredCommands::line).sorted().toList();
        assertThat(DeclaredCommands.load().all().stream()
                        .map(DeclaredCommands::line)
                        .toList())
                .as("src/main/resources/dev/lomicontrol/console/" + DeclaredCommands.RESOURCE
                        + " lists the broker's commands; write these lines into it:\n" + String.join("\n", lines))
                .isEqualTo(lines);
        Path nobody = Files.createDirectories(temp.resolve("no-broker"));
        Map<String, String> environment = Map.of("HOME", home.toString());

        assertThat(ConsoleMain.run(new String[] {"--data-dir", nobody.toString(), "clinet", "list"}, environment))
                .isEqualTo(ConsoleResult.USAGE);
        assertThat(ConsoleMain.run(
                        new String[] {
                            "--data-dir", nobody.toString(), "client", "register", "cursor", "--toolset", "git"
                        },
                        environment))
                .isEqualTo(ConsoleResult.USAGE);
        assertThat(ConsoleMain.run(new String[] {"--data-dir", nobody.toString(), "client", "list"}, environment))
                .as("a good line still needs the broker")
                .isEqualTo(ConsoleResult.NO_BROKER);
        assertThat(ConsoleMain.run(
                        new String[] {"--data-dir", nobody.toString(), "pairing", "list", "--watch"}, environment))
                .isEqualTo(ConsoleResult.NO_BROKER);
        DeclaredCommands declared = DeclaredCommands.load();
        assertThat(declared.usageError("clinet list")).contains("unknown command 'clinet'; type 'help' for the list");
        assertThat(fails("clinet list", ConsoleResult.USAGE))
                .isEqualTo("usage: " + declared.usageError("clinet list").orElseThrow());
        assertThat(declared.usageError("client register cursor --toolset git"))
                .contains(fails("client register cursor --toolset git", ConsoleResult.USAGE)
                        .substring("usage: ".length()));
        assertThat(declared.usageError("help nonsense"))
                .as("help's words are the broker's to judge")
                .isEmpty();

        for (CommandShape shape : shapes.all()) {
            assertThat(DeclaredCommands.shape(DeclaredCommands.line(shape)).synopsis())
                    .isEqualTo(shape.synopsis());
        }
        assertThat(registry.getCommands()).isNotEmpty();
    }

    private McpEntry entry() {
        return McpEntry.forBroker(runtime, System.getenv());
    }

    private static String readString(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private HostProbe hostProbe() {
        Map<String, String> environment = System.getenv();
        return new HostProbe(
                environment,
                Optional.ofNullable(System.getProperty("lomi.browser.executable")),
                UserDirectories.of(environment).home());
    }

    /** {@code N tools, X KB}: what {@code selection} costs a model, as the console prints it. */
    private static String describedSize(ToolSelection selection) {
        String described = ClientToolsets.describe(selection);
        return described.substring(described.indexOf('(') + 1, described.indexOf(" per model request"));
    }

    private static List<String> args(Path file) throws IOException {
        List<String> args = new ArrayList<>();
        JSON.readTree(Files.readString(file))
                .get("mcpServers")
                .get(McpEntry.NAME)
                .get("args")
                .forEach(a -> args.add(a.asString()));
        return args;
    }

    private static void executable(Path path) throws IOException {
        Files.createDirectories(path.getParent());
        Files.writeString(path, "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
