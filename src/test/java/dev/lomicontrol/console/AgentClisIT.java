package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.BrokerChildProcess;
import dev.lomicontrol.testing.ConsoleRun;
import dev.lomicontrol.testing.Eventually;
import dev.lomicontrol.testing.InteropPackages;
import dev.lomicontrol.testing.Machine;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Real agent CLIs from npm (pinned in {@code interop/package-lock.json}) against the real broker and
 * the real helper, the way README.md's quick start sets them up: a scratch {@code $HOME}, the
 * project added and the client registered through the console, the CLI's own {@code mcp list}
 * health check, then the CLI started with a task and its pairing request approved through the
 * console ({@code pairing list}, the request whose peer pid is the CLI's helper, {@code pairing
 * approve}). The model is {@code interop/scripted-model.mjs} on 127.0.0.1, speaking each CLI's wire
 * format (Anthropic Messages, OpenAI Responses, Gemini); it reads the tool results the CLI sends back
 * to choose its next call, and records every request in {@code target/agent-clis/CLI-TASK.jsonl}.
 * Each CLI does three tasks: run a command in a terminal, change a file through the editor (read,
 * open, edit at the buffer revision, save), and {@code git status}. The figures the lead budgets —
 * tool-definition bytes in the first model request, total request bytes per task — go to stderr
 * and {@code target/agent-clis/figures.txt}.
 */
class AgentClisIT {

    private static final Path LAUNCHER = Path.of("bin/lomi-control").toAbsolutePath();
    private static final Path MODEL = InteropPackages.DIRECTORY.resolve("scripted-model.mjs");
    private static final Path RECORDS = Path.of("target/agent-clis").toAbsolutePath();
    private static final Duration RUN = Duration.ofMinutes(4);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    static Path temp;

    private static @Nullable BrokerChildProcess broker;
    private static Path home = Path.of("");
    private static Path project = Path.of("");

    /** One CLI: how it is registered, checked, pointed at the scripted model and asked for a task. */
    enum Cli {
        CLAUDE_CODE("claude-code", "claude"),
        CODEX("codex", "codex"),
        GEMINI("gemini", "gemini");

        final String id;
        final String program;

        Cli(String id, String program) {
            this.id = id;
            this.program = program;
        }

        /** The file this CLI's editor task changes (one per CLI: no CLI sees another's buffer). */
        String file() {
            return "notes-" + program + ".txt";
        }

        /** Settings the user adds beside the registered entry (Gemini CLI: API-key auth, no usage statistics, no updates). */
        void configure(Path home) throws IOException {
            if (this != GEMINI) {
                return;
            }
            Path settings = home.resolve(".gemini/settings.json");
            ObjectNode root = (ObjectNode) JSON.readTree(settings.toFile());
            root.withObjectProperty("security").withObjectProperty("auth").put("selectedType", "gemini-api-key");
            root.withObjectProperty("privacy").put("usageStatisticsEnabled", false);
            root.withObjectProperty("general").put("enableAutoUpdate", false);
            Files.writeString(settings, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root));
        }

        /** Whether {@code mcp list}'s output reports the lomi-control server as healthy. */
        boolean healthy(String mcpList) {
            return mcpList.lines()
                    .filter(line -> line.contains("lomi-control"))
                    .anyMatch(line -> this == CODEX
                            ? line.startsWith("lomi-control") && line.contains(" enabled ")
                            : line.contains("Connected"));
        }

        /** The model endpoint ({@code port}; 0 before there is one) and no other: placeholder keys, no telemetry, no updates. */
        void environment(Map<String, String> env, int port) {
            String url = "http://127.0.0.1:" + port;
            switch (this) {
                case CLAUDE_CODE -> {
                    env.put("ANTHROPIC_BASE_URL", url);
                    env.put("ANTHROPIC_API_KEY", "scripted");
                    env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
                    env.put("DISABLE_TELEMETRY", "1");
                    env.put("DISABLE_AUTOUPDATER", "1");
                    env.put("DISABLE_ERROR_REPORTING", "1");
                }
                case CODEX -> env.put("LOMI_SCRIPTED_MODEL_KEY", "scripted");
                case GEMINI -> {
                    env.put("GEMINI_API_KEY", "scripted");
                    env.put("GOOGLE_GEMINI_BASE_URL", url);
                    env.put("GEMINI_CLI_TRUST_WORKSPACE", "true");
                }
            }
        }

