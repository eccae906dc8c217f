package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.broker.BrokerRuntime;
import dev.lomicontrol.core.LomiException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** {@code client register | list} for every client and scope, on real files under a temp home and cwd. */
class ClientRegisterTests extends ConsoleTestSupport {

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final String OTHERS_JSON = "{\n  \"theme\": \"dark\",\n  \"numbers\": [1, 2.50, 1e3, 12345678901234567890],\n"
            + "  \"SERVERS\": {\n    \"other\": {\"command\": \"/usr/bin/other\", \"args\": [\"x\"], \"env\": {\"A\": \"1\"}}\n  },\n"
            + "  \"projects\": {\"/x\": {\"allowedTools\": []}}\n}\n";
    static final String OTHERS_TOML = "# my codex config\nmodel = \"o3\"\n\n[mcp_servers.other]\ncommand = \"npx\"\nargs = [\n  \"-y\",\n"
            + "  \"[not a table]\",\n]\n\n[mcp_servers.lomi-control.env]\nFOO = \"bar\"\n\n[profiles.fast]\nmodel = \"o4-mini\"\n";

    @Autowired BrokerRuntime runtime;

    String key;

    @BeforeEach
    void registrationKey() {
        if (runtime.registrationKeyHex().isEmpty()) {
            runtime.controlEndpoint(runtime.runtimeDirectory().resolve("control.sock"), runtime.dataDirectory().resolve("agent-control/discovery.json"),
                    "ab".repeat(32));
        }
        key = runtime.registrationKeyHex().orElseThrow();
    }

    static Stream<Arguments> clientsAndScopes() {
        return Stream.of(McpClient.values()).flatMap(c -> Stream.of(McpClient.Scope.values())
                .filter(s -> !(c == McpClient.CLAUDE_DESKTOP && s == McpClient.Scope.PROJECT)).map(s -> Arguments.of(c, s)));
    }

    @ParameterizedTest
    @MethodSource("clientsAndScopes")
    void registerWritesAnAbsoluteEntryAndIsIdempotent(McpClient client, McpClient.Scope scope) throws Exception {
        Path file = client.file(scope, new Caller(cwd, home)).orElseThrow();
        String line = "client register " + client.id() + " --scope " + scope.wire();

        assertThat(ok(line)).contains("wrote lomi-control in " + file);
        assertEntry(client, Files.readString(file));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo(scope == McpClient.Scope.USER ? "rw-------" : "rw-r--r--");
        byte[] first = Files.readAllBytes(file);
        assertThat(ok(line)).contains("already up to date");
        assertThat(Files.readAllBytes(file)).isEqualTo(first);
        assertThat(ok("client list")).containsPattern(client.id() + " +" + scope.wire() + " +" + file + " +current");
    }

