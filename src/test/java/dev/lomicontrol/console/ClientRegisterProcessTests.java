package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.BrokerChildProcess;
import dev.lomicontrol.testing.ConsoleRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * End to end: a real headless broker and real console processes, both with a scratch
 * {@code HOME}, {@code XDG_CONFIG_HOME} and {@code CODEX_HOME}: register writes where the clients
 * look, the remote console prints the next step, a second register changes nothing, list reports.
 */
class ClientRegisterProcessTests {

    static final JsonMapper JSONC = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
            .enable(JsonReadFeature.ALLOW_TRAILING_COMMA)
            .build();

    @TempDir
    Path temp;

    @Test
    void theRemoteConsoleRegistersUnderTheXdgConfigHomeAndCodexHomeOfItsUser() throws Exception {
        Path home = Files.createDirectories(temp.resolve("home"));
        Path xdg = Files.createDirectories(temp.resolve("xdg"));
        Path codex = temp.resolve("codex");
        Map<String, String> env =
                Map.of("HOME", home.toString(), "XDG_CONFIG_HOME", xdg.toString(), "CODEX_HOME", codex.toString());
        Path vscode = Files.createDirectories(xdg.resolve("Code/User")).resolve("mcp.json");
        String users =
                "{\n  // my servers\n  \"servers\": {\n    \"mine\": {\"type\": \"stdio\", \"command\": \"/bin/true\"},\n  },\n}\n";
        Files.writeString(vscode, users);
        Path data = temp.resolve("data");
        try (BrokerChildProcess broker = BrokerChildProcess.on(data)
                .log(temp.resolve("broker.err"))
                .environment(environment -> environment(environment, env))
                .start()) {
            String first = console(data, env, "client", "register", "vscode");
            assertThat(first)
                    .startsWith("wrote lomi-control in " + vscode)
                    .contains(
                            "previous file kept as " + vscode + ".lomi-backup",
                            "MCP: List Servers",
                            "pairing approve pr-...");
            String written = Files.readString(vscode);
            assertThat(written)
                    .startsWith(
                            "{\n  // my servers\n  \"servers\": {\n    \"mine\": {\"type\": \"stdio\", \"command\": \"/bin/true\"},\n"
                                    + "    \"lomi-control\": {\n      \"type\": \"stdio\",\n")
                    .endsWith("    },\n  },\n}\n");
            assertThat(JSONC.readTree(written)
                            .get("servers")
                            .get("mine")
                            .get("command")
                            .asString())
                    .isEqualTo("/bin/true");
            assertThat(console(data, env, "client", "register", "vscode")).startsWith("already up to date");
            assertThat(Files.readString(vscode)).isEqualTo(written);

            assertThat(console(data, env, "client", "register", "codex"))
                    .startsWith("wrote lomi-control in " + codex.resolve("config.toml"));
            assertThat(Files.readString(codex.resolve("config.toml")))
                    .contains("startup_timeout_sec = 30\ntool_timeout_sec = 60\n");
            assertThat(console(data, env, "client", "list"))
                    .containsPattern("vscode +user +" + vscode + " +current")
                    .containsPattern("codex +user +" + codex.resolve("config.toml") + " +current")
                    .containsPattern("zed +user +" + xdg.resolve("zed/settings.json") + " +no file");
            assertThat(home.resolve(".config")).doesNotExist();
        }
    }

    private String console(Path data, Map<String, String> env, String... args) throws Exception {
        ConsoleRun.Result run = BrokerChildProcess.console(data)
                .in(temp)
                .environment(environment -> environment(environment, env))
                .run(args);
        assertThat(run.exitCode())
                .as("%s: %s", String.join(" ", args), run.stderr())
                .isZero();
        return run.stdout();
    }

    private static void environment(Map<String, String> environment, Map<String, String> env) {
        environment
                .keySet()
                .removeIf(name ->
                        name.startsWith("XDG_") || name.equals("CODEX_HOME") || name.startsWith("LOMI_CONTROL"));
        environment.putAll(env);
    }
}