        /**
         * The non-interactive run. Tool approval is the CLI's own switch for unattended runs: Claude
         * Code's {@code --allowedTools} for the server, Codex's per-server approval mode, Gemini's YOLO.
         */
        List<String> command(String prompt, int port) {
            String bin = InteropPackages.bin(program).toString();
            return switch (this) {
                case CLAUDE_CODE ->
                    List.of(bin, "-p", prompt, "--allowedTools", "mcp__lomi-control", "--output-format", "json");
                case CODEX ->
                    List.of(
                            bin,
                            "exec",
                            "--skip-git-repo-check",
                            "-c",
                            "model_provider=\"scripted\"",
                            "-c",
                            "model_providers.scripted={name=\"scripted\",base_url=\"http://127.0.0.1:" + port
                                    + "/v1\",wire_api=\"responses\",env_key=\"LOMI_SCRIPTED_MODEL_KEY\"}",
                            "-c",
                            "model=\"scripted-model\"",
                            "-c",
                            "check_for_update_on_startup=false",
                            "-c",
                            "mcp_servers.lomi-control.default_tools_approval_mode=\"approve\"",
                            // since 0.147 a first turn waits about 1 s for optional MCP servers, then runs
                            // without the tools of those still starting (a cold helper on a busy machine)
                            "-c",
                            "mcp_servers.lomi-control.required=true",
                            prompt);
                case GEMINI -> List.of(bin, "--yolo", "-p", prompt);
            };
        }

