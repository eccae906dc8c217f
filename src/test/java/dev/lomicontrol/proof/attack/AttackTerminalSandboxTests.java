package dev.lomicontrol.proof.attack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lomicontrol.LomiControl;
import dev.lomicontrol.core.UserDirectories;
import dev.lomicontrol.terminal.TerminalSandbox;
import dev.lomicontrol.testing.BrokerChildProcess;
import dev.lomicontrol.testing.ChildJvm;
import dev.lomicontrol.testing.McpHelperProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * F1 (security review 2026-12-01): an agent with {@code terminal.execute} must not be able to act
 * as the admin. The real broker and the real helper in child JVMs; an agent-like client creates a
 * terminal through {@code lomi_terminal_create} and runs what an attacker would run. Sandboxed (the
 * default) every attempt fails; unsandboxed (the admin's explicit opt-out) the same terminal can
 * read the admin token, which is why it needs a scope of its own and shows a warning everywhere.
 * CI runs as root: the checks hold for root too (hiding and read-only mounts, not permissions).
 */
class AttackTerminalSandboxTests {

    static final Duration SETTLE = Duration.ofSeconds(60);

    @TempDir
    Path temp;

    Path data;
    Path home;
    Path tmp;
    Path project;
    final AtomicInteger keys = new AtomicInteger();

    @BeforeEach
    void requireBubblewrap() throws Exception {
        assertThat(Path.of("/usr/bin/bwrap"))
                .as("bubblewrap is needed for these tests: " + TerminalSandbox.INSTALL)
                .exists();
        data = temp.resolve("data");
        home = Files.createDirectories(temp.resolve("home"));
        tmp = Files.createDirectories(temp.resolve("tmp"));
        Files.createDirectories(home.resolve(".ssh"));
        Files.writeString(home.resolve(".ssh/id_ed25519"), "PRIVATE KEY");
        Files.createDirectories(home.resolve(".m2"));
        project = Files.createDirectories(temp.resolve("project")).toRealPath();
        Files.createDirectories(project.resolve(".git/hooks"));
        Files.writeString(project.resolve(".git/config"), "[core]\n\trepositoryformatversion = 0\n");
        // the console client the attacker would run, as a script in the project (the classpath is too long for one
        // command)
        Files.writeString(
                project.resolve("console.sh"),
                String.join(
                                " ",
                                ChildJvm.builder(
                                                LomiControl.class,
                                                List.of("console", "--data-dir", data.toString(), "status"))
                                        .command()
                                        .stream()
                                        .map(AttackTerminalSandboxTests::quoted)
                                        .toList())
                        + "\n");
    }

    @Test
    void aSandboxedTerminalCannotReachTheAdminTheBrokersFilesOrTheSecretsButCanBuild() throws Exception {
        BrokerChildProcess broker = BrokerChildProcess.on(data)
                .log(temp.resolve("broker.log"))
                .home(home)
                .tmpdir(tmp)
                .start();
        try (McpHelperProcess helper = Agent.helper(broker, data, temp.resolve("helper.err"))) {
            Agent agent = Agent.paired(helper, data, temp, project, Optional.empty());
            assertThat(agent.status().path("detail").asString()).doesNotContain("WARNING");
            Terminal terminal = agent.createTerminal();
            Path token = data.resolve("agent-control/admin.token");
            assertThat(token).exists();

            agent.assertFails(terminal, "cat " + token, "the admin token is hidden");
            agent.assertFails(terminal, "ls -A " + data + " | grep -q .", "the data directory looks empty");
            agent.assertFails(
                    terminal, "sh console.sh > console.out 2>&1", "the admin console cannot reach the broker");
            assertThat(Files.readString(project.resolve("console.out"))).doesNotContain("instance");
            agent.assertFails(terminal, "echo x > ~/x", "the home is read-only");
            agent.assertSucceeds(terminal, "echo x > ./x", "the project is writable");
            assertThat(project.resolve("x")).hasContent("x");
            agent.assertFails(terminal, "echo x > .git/hooks/x", ".git is read-only");
            agent.assertFails(terminal, "echo '{}' > .mcp.json", "an MCP client file cannot be created");
            assertThat(agent.run(terminal, "mkdir -p .vscode && echo '{}' > .vscode/mcp.json"))
                    .isNotZero();
            agent.assertSucceeds(terminal, "test -z \"$(ls -A ~/.ssh)\" && ! cat ~/.ssh/id_ed25519", "~/.ssh is empty");
            agent.assertFails(
                    terminal,
                    "echo cached > ~/.m2/x",
                    "the user's caches are read-only (N5: AttackSandboxCachesTests)");
            agent.assertSucceeds(
                    terminal, "echo cached > \"$npm_config_cache/x\"", "the project's own cache is writable");
            agent.assertSucceeds(
                    terminal,
                    "kill -0 " + ProcessHandle.current().pid() + " 2>/dev/null || ! test -e /proc/"
                            + ProcessHandle.current().pid() + "/root/" + token,
                    "no host process (and its /proc root) is reachable");
            assertThat(
                            agent.run(
                                    terminal,
                                    "mount -o remount,rw / 2>/dev/null || umount ~/.ssh 2>/dev/null || unshare -U true 2>/dev/null"))
                    .as("no way to undo the mounts, even as root")
                    .isNotZero();
            assertThat(project.resolve(".mcp.json"))
                    .as("while the terminal lives: an empty placeholder")
                    .isEmptyDirectory();
            assertThat(Files.readString(data.resolve(dev.lomicontrol.terminal.Terminals.placeholderRecordName())))
                    .as("recorded in the data directory, so a start after a kill removes it (N10)")
                    .contains(project.resolve(".mcp.json").toString());
            assertThat(project.resolve(".git/hooks/x")).doesNotExist();
            assertThat(home.resolve("x")).doesNotExist();
        } finally {
            broker.stop();
        }
        assertThat(project.resolve(".vscode"))
                .as("the placeholders go when the terminal ends")
                .doesNotExist();
        assertThat(project.resolve(".mcp.json")).doesNotExist();
        assertThat(data.resolve(dev.lomicontrol.terminal.Terminals.placeholderRecordName()))
                .as("nothing left to record")
                .doesNotExist();
    }

    /**
     * N1 (security review 2026-12-06): the broker's environment holds model and cloud keys, and a
     * chat connection may name a key file anywhere the broker's user can read. A sandboxed shell sees
     * neither: it gets an allow-listed environment (plus what the admin lists), and every configured
     * key file is hidden.
     */
    @Test
    void aSandboxedTerminalSeesNeitherTheBrokersSecretVariablesNorAChatConnectionsKeyFile() throws Exception {
        Path keyFile = Files.createDirectories(home.resolve(".config/lomi")).resolve("openai.key");
        Files.writeString(keyFile, "sk-file-leak-0789\n");
        Files.setPosixFilePermissions(keyFile, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        BrokerChildProcess broker = BrokerChildProcess.on(data)
                .log(temp.resolve("broker.log"))
                .home(home)
                .tmpdir(tmp)
                .environment("OPENAI_API_KEY", "sk-test-leak-0123")
                .environment("ANTHROPIC_API_KEY", "sk-ant-test-leak-0456")
                .environment("GITHUB_TOKEN", "ghp_test-leak-0789")
                .environment("AWS_SECRET_ACCESS_KEY", "aws-test-leak-0abc")
                .environment("LANG", "C.UTF-8")
                .environment("MY_TOOL_HOME", "/opt/my-tool")
                .jvmOptions(List.of("-Dlomi.terminal.sandbox.environment=MY_TOOL_*"))
                .start();
        try (McpHelperProcess helper = Agent.helper(broker, data, temp.resolve("helper.err"))) {
            BrokerChildProcess.console(data)
                    .in(temp)
                    .mergingStderr()
                    .ok(
                            "chat",
                            "connection",
                            "add",
                            "leaky",
                            "--kind",
                            "openai",
                            "--base-url",
                            "http://127.0.0.1:9/v1",
                            "--model",
                            "m",
                            "--api-key-file",
                            keyFile.toString());
            Agent agent = Agent.paired(helper, data, temp, project, Optional.empty());
            Terminal terminal = agent.createTerminal();

            assertThat(agent.run(terminal, "env > env.out")).isZero();
            assertThat(Files.readString(project.resolve("env.out")))
                    .as("the shell's environment")
                    .contains(
                            "HOME=" + home, "PATH=", "LANG=C.UTF-8", "TERM=xterm-256color", "LOMI_TERMINAL_SESSION_ID=")
                    .doesNotContain("test-leak", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GITHUB_TOKEN", "AWS_SECRET");
            assertThat(Files.readString(project.resolve("env.out")))
                    .as("what the admin lets through (lomi.terminal.sandbox.environment)")
                    .contains("MY_TOOL_HOME=/opt/my-tool");
            assertThat(agent.run(terminal, "cat " + keyFile + " > key.out 2>&1; true"))
                    .isZero();
            assertThat(Files.readString(project.resolve("key.out")))
                    .as("the chat connection's key file")
                    .doesNotContain("sk-file-leak");
        } finally {
            broker.stop();
        }
    }

    /**
     * N6 (security review 2026-12-06): the broker's log file holds every session's decision
     * summaries, pairing requests and refused URLs. A broker on the default data directory logs to
     * {@code ~/.local/state/lomi-control/broker.log}, outside its data directory; a sandboxed shell
     * cannot read it.
     */
    @Test
    void aSandboxedTerminalCannotReadTheBrokersLogFile() throws Exception {
        // what serve resolves without --data-dir and LOMI_CONTROL_HOME (DataDirectory, BrokerApplication.logFile)
        UserDirectories user = UserDirectories.of(java.util.Map.of("HOME", home.toString()));
        Path defaultData = user.data().resolve("lomi-control");
        Path log = user.state().resolve("lomi-control").resolve("broker.log");
        BrokerChildProcess broker = BrokerChildProcess.on(defaultData)
                .log(temp.resolve("broker.err"))
                .home(home)
                .tmpdir(tmp)
                .environment(env ->
                        env.keySet().removeIf(name -> name.startsWith("XDG_") || name.equals("LOMI_CONTROL_HOME")))
                .withoutDataDirFlag()
                .start();
        try (McpHelperProcess helper = Agent.helper(broker, defaultData, temp.resolve("helper.err"))) {
            Agent agent = Agent.paired(helper, defaultData, temp, project, Optional.empty());
            assertThat(log).as("the broker's log file").exists();
            assertThat(Files.readString(log)).as("what a shell must not read").contains("pairing request pr-");
            Terminal terminal = agent.createTerminal();

            assertThat(agent.run(terminal, "cat " + quoted(log.toString()) + " > log.out 2>&1; true"))
                    .isZero();
            assertThat(Files.readString(project.resolve("log.out")))
                    .as("the broker's log, read from the sandbox")
                    .doesNotContain("pairing request", "lomi_");
            agent.assertFails(
                    terminal,
                    "ls -A " + quoted(log.getParent().toString()) + " | grep -q .",
                    "the log directory looks empty");
        } finally {
            broker.stop();
        }
    }

    @Test
    void withTheSandboxOffTheTerminalNeedsItsOwnScopeAndEveryStatusWarns() throws Exception {
        BrokerChildProcess broker = BrokerChildProcess.on(data)
                .log(temp.resolve("broker.log"))
                .home(home)
                .tmpdir(tmp)
                .jvmOptions(List.of("-Dlomi.terminal.sandbox.enabled=false"))
                .start();
        try {
            assertThat(BrokerChildProcess.console(data).in(temp).mergingStderr().ok("status"))
                    .contains("WARNING", "terminal sandbox OFF");
            assertThat(BrokerChildProcess.console(data).in(temp).mergingStderr().ok("pairing", "list"))
                    .contains("WARNING", "terminal sandbox OFF");
            try (McpHelperProcess helper = Agent.helper(broker, data, temp.resolve("h1.err"))) {
                Agent agent = Agent.paired(helper, data, temp, project, Optional.empty());
                assertThat(agent.status().path("detail").asString()).contains("WARNING", "terminal sandbox OFF");
                assertThat(agent.createTerminalRefused())
                        .as("no default grant holds terminal.unsandboxed")
                        .isEqualTo("SCOPE_DENIED");
            }
            try (McpHelperProcess helper = Agent.helper(broker, data, temp.resolve("h2.err"))) {
                Agent agent = Agent.paired(
                        helper,
                        data,
                        temp,
                        project,
                        Optional.of("workspace.read,workspace.write,panel.create,terminal.read,"
                                + "terminal.execute,terminal.unsandboxed"));
                Terminal terminal = agent.createTerminal();
                agent.assertSucceeds(
                        terminal,
                        "cat " + data.resolve("agent-control/admin.token") + " > /dev/null",
                        "what the sandbox prevents: unsandboxed, the token is readable");
            }
        } finally {
            broker.stop();
        }
    }

    record Terminal(String panel, String id, String lease) {}

    /** A paired client of the real helper, driving one project's default workspace. */
    static final class Agent {
        final McpHelperProcess helper;
        final AtomicInteger keys = new AtomicInteger();
        String workspace;
        String epoch;

        Agent(McpHelperProcess helper) {
            this.helper = helper;
        }

        /** Waits for the pairing request, approves it in the console (flagless, or with {@code --scopes}), connects. */
        static Agent paired(McpHelperProcess helper, Path data, Path scratch, Path project, Optional<String> scopes)
                throws Exception {
            Agent agent = new Agent(helper);
            String projects =
                    BrokerChildProcess.console(data).in(scratch).mergingStderr().ok("project", "list");
            if (!projects.contains(project.toString())) {
                BrokerChildProcess.console(data).in(scratch).mergingStderr().ok("project", "add", project.toString());
            }
            AtomicReference<String> request = new AtomicReference<>();
            await().atMost(SETTLE).until(() -> {
                JsonNode status = agent.status();
                request.set(status.path("pairingRequestId").asString(""));
                return status.path("phase").asString().equals("pairing_required")
                        && !request.get().isEmpty();
            });
            if (scopes.isPresent()) {
                BrokerChildProcess.console(data)
                        .in(scratch)
                        .mergingStderr()
                        .ok("pairing", "approve", request.get(), "--scopes", scopes.get());
            } else {
                BrokerChildProcess.console(data).in(scratch).mergingStderr().ok("pairing", "approve", request.get());
            }
            await().atMost(SETTLE)
                    .until(() -> agent.status().path("phase").asString().equals("connected"));
            JsonNode workspaces = agent.ok("lomi_workspace_list", object());
            for (JsonNode entry : workspaces.path("workspaces")) {
                if (entry.path("projectPath").asString("").equals(project.toString()) || agent.workspace == null) {
                    agent.workspace = entry.path("workspaceId").asString();
                }
            }
            agent.epoch = agent.ok("lomi_connect", object().put("workspaceId", agent.workspace))
                    .path("retryEpoch")
                    .asString();
            return agent;
        }

        /** The real MCP helper pinned to {@code broker} (data directory {@code data}), its stderr to {@code stderr}. */
        static McpHelperProcess helper(BrokerChildProcess broker, Path data, Path stderr) throws Exception {
            return McpHelperProcess.startPinned(
                    data.resolve("agent-control/discovery.json"), broker.discoveryKey(), stderr, "crash-suite");
        }

        JsonNode status() throws Exception {
            return helper.call("lomi_status", object())
                    .path("result")
                    .path("structuredContent")
                    .path("data");
        }

        Terminal createTerminal() throws Exception {
            JsonNode created =
                    settled(envelope("lomi_terminal_create", mutation().put("expectedRevision", revision())));
            assertThat(created.path("state").asString())
                    .as("terminal create: %s", created)
                    .isEqualTo("succeeded");
            JsonNode result = created.path("result");
            Terminal terminal = new Terminal(
                    result.path("panelId").asString(),
                    result.path("terminalSessionId").asString(),
                    result.path("leaseId").asString());
            await().atMost(SETTLE)
                    .until(() -> ok("lomi_terminal_read", target(terminal))
                            .path("prompt")
                            .asString()
                            .equals("ready"));
            return terminal;
        }

        String createTerminalRefused() throws Exception {
            JsonNode answer = envelope("lomi_terminal_create", mutation().put("expectedRevision", revision()));
            if (answer.path("status").asString().equals("error")) {
                return answer.path("code").asString();
            }
            return settled(answer).path("errorCode").asString("settled " + answer);
        }

        /** Runs one command line in the terminal; answers its exit code. */
        int run(Terminal terminal, String command) throws Exception {
            // a run settles when the command ends (OSC 133 D); the next may start once the prompt is back (A)
            await().atMost(SETTLE)
                    .until(() -> ok("lomi_terminal_read", target(terminal))
                            .path("prompt")
                            .asString()
                            .equals("ready"));
            JsonNode settled = settled(envelope(
                    "lomi_terminal_run",
                    target(terminal)
                            .put("leaseId", terminal.lease())
                            .put("command", command)
                            .put("retryEpoch", epoch)
                            .put("requestKey", "k-" + keys.incrementAndGet())));
            assertThat(settled.path("state").asString())
                    .as("%s: %s", command, settled)
                    .isIn("succeeded", "failed");
            return settled.path("result").path("exitCode").asInt();
        }

        /** Runs {@code command} in the terminal; it must fail (a non-zero exit), for the reason {@code why}. */
        void assertFails(Terminal terminal, String command, String why) throws Exception {
            assertThat(run(terminal, command)).as(why).isNotZero();
        }

        /** Runs {@code command} in the terminal; it must succeed (exit 0), for the reason {@code why}. */
        void assertSucceeds(Terminal terminal, String command, String why) throws Exception {
            assertThat(run(terminal, command)).as(why).isZero();
        }

        private ObjectNode target(Terminal terminal) {
            return object().put("workspaceId", workspace)
                    .put("panelId", terminal.panel())
                    .put("terminalSessionId", terminal.id());
        }

        private ObjectNode mutation() {
            return object().put("workspaceId", workspace)
                    .put("retryEpoch", epoch)
                    .put("requestKey", "k-" + keys.incrementAndGet());
        }

        private String revision() throws Exception {
            return ok("lomi_panel_list", object().put("workspaceId", workspace))
                    .path("domainRevision")
                    .asString();
        }

        /** Polls an operation envelope until it settles; answers its data. */
        private JsonNode settled(JsonNode envelope) throws Exception {
            assertThat(envelope.path("status").asString()).as("%s", envelope).isEqualTo("ok");
            String operation = envelope.path("data").path("operationId").asString();
            AtomicReference<JsonNode> last = new AtomicReference<>(envelope.path("data"));
            await().atMost(SETTLE).until(() -> {
                if (List.of("succeeded", "failed", "cancelled", "outcome_unknown")
                        .contains(last.get().path("state").asString())) {
                    return true;
                }
                last.set(ok("lomi_operation_get", object().put("operationId", operation)));
                return false;
            });
            return last.get();
        }

        JsonNode ok(String tool, ObjectNode arguments) throws Exception {
            JsonNode envelope = envelope(tool, arguments);
            assertThat(envelope.path("status").asString())
                    .as("%s %s -> %s", tool, arguments, envelope)
                    .isEqualTo("ok");
            return envelope.path("data");
        }

        JsonNode envelope(String tool, ObjectNode arguments) throws Exception {
            return helper.call(tool, arguments).path("result").path("structuredContent");
        }

        static ObjectNode object() {
            return McpHelperProcess.JSON.createObjectNode();
        }
    }

    private static String quoted(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
