package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.broker.BrokerRuntime;
import dev.lomicontrol.core.LomiException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code client register | list | show} for every client and scope, on real files under a temp
 * home, cwd, {@code XDG_CONFIG_HOME} and {@code CODEX_HOME} (never the real home).
 */
class ClientRegisterTests extends ConsoleTestSupport {

    static final JsonMapper JSONC = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
            .enable(JsonReadFeature.ALLOW_TRAILING_COMMA)
            .build();
    static final McpEntry OLD = new McpEntry(
            "/old/bin/lomi-control",
            List.of(
                    "--mcp",
                    "--discovery-file",
                    "/old/data/agent-control/discovery.json",
                    "--discovery-key",
                    "cd".repeat(32)));

    @Autowired
    BrokerRuntime runtime;

    @Autowired
    ClientCommands commands;

    String key;
    ClientPaths paths;

    @BeforeEach
    void registrationKeyAndPaths() throws Exception {
        key = registrationKey(runtime);
        paths = ClientPaths.of(
                new Caller(cwd, home),
                Map.of(
                        ClientPaths.XDG_CONFIG_HOME,
                        Files.createDirectories(temp.resolve("xdg")).toString(),
                        ClientPaths.CODEX_HOME,
                        Files.createDirectories(temp.resolve("codex-home")).toString()));
    }

    static Stream<Arguments> fileClientsAndScopes() {
        return Stream.of(McpClient.values())
                .filter(McpClient::hasFile)
                .flatMap(c -> Stream.of(McpClient.Scope.values())
                        .filter(s -> s == McpClient.Scope.USER
                                || c.file(
                                                s,
                                                new ClientPaths(
                                                        Path.of("/w"), Path.of("/h"), Path.of("/x"), Path.of("/c")))
                                        .isPresent())
                        .map(s -> Arguments.of(c, s)));
    }

    /**
     * The acceptance path per client: a file with the user's own servers, extra fields in our entry
     * and (where the client reads them) comments and trailing commas; list says stale; register
     * keeps everything of the user's and makes the entry current with a backup; a second register
     * is a no-op; a hand edit of our args shows as hand-edited and register resets it.
     */
    @ParameterizedTest
    @MethodSource("fileClientsAndScopes")
    void registerKeepsEverythingOfTheUsersAndReportsStaleAndHandEditedEntries(McpClient client, McpClient.Scope scope)
            throws Exception {
        String original = client.format() == McpClient.Format.CODEX_TOML ? userToml() : userJson(client);
        Path file = existing(client, scope, original);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        Path backup = file.resolveSibling(file.getFileName() + ".lomi-backup");

        assertThat(state(client, scope))
                .isEqualTo("stale (launcher path, discovery file, discovery key"
                        + (client.format() == McpClient.Format.CODEX_TOML ? ", startup_timeout_sec missing" : "")
                        + "; run client register)");

        String output = commands.registerFor(client, scope, paths);
        String written = Files.readString(file);
        assertThat(output)
                .startsWith("wrote lomi-control in " + file)
                .contains("previous file kept as " + backup)
                .endsWith("pairing list\n       pairing approve pr-...");
        assertThat(state(client, scope)).isEqualTo("current");
        assertThat(Files.readString(backup)).isEqualTo(original);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-r-----");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(backup)))
                .isEqualTo("rw-r-----");
        assertUsersPartsSurvive(client, original, written);

        assertThat(commands.registerFor(client, scope, paths))
                .startsWith("already up to date")
                .doesNotContain("previous file kept");
        assertThat(Files.readString(file)).isEqualTo(written);
        assertThat(Files.readString(backup)).isEqualTo(original);

        String edited = written.replace("\"--mcp\"", "\"--verbose\", \"--mcp\"");
        Files.writeString(file, edited);
        assertThat(state(client, scope))
                .startsWith(
                        "hand-edited (" + (client.format() == McpClient.Format.OPENCODE ? "command" : "command/args"));
        commands.registerFor(client, scope, paths);
        assertThat(Files.readString(file)).isEqualTo(written);
        assertThat(Files.readString(backup)).isEqualTo(edited);
    }