    @ParameterizedTest
    @MethodSource("clientsAndScopes")
    void registerKeepsEveryOtherEntryAndTheFilesMode(McpClient client, McpClient.Scope scope) throws Exception {
        Path file = client.file(scope, new Caller(cwd, home)).orElseThrow();
        Files.createDirectories(file.getParent());
        String original = client.format() == McpClient.Format.CODEX_TOML ? OTHERS_TOML : OTHERS_JSON.replace("SERVERS", servers(client));
        Files.writeString(file, original);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));

        ok("client register " + client.id() + " --scope " + scope.wire());

        String written = Files.readString(file);
        assertEntry(client, written);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-r-----");
        if (client.format() == McpClient.Format.CODEX_TOML) {
            assertThat(written).isEqualTo(OTHERS_TOML + "\n" + CodexToml.render(entry(written), "\n"));
        } else {
            ObjectNode after = (ObjectNode) JSON.readTree(written);
            ((ObjectNode) after.get(servers(client))).remove(McpEntry.NAME);
            assertThat(after).isEqualTo(JSON.readTree(original));
        }
    }

    @ParameterizedTest
    @MethodSource("clientsAndScopes")
    void anExistingFileThatDoesNotParseIsRefusedAndLeftUntouched(McpClient client, McpClient.Scope scope) throws Exception {
        Path file = client.file(scope, new Caller(cwd, home)).orElseThrow();
        Files.createDirectories(file.getParent());
        String broken = client.format() == McpClient.Format.CODEX_TOML ? "model = \"o3\"\nthis is not toml\n" : "{ \"mcpServers\": { // comment\n";
        Files.writeString(file, broken);

        assertThat(fails("client register " + client.id() + " --scope " + scope.wire(), 1)).contains(file.toString(), "fix it by hand");
        assertThat(Files.readString(file)).isEqualTo(broken);
        assertThat(ok("client list")).contains("unreadable");
    }

    @Test
    void aStaleCodexTableIsReplacedInPlaceAndEverythingElseStaysByteIdentical() throws Exception {
        Path file = Files.createDirectories(cwd.resolve(".codex")).resolve("config.toml");
        String before = "model = \"o3\"\r\n\r\n[mcp_servers.lomi-control]\r\ncommand = \"/old/java\"\r\nargs = [\r\n  \"--mcp\",\r\n]\r\n\r\n# next\r\n";
        String after = "[profiles.x]\r\nmodel = 'a'\r\n";
        Files.writeString(file, before + after);

        ok("client register codex --scope project");

        String written = Files.readString(file);
        assertThat(written).startsWith("model = \"o3\"\r\n\r\n[mcp_servers.lomi-control]\r\ncommand = ").contains("\r\n\r\n# next\r\n" + after)
                .doesNotContain("/old/java").contains("\"--discovery-key\", \"" + key + "\"]\r\n");
    }

    @Test
    void aSymlinkedConfigIsWrittenThroughAndStaysALink() throws Exception {
        Path real = Files.createDirectories(home.resolve("dotfiles")).resolve("claude.json");
        Files.writeString(real, "{\"mcpServers\": {}}");
        Path link = Files.createSymbolicLink(home.resolve(".claude.json"), real);

        ok("client register claude-code");

        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertEntry(McpClient.CLAUDE_CODE, Files.readString(real));
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
        assertThat(fails("client register zed", 2)).contains("unknown client 'zed'", "claude-code");
        assertThat(fails("client register cursor --scope global", 2)).contains("user or project");
    }

    @Test
    void theLauncherFromTheEnvironmentIsTheCommandAndWithoutAKeyNothingIsWritten() {
        McpEntry entry = McpEntry.forBroker(runtime, Map.of(McpEntry.LAUNCHER_ENV, "/opt/lomi/bin/lomi-control"));
        assertThat(entry.command()).isEqualTo("/opt/lomi/bin/lomi-control");
        assertThat(entry.args()).containsExactly("--mcp", "--discovery-file", runtime.discoveryFile().orElseThrow().toString(), "--discovery-key", key);

        BrokerRuntime unstarted = new BrokerRuntime("i", Instant.now(), temp, temp);
        assertThatThrownBy(() -> McpEntry.forBroker(unstarted, Map.of())).isInstanceOf(LomiException.class).hasMessageContaining("no registration key");
        assertThat(McpEntry.program("/a/lomi-control.jar")).containsExactly("-jar", "/a/lomi-control.jar");
        assertThat(McpEntry.program("/a/classes:/b/x.jar")).containsExactly("-cp", "/a/classes:/b/x.jar", "dev.lomicontrol.LomiControl");
    }

    private void assertEntry(McpClient client, String text) {
        McpEntry entry = entry(text);
        assertThat(Path.of(entry.command())).isAbsolute();
        List<String> args = entry.args();
        assertThat(args.subList(args.size() - 5, args.size()))
                .containsExactly("--mcp", "--discovery-file", runtime.discoveryFile().orElseThrow().toString(), "--discovery-key", key);
        if (client.format() == McpClient.Format.CODEX_TOML) {
            assertThat(text).contains("[mcp_servers.lomi-control]\ncommand = \"" + entry.command() + "\"\nargs = [\"");
        } else if (client.format() == McpClient.Format.VSCODE_SERVERS) {
            assertThat(JSON.readTree(text).get("servers").get(McpEntry.NAME).get("type").asString()).isEqualTo("stdio");
        }
    }

    /** The lomi-control entry as written (TOML read back from its {@code command =} and {@code args =} lines). */
    private McpEntry entry(String text) {
        if (!text.trim().startsWith("{")) {
            String command = text.lines().filter(l -> l.startsWith("command = ") && text.indexOf(l) > text.indexOf("[mcp_servers.lomi-control]\n"))
                    .findFirst().orElseThrow().substring("command = ".length());
            String args = text.substring(text.indexOf("[mcp_servers.lomi-control]\n")).lines().filter(l -> l.startsWith("args = ")).findFirst().orElseThrow();
            return new McpEntry(JSON.readValue(command, String.class), List.of(JSON.readValue(args.substring("args = ".length()), String[].class)));
        }
        JsonNode root = JSON.readTree(text);
        JsonNode node = (root.has("servers") ? root.get("servers") : root.get("mcpServers")).get(McpEntry.NAME);
        return new McpEntry(node.get("command").asString(), List.of(JSON.treeToValue(node.get("args"), String[].class)));
    }

    private static String servers(McpClient client) {
        return client.format() == McpClient.Format.VSCODE_SERVERS ? "servers" : "mcpServers";
    }
}
