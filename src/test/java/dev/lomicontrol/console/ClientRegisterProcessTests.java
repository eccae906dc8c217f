package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lomicontrol.LomiControl;
import dev.lomicontrol.testing.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
        Path log = temp.resolve("broker.err");
        ProcessBuilder serve = ChildJvm.builder(
                        LomiControl.class, List.of("serve", "--data-dir", data.toString(), "--headless"))
                .redirectOutput(temp.resolve("broker.out").toFile())
                .redirectError(log.toFile());
        environment(serve, env);
        Process broker = serve.start();
        try {
            await().atMost(Duration.ofSeconds(120))
                    .until(() -> !broker.isAlive()
                            || (Files.exists(log) && Files.readString(log).contains("admin socket")));
            assertThat(broker.isAlive())
                    .as("broker log: %s", Files.readString(log))
                    .isTrue();

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
        } finally {
            broker.destroy();
            if (!broker.waitFor(60, TimeUnit.SECONDS)) {
                broker.destroyForcibly();
            }
        }
    }

    private String console(Path data, Map<String, String> env, String... args) throws Exception {
        List<String> arguments = new ArrayList<>(List.of("console", "--data-dir", data.toString()));
        arguments.addAll(List.of(args));
        Path out = Files.createTempFile(temp, "console", ".out");
        ProcessBuilder builder = ChildJvm.builder(LomiControl.class, arguments)
                .directory(temp.toFile())
                .redirectOutput(out.toFile())
                .redirectErrorStream(false)
                .redirectError(temp.resolve("console.err").toFile());
        environment(builder, env);
        Process console = builder.start();
        console.getOutputStream().close();
        assertThat(console.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(console.exitValue())
                .as("%s: %s", String.join(" ", args), Files.readString(temp.resolve("console.err")))
                .isZero();
        return Files.readString(out);
    }

    private static void environment(ProcessBuilder builder, Map<String, String> env) {
        builder.environment()
                .keySet()
                .removeIf(name ->
                        name.startsWith("XDG_") || name.equals("CODEX_HOME") || name.startsWith("LOMI_CONTROL"));
        builder.environment().putAll(env);
    }
}
