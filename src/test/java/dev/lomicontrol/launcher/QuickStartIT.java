package dev.lomicontrol.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * README.md's quick start, executed as written (after {@code package}, under failsafe): every
 * {@code sh} block of that section runs through bash from the checkout with a scratch {@code $HOME},
 * its output shows every line of the {@code text} block after it ({@code …} matches anything), and
 * the client the section registers — started from the config file it wrote, as the client would —
 * pairs and then sees the project. The one substitution is the one a reader makes: the pairing id
 * the previous command printed, for {@code pr-…}.
 */
class QuickStartIT {

    private static final Path PROJECT = Path.of("").toAbsolutePath();
    private static final Pattern BLOCK = Pattern.compile("```(sh|text)\\n(.*?)\\n\\s*```", Pattern.DOTALL);
    private static final Pattern PAIRING_ID = Pattern.compile("\\bpr-[0-9a-f]+\\b");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path temp;

    record Step(String command, List<String> shows) {}

    @Test
    void theReadmeQuickStartEndsWithAPairedAgentThatSeesTheProject() throws Exception {
        List<Step> steps = steps(Files.readString(PROJECT.resolve("README.md")));
        assertThat(steps).as("the quick start's commands").hasSizeGreaterThanOrEqualTo(5);
        Path home = Files.createDirectories(temp.resolve("home"));
        Process broker = null;
        Process client = null;
        String pairingId = null;
        try {
            for (Step step : steps) {
                String command =
                        pairingId == null ? step.command() : step.command().replace("pr-…", pairingId);
                String output;
                if (command.endsWith("&")) {
                    Path log = temp.resolve("serve.log");
                    broker = bash(
                                    home,
                                    command.substring(0, command.length() - 1).strip())
                            .redirectErrorStream(true)
                            .redirectOutput(log.toFile())
                            .start();
                    Process started = broker;
                    await().atMost(Duration.ofMinutes(3))
                            .until(() ->
                                    !started.isAlive() || Files.readString(log).contains("admin socket"));
                    output = Files.readString(log);
                    assertThat(broker.isAlive()).as(output).isTrue();
                } else {
                    if (command.contains("pairing list")) {
                        client = startRegisteredClient(home);
                        Process running = client;
                        await().atMost(Duration.ofSeconds(60))
                                .until(() -> run(home, command).contains("pr-") || !running.isAlive());
                    }
                    output = run(home, command);
                }
                for (String shown : step.shows()) {
                    assertThat(output.lines().anyMatch(line -> matches(shown, line)))
                            .as("`" + command + "` prints a line like: " + shown + "\n" + output)
                            .isTrue();
                }
                Matcher id = PAIRING_ID.matcher(output);
                if (command.contains("pairing list") && id.find()) {
                    pairingId = id.group();
                }
            }
            assertThat(pairingId)
                    .as("the quick start approved a pairing request")
                    .isNotNull();
            assertThat(client).isNotNull();
            Process paired = client;
            int[] ids = {10};
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(call(paired, ids[0]++, "lomi_workspace_list", "{}")
                                    .toString())
                            .as("the paired agent sees the project")
                            .contains("myapp"));
        } finally {
            if (client != null) {
                client.destroy();
            }
            if (broker != null) {
                broker.destroy();
                if (!broker.waitFor(60, TimeUnit.SECONDS)) {
                    broker.destroyForcibly();
                }
            }
        }
    }

    /** The section's sh blocks, each with the text block that follows it (what it prints). */
    static List<Step> steps(String readme) {
        int start = readme.indexOf("## Quick start");
        assertThat(start).as("README.md has a quick start").isNotNegative();
        int end = readme.indexOf("\n## ", start + 1);
        String section = readme.substring(start, end < 0 ? readme.length() : end);
        List<Step> steps = new ArrayList<>();
        Matcher block = BLOCK.matcher(section);
        while (block.find()) {
            String body = block.group(2)
                    .lines()
                    .map(String::strip)
                    .reduce((a, b) -> a + "\n" + b)
                    .orElse("");
            if (block.group(1).equals("sh")) {
                steps.add(new Step(body, new ArrayList<>()));
            } else if (!steps.isEmpty()) {
                steps.get(steps.size() - 1).shows().addAll(body.lines().toList());
            }
        }
        return steps;
    }

    static boolean matches(String shown, String line) {
        String[] parts = shown.split("…", -1);
        StringBuilder regex = new StringBuilder(".*");
        for (int i = 0; i < parts.length; i++) {
            regex.append(Pattern.quote(parts[i]));
            regex.append(i < parts.length - 1 ? ".*" : "");
        }
        return line.matches(regex.append(".*").toString());
    }

    private ProcessBuilder bash(Path home, String command) {
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", command).directory(PROJECT.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("XDG_") || name.startsWith("LOMI_CONTROL"));
        builder.environment().put("HOME", home.toString());
        return builder;
    }

    private String run(Path home, String command) throws Exception {
        Process process = bash(home, command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("`" + command + "`: " + output).isZero();
        return output;
    }

    /** Starts the MCP server entry the quick start wrote into Claude Code's file, as Claude Code would, and initializes it. */
    private Process startRegisteredClient(Path home) throws Exception {
        JsonNode entry = JSON.readTree(home.resolve(".claude.json").toFile())
                .path("mcpServers")
                .path("lomi-control");
        List<String> command = new ArrayList<>(List.of(entry.path("command").asString()));
        entry.path("args").forEach(arg -> command.add(arg.asString()));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(home.toFile())
                .redirectError(temp.resolve("client.err").toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("XDG_") || name.startsWith("LOMI_CONTROL"));
        builder.environment().put("HOME", home.toString());
        Process client = builder.start();
        send(
                client,
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                        + "\"clientInfo\":{\"name\":\"quick-start\",\"version\":\"1\"}}}");
        assertThat(read(client).path("result").path("serverInfo").isObject()).isTrue();
        send(client, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        return client;
    }

    private JsonNode call(Process client, int id, String tool, String arguments) throws Exception {
        send(
                client,
                "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                        + "\",\"arguments\":" + arguments + "}}");
        JsonNode answer = read(client);
        assertThat(answer.path("result").path("isError").asBoolean())
                .as(answer.toString())
                .isFalse();
        return answer.path("result").path("structuredContent");
    }

    private BufferedReader reader;

    private void send(Process client, String line) throws Exception {
        OutputStream in = client.getOutputStream();
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    private JsonNode read(Process client) throws Exception {
        if (reader == null) {
            reader = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
        }
        String line = reader.readLine();
        assertThat(line).as("the helper answered").isNotNull();
        return JSON.readTree(line);
    }
}
