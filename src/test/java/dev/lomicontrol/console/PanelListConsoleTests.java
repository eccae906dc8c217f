package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerCalls;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.PairingRequest;
import dev.lomicontrol.pairing.Scopes;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.pairing.Sessions;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.testing.Eventually;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code panel list} in the real broker context, about a real terminal: an agent's session creates a
 * sandboxed terminal through the broker's dispatcher and runs commands in it; the console shows the
 * panel's kind, title, owner (session and client), state, who holds its input, and its last command
 * with the exit code — then the command that runs now, as running without an exit code.
 */
// its shells and operations stay in the context: a fresh context (and data directory) for the classes after it
@DirtiesContext
class PanelListConsoleTests extends ConsoleTestSupport {

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final Duration SETTLE = Duration.ofSeconds(30);

    @Autowired
    BrokerCalls calls;

    @Autowired
    Sessions sessions;

    @Autowired
    Projects projects;

    @Autowired
    Layout layout;

    @Autowired
    dev.lomicontrol.terminal.Terminals terminals;

    @Test
    void anAgentsTerminalIsListedWithKindTitleOwnerStateInputHolderCommandAndExitCode() throws Exception {
        Project project = projects.add(
                Files.createDirectories(temp.resolve("repo")).toRealPath(), Optional.of("panels-" + System.nanoTime()));
        Session session = sessions.open(
                new PairingRequest(
                        "pr-" + HexFormat.of().toHexDigits(System.nanoTime()),
                        "panel agent",
                        "97".repeat(32),
                        4713,
                        clock.instant(),
                        clock.instant().plus(Duration.ofMinutes(2))),
                new Grant(true, Set.of(), Scopes.all()),
                () -> {});
        try {
            String workspace = project.workspaces().get(0).id().value();
            String epoch = data(call(
                            session, "lomi_connect", JSON.createObjectNode().put("workspaceId", workspace)))
                    .path("retryEpoch")
                    .asString();
            JsonNode created = data(call(
                            session,
                            "lomi_terminal_create",
                            JSON.createObjectNode()
                                    .put("workspaceId", workspace)
                                    .put("title", "agent build")
                                    .put("expectedRevision", Long.toString(layout.revision()))
                                    .put("retryEpoch", epoch)
                                    .put("requestKey", "create-1")))
                    .path("result");
            String panel = created.path("panelId").asString();
            String terminal = created.path("terminalSessionId").asString();
            ObjectNode target = JSON.createObjectNode()
                    .put("workspaceId", workspace)
                    .put("panelId", panel)
                    .put("terminalSessionId", terminal)
                    .put("leaseId", created.path("leaseId").asString())
                    .put("retryEpoch", epoch);
            await(
                    workspace,
                    "the new terminal's prompt is ready",
                    row -> row.path("state").asString().equals("ready"));

            data(call(
                    session,
                    "lomi_terminal_run",
                    target.deepCopy().put("command", "(exit 7)").put("requestKey", "run-1")));
            JsonNode done = await(
                    workspace,
                    "the command's exit code",
                    row -> row.path("exitCode").asInt(-1) == 7
                            && row.path("state").asString().equals("ready"));
            assertThat(done.path("panelId").asString()).isEqualTo(panel);
            assertThat(done.path("kind").asString()).isEqualTo("terminal");
            assertThat(done.path("title").asString()).isEqualTo("agent build");
            assertThat(done.path("ownerSession").asString())
                    .isEqualTo(session.id().value());
            assertThat(done.path("ownerClient").asString()).isEqualTo("panel agent");
            assertThat(done.path("terminalSessionId").asString()).isEqualTo(terminal);
            assertThat(done.path("inputHolder").asString())
                    .as("the creating session holds the input lease")
                    .isEqualTo(session.id().value());
            assertThat(done.path("command").asString()).isEqualTo("(exit 7)");
            String table = ok("panel list --workspace " + workspace);
            assertThat(table.lines().filter(line -> line.contains(panel)))
                    .singleElement()
                    .asString()
                    .contains(
                            "terminal",
                            "agent build",
                            session.id().value() + " (panel agent)",
                            "ready",
                            "(exit 7)",
                            "7");
            assertThat(table.lines().findFirst().orElseThrow())
                    .contains("WORKSPACE", "PANEL", "KIND", "TITLE", "OWNER", "STATE", "INPUT", "COMMAND", "EXIT");

            data(call(
                    session,
                    "lomi_terminal_run",
                    target.deepCopy().put("command", "sleep 600").put("requestKey", "run-2")));
            JsonNode running = await(
                    workspace,
                    "the next command runs",
                    row -> row.path("state").asString().equals("running"));
            assertThat(running.path("command").asString()).isEqualTo("sleep 600");
            assertThat(running.path("exitCode").isNull())
                    .as("no exit code while it runs")
                    .isTrue();
            assertThat(ok("panel list")).contains(panel, "running", "sleep 600");
            try (var hold = terminals.find(terminal).orElseThrow().holdForHuman("admin console connection 7")) {
                assertThat(await(
                                        workspace,
                                        "the admin holds the input",
                                        row -> !row.path("inputHolder")
                                                .asString()
                                                .equals(session.id().value()))
                                .path("inputHolder")
                                .asString())
                        .as("while the admin is attached, panel list names the admin's connection")
                        .isEqualTo("admin console connection 7");
            }
            assertThat(await(
                                    workspace,
                                    "the input is back",
                                    row -> row.path("inputHolder")
                                            .asString()
                                            .equals(session.id().value()))
                            .path("inputHolder")
                            .asString())
                    .isEqualTo(session.id().value());
            assertThat(ok("workspace list")).contains(workspace, "1", project.name());
        } finally {
            calls.sessionEnded(session);
            sessions.revoke(session.id(), "test over");
        }
    }

    private JsonNode call(Session session, String tool, ObjectNode arguments) {
        return calls.call(session, tool, arguments);
    }

    /** The workspace's one terminal row of {@code panel list --json}, once {@code done} holds for it. */
    private JsonNode await(String workspace, String what, java.util.function.Predicate<JsonNode> done) {
        return Eventually.await(
                what,
                SETTLE,
                Duration.ofMillis(100),
                () -> {
                    for (JsonNode row : JSON.readTree(ok("panel list --json --workspace " + workspace))
                            .path("panels")) {
                        if (row.path("kind").asString().equals("terminal")) {
                            return row;
                        }
                    }
                    return JSON.createObjectNode();
                },
                done,
                String::valueOf);
    }

    private static JsonNode data(JsonNode envelope) {
        assertThat(envelope.path("status").asString()).as("%s", envelope).isEqualTo("ok");
        return envelope.path("data");
    }
}