        /** The model's last answer as the CLI printed it. */
        String answer(String stdout) {
            if (this == CLAUDE_CODE) {
                return JSON.readTree(stdout).path("result").asString();
            }
            return stdout.strip();
        }
    }

    @BeforeAll
    static void startTheBrokerWithAGitProject() throws Exception {
        InteropPackages.install();
        Machine.requireOnPath("git", "--version", "git");
        home = Files.createDirectories(temp.resolve("home")).toRealPath();
        project = Files.createDirectories(home.resolve("src/myapp"));
        for (Cli cli : Cli.values()) {
            Files.writeString(project.resolve(cli.file()), "hello world\n");
        }
        git("init", "-q");
        git("add", ".");
        git("-c", "user.name=lomi", "-c", "user.email=lomi@localhost", "commit", "-q", "-m", "init");
        Files.createDirectories(RECORDS);
        broker = BrokerChildProcess.on(temp.resolve("data"))
                .log(temp.resolve("broker.err"))
                .environment(env -> {
                    scratch(env);
                    // as bin/lomi-control serve sets it: registration writes the launcher as the command
                    env.put(McpEntry.LAUNCHER_ENV, LAUNCHER.toString());
                })
                .start();
        assertThat(console("project", "add", project.toString())).startsWith("added project prj-");
    }

    @AfterAll
    static void stopTheBroker() throws InterruptedException {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void claudeCodeRegisteredByTheConsoleIsHealthyAndDoesTheThreeTasksThroughTheHelper() throws Exception {
        registeredHealthyAndDoesTheThreeTasks(Cli.CLAUDE_CODE);
    }

    @Test
    void codexRegisteredByTheConsoleIsHealthyAndDoesTheThreeTasksThroughTheHelper() throws Exception {
        registeredHealthyAndDoesTheThreeTasks(Cli.CODEX);
    }

    @Test
    void geminiCliRegisteredByTheConsoleIsHealthyAndDoesTheThreeTasksThroughTheHelper() throws Exception {
        registeredHealthyAndDoesTheThreeTasks(Cli.GEMINI);
    }

    private void registeredHealthyAndDoesTheThreeTasks(Cli cli) throws Exception {
        assertThat(console("client", "register", cli.id)).startsWith("wrote lomi-control in ");
        cli.configure(home);
        List<String> mcpList = List.of(InteropPackages.bin(cli.program).toString(), "mcp", "list");
        Finished health = finish(start(cli, cli.program + "-mcp-list", mcpList, 0));
        assertThat(health.exitCode())
                .as("%s mcp list: %s", cli.program, health.output())
                .isZero();
        assertThat(cli.healthy(health.output()))
                .as("%s mcp list reports lomi-control healthy:\n%s", cli.program, health.output())
                .isTrue();

        assertThat(task(cli, "terminal")).contains("exited 0 and printed: lomi-42");
        assertThat(task(cli, "editor")).startsWith("Saved " + cli.file() + " (world -> lomi-edited)");
        assertThat(project.resolve(cli.file())).hasContent("hello lomi-edited");
        assertThat(task(cli, "git")).contains(cli.file() + " (worktree modified, staged none)");
    }

    /**
     * Runs {@code cli} on one task against a fresh scripted model, approves its helper's pairing
     * request through the console, and answers the model's last text; the record must show the lomi
     * tools the CLI offered its model and the tool results it sent back.
     */
    private String task(Cli cli, String task) throws Exception {
        Path record = RECORDS.resolve(cli.program + "-" + task + ".jsonl");
        Files.deleteIfExists(record);
        Process model = new ProcessBuilder("node", MODEL.toString(), "--record", record.toString())
                .redirectError(
                        RECORDS.resolve(cli.program + "-" + task + ".model.err").toFile())
                .start();
        try {
            String prompt =
                    "Use the lomi-control MCP tools for this task. lomi-task:" + task + " lomi-file:" + cli.file();
            int port = port(model);
            Run run = start(cli, cli.program + "-" + task, cli.command(prompt, port), port);
            approvePairingOf(run.process(), cli);
            Finished finished = finish(run);
            assertThat(finished.exitCode())
                    .as("%s on %s: %s", cli.program, task, finished.output())
                    .isZero();
            Figures figures = Figures.of(record);
            report(cli.program + " " + task + ": " + figures);
            assertThat(figures.lomiToolsOffered())
                    .as("lomi tools in the requests to the model (%s)", record)
                    .isPositive();
            assertThat(figures.lomiToolBytesOffered())
                    .as("the lomi tools %s sent its model, as it wrote them, within the catalog's budget", cli.program)
                    .isLessThanOrEqualTo(cli.program.equals("gemini") ? GEMINI_CATALOG_BUDGET : CATALOG_BUDGET);
            assertThat(figures.toolResults())
                    .as("tool results the CLI sent back")
                    .isPositive();
            return cli.answer(finished.stdout());
        } finally {
            model.destroy();
            model.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** The port the scripted model prints on its first line. */
    private static int port(Process model) throws IOException {
        String line =
                new BufferedReader(new InputStreamReader(model.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertThat(line).as("the scripted model's first line").isNotNull().startsWith("PORT ");
        return Integer.parseInt(line.substring("PORT ".length()).strip());
    }

    /** As the README says: list the pending requests, pick the one whose pid is this client's helper, approve it. */
    private static void approvePairingOf(Process run, Cli cli) {
        String id = Eventually.await(
                        cli.program + "'s helper asks to pair",
                        Duration.ofSeconds(90),
                        Duration.ofMillis(250),
                        () -> {
                            assertThat(run.isAlive())
                                    .as("%s still runs (it exited %s before its helper asked to pair)", cli, exit(run))
                                    .isTrue();
                            return requestOf(run);
                        },
                        Optional::isPresent,
                        String::valueOf)
                .orElseThrow();
        assertThat(console("pairing", "approve", id)).startsWith("approved " + id);
    }

    private static String exit(Process run) {
        return run.isAlive() ? "-" : String.valueOf(run.exitValue());
    }

    /** The pending request whose peer pid descends from {@code run} (the CLI starts the helper). */
    private static Optional<String> requestOf(Process run) {
        for (JsonNode request :
                JSON.readTree(console("pairing", "list", "--json")).path("requests")) {
            Optional<ProcessHandle> process =
                    ProcessHandle.of(request.path("pid").asLong());
            while (process.isPresent()) {
                if (process.get().pid() == run.pid()) {
                    return Optional.of(request.path("id").asString());
                }
                process = process.get().parent();
            }
        }
        return Optional.empty();
    }

    record Finished(int exitCode, String stdout, String output) {}

    /** A started CLI process and the files its stdout and stderr go to. */
    record Run(Process process, Path out, Path err) {}

    /** Starts {@code command}; its stdout and stderr go to {@code target/agent-clis/NAME.out} and {@code .err}. */
    private static Run start(Cli cli, String name, List<String> command, int port) throws IOException {
        Path out = RECORDS.resolve(name + ".out");
        Path err = RECORDS.resolve(name + ".err");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(project.toFile())
                .redirectInput(new File("/dev/null"))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        scratch(builder.environment());
        builder.environment()
                .put(
                        "PATH",
                        InteropPackages.DIRECTORY.resolve("node_modules/.bin")
                                + File.pathSeparator
                                + builder.environment().getOrDefault("PATH", "/usr/bin:/bin"));
        cli.environment(builder.environment(), port);
        return new Run(builder.start(), out, err);
    }

    private static Finished finish(Run run) throws Exception {
        Process process = run.process();
        boolean exited = process.waitFor(RUN.toSeconds(), TimeUnit.SECONDS);
        if (!exited) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        String stdout = Files.readString(run.out());
        String output = stdout + Files.readString(run.err());
        assertThat(exited)
                .as("%s finished within %s: %s", run.out(), RUN, output)
                .isTrue();
        return new Finished(process.exitValue(), stdout, output);
    }

    /** The environment of everything this test starts: the scratch HOME and no inherited client or provider settings. */
    private static void scratch(Map<String, String> env) {
        env.keySet().removeIf(name -> {
            String upper = name.toUpperCase(Locale.ROOT);
            return upper.startsWith("XDG_")
                    || upper.startsWith("LOMI_CONTROL")
                    || upper.startsWith("ANTHROPIC_")
                    || upper.startsWith("CLAUDE")
                    || upper.startsWith("OPENAI_")
                    || upper.startsWith("CODEX_")
                    || upper.startsWith("GEMINI_")
                    || upper.startsWith("GOOGLE_");
        });
        env.put("HOME", home.toString());
    }

    /** {@code console ARGS…} as the admin runs it, with the scratch HOME. */
    private static String console(String... args) {
        try {
            ConsoleRun.Result result = BrokerChildProcess.console(temp.resolve("data"))
                    .in(temp)
                    .environment(AgentClisIT::scratch)
                    .run(args);
            assertThat(result.exitCode())
                    .as("console %s: %s", String.join(" ", args), result.output())
                    .isZero();
            return result.stdout();
        } catch (IOException e) {
            throw new AssertionError("console " + String.join(" ", args), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted: console " + String.join(" ", args), e);
        }
    }

    private static void git(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("git"));
        command.addAll(List.of(args));
        Process git = new ProcessBuilder(command)
                .directory(project.toFile())
                .redirectErrorStream(true)
                .start();
        String output = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(git.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(git.exitValue())
                .as("git %s: %s", String.join(" ", args), output)
                .isZero();
    }

    private static void report(String line) throws IOException {
        System.err.println("agent-clis: " + line);
        Files.writeString(
                RECORDS.resolve("figures.txt"), line + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /**
     * What one task cost in requests to the model, from the scripted model's record: every request,
     * the task's own (they carry lomi tools) and the CLI's side requests (titles, routing, counting).
     */
    /** The whole catalog's model-facing budget (CatalogBudgetTests), held for what each CLI really sends. */
    static final long CATALOG_BUDGET = 80_000;

    /**
     * Gemini CLI rewrites every input schema into its own function declaration: the same 64 tools
     * that are 63.5 KB as the Anthropic and OpenAI APIs take them were 82.8 KB as Gemini CLI sent them
     * (2026-12-06), so its budget is the catalog's with that rewriting's 30 % (35 % with margin).
     */
    static final long GEMINI_CATALOG_BUDGET = CATALOG_BUDGET * 135 / 100;

    record Figures(
            int requests,
            int taskRequests,
            long totalBytes,
            long firstRequestBytes,
            int firstRequestTools,
            long firstRequestToolBytes,
            int firstRequestLomiTools,
            long firstRequestLomiToolBytes,
            int lomiToolsOffered,
            long lomiToolBytesOffered,
            int toolResults,
            List<String> calls,
            List<Long> requestBytes) {

        static Figures of(Path record) throws IOException {
            List<JsonNode> lines = new ArrayList<>();
            for (String line : Files.readAllLines(record)) {
                lines.add(JSON.readTree(line));
            }
            JsonNode first = lines.stream()
                    .filter(l -> l.path("role").asString().equals("task"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no request of the task in " + record));
            int lomiTools = 0;
            long lomiBytes = 0;
            int results = 0;
            List<String> calls = new ArrayList<>();
            for (JsonNode line : lines) {
                if (line.path("tools").path("lomiCount").asInt() > lomiTools) {
                    lomiTools = line.path("tools").path("lomiCount").asInt();
                    lomiBytes = line.path("tools").path("lomiBytes").asLong();
                }
                results = Math.max(results, line.path("history").size());
                JsonNode call = line.path("answer").path("call");
                if (call.isString()) {
                    calls.add(call.asString());
                }
            }
            return new Figures(
                    lines.size(),
                    (int) lines.stream()
                            .filter(l -> l.path("role").asString().equals("task"))
                            .count(),
                    lines.stream().mapToLong(l -> l.path("bytes").asLong()).sum(),
                    first.path("bytes").asLong(),
                    first.path("tools").path("count").asInt(),
                    first.path("tools").path("bytes").asLong(),
                    first.path("tools").path("lomiCount").asInt(),
                    first.path("tools").path("lomiBytes").asLong(),
                    lomiTools,
                    lomiBytes,
                    results,
                    calls,
                    lines.stream().map(l -> l.path("bytes").asLong()).toList());
        }

        @Override
        public String toString() {
            return requests + " requests (" + taskRequests + " of the task), " + totalBytes + " bytes in all; first: "
                    + firstRequestBytes + " bytes, " + firstRequestTools + " tools in " + firstRequestToolBytes
                    + " bytes, of them " + firstRequestLomiTools + " lomi tools in " + firstRequestLomiToolBytes
                    + " bytes; at most " + lomiToolsOffered + " lomi tools (" + lomiToolBytesOffered
                    + " bytes) offered; calls " + calls + "; bytes per request " + requestBytes;
        }
    }
}