    @ParameterizedTest
    @MethodSource("fileClientsAndScopes")
    void aNewFileGetsACurrentEntryWithTheScopesModeAndNoBackup(McpClient client, McpClient.Scope scope)
            throws Exception {
        Path file = client.file(scope, paths).orElseThrow();

        assertThat(commands.registerFor(client, scope, paths))
                .startsWith("wrote lomi-control in " + file)
                .doesNotContain("previous file kept");

        assertThat(state(client, scope)).isEqualTo("current");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo(scope == McpClient.Scope.USER ? "rw-------" : "rw-r--r--");
        assertThat(file.resolveSibling(file.getFileName() + ".lomi-backup")).doesNotExist();
        if (client.format() != McpClient.Format.CODEX_TOML) {
            JSONC.readTree(Files.readString(file));
        }
    }

    @ParameterizedTest
    @MethodSource("fileClientsAndScopes")
    void anExistingFileThatDoesNotParseIsRefusedAndLeftUntouched(McpClient client, McpClient.Scope scope)
            throws Exception {
        String broken = client.format() == McpClient.Format.CODEX_TOML
                ? "model = \"o3\"\nthis is not toml\n"
                : "{ \"mcpServers\": { // comment\n";
        Path file = existing(client, scope, broken);

        assertThatThrownBy(() -> commands.registerFor(client, scope, paths))
                .isInstanceOf(LomiException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("fix it by hand");
        assertThat(Files.readString(file)).isEqualTo(broken);
        assertThat(state(client, scope)).startsWith("unreadable");
    }

    @Test
    void commentsAreRefusedWhereTheClientReadsOnlyJson() throws Exception {
        Path file = home.resolve(".claude.json");
        Files.writeString(file, "{\n  // mine\n  \"mcpServers\": {}\n}\n");

        assertThat(fails("client register claude-code", 1))
                .contains(file.toString(), "comments are not JSON", "fix it by hand");
    }

    @Test
    void theConsoleWritesUnderTheCallersHomeAndEndsWithTheNextStep() throws Exception {
        String output = ok("client register cursor");

        assertThat(output)
                .startsWith("wrote lomi-control in " + home.resolve(".cursor/mcp.json"))
                .contains("next:\n  1. restart Cursor", "2. approve its pairing request", "pairing approve pr-...");
        assertThat(ok("client register cursor")).startsWith("already up to date");
        assertThat(ok("client list"))
                .containsPattern("cursor +user +" + home.resolve(".cursor/mcp.json") + " +current");
        assertThat(ok("client register gemini --scope project")).contains("trusted folder");
    }

    @Test
    void xdgConfigHomeAndCodexHomeAreHonouredOnlyForTheBrokersOwnHome() {
        Map<String, String> env = Map.of("HOME", home.toString(), "XDG_CONFIG_HOME", "/xdg", "CODEX_HOME", "/codex");
        ClientPaths same = ClientPaths.forBrokerCaller(new Caller(cwd, home), env, Path.of("/elsewhere"));
        assertThat(McpClient.VSCODE.file(McpClient.Scope.USER, same)).contains(Path.of("/xdg/Code/User/mcp.json"));
        assertThat(McpClient.CLAUDE_DESKTOP.file(McpClient.Scope.USER, same))
                .contains(Path.of("/xdg/Claude/claude_desktop_config.json"));
        assertThat(McpClient.ZED.file(McpClient.Scope.USER, same)).contains(Path.of("/xdg/zed/settings.json"));
        assertThat(McpClient.CODEX.file(McpClient.Scope.USER, same)).contains(Path.of("/codex/config.toml"));
        assertThat(McpClient.CLAUDE_CODE.file(McpClient.Scope.USER, same)).contains(home.resolve(".claude.json"));

        ClientPaths other = ClientPaths.forBrokerCaller(
                new Caller(cwd, home), Map.of("HOME", "/root", "XDG_CONFIG_HOME", "/xdg"), Path.of("/root"));
        assertThat(McpClient.VSCODE.file(McpClient.Scope.USER, other))
                .contains(home.resolve(".config/Code/User/mcp.json"));
        assertThat(McpClient.CODEX.file(McpClient.Scope.USER, other)).contains(home.resolve(".codex/config.toml"));
        ClientPaths relative =
                ClientPaths.of(new Caller(cwd, home), Map.of("XDG_CONFIG_HOME", "rel", "CODEX_HOME", ""));
        assertThat(relative.xdgConfig()).isEqualTo(home.resolve(".config"));
        assertThat(relative.codexHome()).isEqualTo(home.resolve(".codex"));
    }

    @Test
    void theHelpNamesEveryClient() {
        String help = ok("client register --help");
        Stream.of(McpClient.values())
                .filter(McpClient::hasFile)
                .forEach(c -> assertThat(help).contains(c.id()));
        assertThat(ok("client show --help")).contains("jetbrains");
    }

    @Test
    void theFilesRegisterMayWriteAreListedForTheSandbox() {
        assertThat(McpClient.defaultUserFiles())
                .contains(
                        ".claude.json",
                        ".claude.json.lomi-backup",
                        ".config/zed/settings.json",
                        ".codex/config.toml",
                        ".codeium/windsurf/mcp_config.json",
                        ".config/opencode/opencode.jsonc.lomi-backup")
                .hasSize(22);
        assertThat(McpClient.projectEntries())
                .containsExactly(
                        ".mcp.json",
                        ".cursor",
                        ".vscode",
                        ".gemini",
                        ".codex",
                        ".zed",
                        "opencode.json",
                        "opencode.jsonc");
    }

    @Test
    void opencodeKeepsTheUsersEnabledAndPrefersAnExistingJsoncFile() throws Exception {
        Path jsonc =
                Files.createDirectories(paths.xdgConfig().resolve("opencode")).resolve("opencode.jsonc");
        Files.writeString(
                jsonc,
                "{\n  // off for now\n  \"mcp\": {\"lomi-control\": {\"type\": \"local\", \"command\": [\"/x\"], \"enabled\": false},},\n}\n");

        commands.registerFor(McpClient.OPENCODE, McpClient.Scope.USER, paths);

        JsonNode entry = JSONC.readTree(Files.readString(jsonc)).get("mcp").get(McpEntry.NAME);
        assertThat(entry.get("enabled").asBoolean()).isFalse();
        assertThat(entry.get("command").get(0).asString()).isEqualTo(expected().command());
        assertThat(Files.readString(jsonc)).contains("// off for now");
        assertThat(paths.xdgConfig().resolve("opencode/opencode.json")).doesNotExist();
    }

    @Test
    void showPrintsTheSnippetAndJetBrainsHasNoFile() {
        String jetbrains = commands.showFor(McpClient.JETBRAINS, McpClient.Scope.USER, paths);
        assertThat(jetbrains)
                .startsWith("# JetBrains AI Assistant: Settings | Tools | AI Assistant | Model Context Protocol (MCP)")
                .contains(
                        "{\n  \"mcpServers\": {\n    \"lomi-control\": {\n      \"command\": \""
                                + expected().command() + "\"",
                        key)
                .contains("pairing approve");
        assertThat(JSONC.readTree(jetbrains.substring(jetbrains.indexOf('{'), jetbrains.indexOf("\nnext:")))
                        .get("mcpServers")
                        .get(McpEntry.NAME)
                        .get("args")
                        .get(expected().args().size() - 1)
                        .asString())
                .isEqualTo(key);
        assertThat(commands.showFor(McpClient.CODEX, McpClient.Scope.USER, paths))
                .contains(
                        "[mcp_servers.lomi-control]\ncommand = ", "startup_timeout_sec = 30\ntool_timeout_sec = 60\n");
        assertThat(ok("client show zed")).contains("\"context_servers\"", "\"source\": \"custom\"");
        assertThat(fails("client register jetbrains", 1)).contains("configured in the IDE", "client show jetbrains");
        assertThat(ok("client list")).containsPattern("jetbrains +- +- +configured in the IDE: client show jetbrains");
    }

    @Test
    void aSymlinkedConfigIsWrittenThroughAndStaysALink() throws Exception {
        Path real = Files.createDirectories(home.resolve("dotfiles")).resolve("claude.json");
        Files.writeString(real, "{\"mcpServers\": {}}");
        Path link = Files.createSymbolicLink(home.resolve(".claude.json"), real);

        ok("client register claude-code");

        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(JSONC.readTree(Files.readString(real))
                        .get("mcpServers")
                        .get(McpEntry.NAME)
                        .get("command")
                        .asString())
                .isEqualTo(expected().command());
        assertThat(Files.readString(home.resolve(".claude.json.lomi-backup"))).isEqualTo("{\"mcpServers\": {}}");
    }

    /**
     * N9 (security review 2026-12-06): a hostile repository's {@code .vscode} linked to a directory
     * outside it must not redirect a project-scope register there.
     */
    @Test
    void aProjectWhoseVscodeIsASymlinkOutsideItIsRefusedAndNothingIsWrittenThere() throws Exception {
        Path outside = Files.createDirectories(temp.resolve("outside-config"));
        Files.createSymbolicLink(cwd.resolve(".vscode"), outside);

        assertThat(fails("client register vscode --scope project", 1))
                .contains(cwd.resolve(".vscode").toString(), "symbolic link", "--scope user");

        try (Stream<Path> written = Files.list(outside)) {
            assertThat(written).isEmpty();
        }
    }

    /** N9: a project's {@code .mcp.json} that is a symlink is refused; its target is neither read nor written. */
    @Test
    void aProjectWhoseMcpJsonIsASymlinkIsRefusedAndItsTargetIsUntouched() throws Exception {
        Path outside = Files.createDirectories(temp.resolve("outside")).resolve("settings.json");
        Files.writeString(outside, "{\"mcpServers\": {}}");
        Files.createSymbolicLink(cwd.resolve(".mcp.json"), outside);

        assertThat(fails("client register claude-code --scope project", 1))
                .contains(cwd.resolve(".mcp.json").toString(), "symbolic link");

        assertThat(outside).hasContent("{\"mcpServers\": {}}");
        assertThat(cwd.resolve(".mcp.json.lomi-backup")).doesNotExist();
    }

    /** N9: a FIFO {@code .mcp.json} is refused at once instead of blocking the console on the read. */
    @Test
    @org.junit.jupiter.api.Timeout(value = 60, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void aProjectWhoseMcpJsonIsAFifoIsRefusedWithoutHanging() throws Exception {
        Path fifo = cwd.resolve(".mcp.json");
        Process mkfifo =
                new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertThat(mkfifo.waitFor()).as("mkfifo").isZero();

        assertThat(fails("client register claude-code --scope project", 1))
                .contains(fifo.toString(), "not a regular file");
    }

    @Test
    void lomiControlDefinedAsDottedKeysIsRefused() throws Exception {
        Path file = Files.createDirectories(cwd.resolve(".codex")).resolve("config.toml");
        Files.writeString(file, "[mcp_servers]\nlomi-control = { command = \"x\" }\n");

        assertThat(fails("client register codex --scope project", 1)).contains("inline table", "line 2");
    }

    @Test
    void claudeDesktopHasNoProjectScopeAndUnknownClientsAreUsageErrors() {
        assertThat(fails("client register claude-desktop --scope project", 1)).contains("no project-level config");
        assertThat(fails("client register nope", 2)).contains("unknown client 'nope'", "claude-code", "opencode");
        assertThat(fails("client register cursor --scope global", 2)).contains("user or project");
    }

    @Test
    void theLauncherFromTheEnvironmentIsTheCommandAndWithoutAKeyNothingIsWritten() {
        McpEntry entry = McpEntry.forBroker(runtime, Map.of(McpEntry.LAUNCHER_ENV, "/opt/lomi/bin/lomi-control"));
        assertThat(entry.command()).isEqualTo("/opt/lomi/bin/lomi-control");
        assertThat(entry.args())
                .containsExactly(
                        "--mcp",
                        "--discovery-file",
                        runtime.discoveryFile().orElseThrow().toString(),
                        "--discovery-key",
                        key);

        BrokerRuntime unstarted = new BrokerRuntime("i", Instant.now(), temp, temp);
        assertThatThrownBy(() -> McpEntry.forBroker(unstarted, Map.of()))
                .isInstanceOf(LomiException.class)
                .hasMessageContaining("no registration key");
        assertThat(McpEntry.program("/a/lomi-control.jar")).containsExactly("-jar", "/a/lomi-control.jar");
        assertThat(McpEntry.program("/a/classes:/b/x.jar"))
                .containsExactly("-cp", "/a/classes:/b/x.jar", "dev.lomicontrol.LomiControl");
    }

    private McpEntry expected() {
        return McpEntry.forBroker(runtime, System.getenv());
    }

    /** The client's file for the scope, written with this text. */
    private Path existing(McpClient client, McpClient.Scope scope, String text) throws IOException {
        Path file = client.file(scope, paths).orElseThrow();
        Files.createDirectories(file.getParent());
        return Files.writeString(file, text);
    }

    private String state(McpClient client, McpClient.Scope scope) {
        return commands.rows(paths).stream()
                .filter(r -> r.client().equals(client.id()) && r.scope().equals(scope.wire()))
                .findFirst()
                .orElseThrow()
                .detail();
    }

    /** Everything but the fields we own is as the user wrote it: the rest of the file, the entry's other fields, the comments. */
    private static void assertUsersPartsSurvive(McpClient client, String original, String written) {
        if (client.format() == McpClient.Format.CODEX_TOML) {
            assertThat(written)
                    .isEqualTo(original.replace(
                                    "command = \"/old/bin/lomi-control\"\nargs = " + tomlArray(OLD.args()) + "\n",
                                    "command = \"" + expectedCommand(written) + "\"\nargs = "
                                            + tomlArray(argsOf(written)) + "\n")
                            .replace(
                                    "tool_timeout_sec = 90 # mine\n",
                                    "tool_timeout_sec = 90 # mine\nstartup_timeout_sec = 30\n"));
            return;
        }
        String servers = client.format().container().get(0);
        ObjectNode before = (ObjectNode) JSONC.readTree(original);
        ObjectNode after = (ObjectNode) JSONC.readTree(written);
        ObjectNode ourBefore = (ObjectNode) ((ObjectNode) before.get(servers)).remove(McpEntry.NAME);
        ObjectNode ourAfter = (ObjectNode) ((ObjectNode) after.get(servers)).remove(McpEntry.NAME);
        assertThat(after).isEqualTo(before);
        List<String> owned = new ArrayList<>();
        EntryFields.of(client.format(), OLD).stream()
                .filter(f -> f.rule() != EntryFields.Rule.DEFAULT)
                .forEach(f -> owned.add(f.name()));
        ourBefore.remove(owned);
        ourAfter.remove(owned);
        assertThat(ourAfter).isEqualTo(ourBefore);
        if (client.jsonc()) {
            assertThat(written)
                    .contains("// the user's settings\n", "      // keep me\n", "\"disabled\": false,\n", "/* mine */");
        }
    }

    /** A JSON/JSONC file of the user's: other keys and servers, and an old lomi-control entry with extra fields. */
    private static String userJson(McpClient client) {
        boolean jsonc = client.jsonc();
        List<String> fields = new ArrayList<>();
        EntryFields.of(client.format(), OLD).forEach(f -> fields.add("\"" + f.name() + "\": " + f.value()));
        fields.add(
                client.format() == McpClient.Format.OPENCODE
                        ? "\"environment\": {\"LOMI_X\": \"1\"}"
                        : "\"env\": {\"LOMI_X\": \"1\"}");
        fields.add("\"disabled\": false");
        String entry = "{\n" + (jsonc ? "      // keep me\n" : "") + "      " + String.join(",\n      ", fields)
                + (jsonc ? "," : "") + "\n    }";
        return "{\n" + (jsonc ? "  // the user's settings\n" : "")
                + "  \"theme\": \"dark\",\n  \"numbers\": [1, 2.50, 1e3, 12345678901234567890],\n"
                + "  \"" + client.format().container().get(0) + "\": {\n"
                + "    \"other\": {\"command\": \"/usr/bin/other\", \"args\": [\"x\"], \"env\": {\"A\": \"1\"}},"
                + (jsonc ? " /* mine */" : "") + "\n"
                + "    \"lomi-control\": " + entry + (jsonc ? "," : "") + "\n  }\n}\n";
    }

    private static String userToml() {
        return "# my codex config\nmodel = \"o3\"\n\n[mcp_servers.other]\ncommand = \"npx\"\nargs = [\n  \"-y\",\n  \"[not a table]\",\n]\n\n"
                + "[mcp_servers.lomi-control]\n# keep me\ncommand = \"/old/bin/lomi-control\"\nargs = "
                + tomlArray(OLD.args()) + "\n"
                + "enabled = true\ntool_timeout_sec = 90 # mine\n\n"
                + "[mcp_servers.lomi-control.env]\nFOO = \"bar\"\n\n[profiles.fast]\nmodel = \"o4-mini\"\n";
    }

    private static String tomlArray(List<String> values) {
        return "[" + String.join(", ", values.stream().map(CodexToml::string).toList()) + "]";
    }

    private static String expectedCommand(String toml) {
        String line = toml.lines()
                .filter(l -> l.startsWith("command = ") && !l.contains("npx"))
                .findFirst()
                .orElseThrow();
        return JSONC.readValue(line.substring("command = ".length()), String.class);
    }

    private static List<String> argsOf(String toml) {
        String line = toml.substring(toml.indexOf("[mcp_servers.lomi-control]\n"))
                .lines()
                .filter(l -> l.startsWith("args = "))
                .findFirst()
                .orElseThrow();
        return List.of(JSONC.readValue(line.substring("args = ".length()), String[].class));
    }
}
