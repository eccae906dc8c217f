package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.McpHelperProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Issue 20's acceptance, through the real helper and the real broker (child JVMs, YOLO on): a
 * scripted agent opens a terminal, runs three commands and reads how each ended and what it
 * printed — once as an agent written for the reference does it (poll lomi_operation_get and
 * lomi_terminal_read, no waitMs), once with waitMs. Every tool call is counted: with waitMs the first
 * command takes at most 3 calls (terminal included) and every further one exactly 1; with the
 * command on lomi_terminal_create (issue 39) the first takes 1 call too. Every answer conforms to its
 * tool's published outputSchema, and the reference-style agent still works.
 */
class WaitMsCallCountTests {

    static final List<String> UNSETTLED = List.of("queued", "awaiting_user", "running", "cancelling");
    /** How often the reference-style agent polls: a quick agent; a model's turn takes seconds. */
    static final Duration POLL = Duration.ofMillis(200);

    static final List<Command> COMMANDS = List.of(
            new Command("echo hi-$((1+1)) && (exit 3)", 3, "hi-2"),
            new Command("printf 'two-%s\\n' ok", 0, "two-ok"),
            new Command("echo three-$((1+2)); (exit 7)", 7, "three-3"));

    record Command(String line, int exitCode, String printed) {}

    @TempDir
    Path temp;

    SchemaCheckedCalls agent;
    int calls;

    @Test
    void withWaitMsAnAgentRunsACommandAndSeesHowItEndedInOneCall() throws Exception {
        try (YoloHelper yolo = YoloHelper.start(temp)) {
            McpHelperProcess helper = yolo.helper;
            Session session = connect(helper);
            List<Integer> today = referenceAgent(helper, session);
            List<Integer> waiting = waitingAgent(helper, session);
            List<Integer> commanding = commandingAgent(helper, session);
            System.err.println("issue 20 tool calls per command (first includes opening the terminal): without waitMs "
                    + today + ", with waitMs " + waiting + ", with the first command on the create " + commanding);

            assertThat(commanding)
                    .as("the first command rides on lomi_terminal_create, each further one on lomi_terminal_run")
                    .containsExactly(1, 1, 1);

            assertThat(waiting.get(0))
                    .as("first command with waitMs (today: %s)", today)
                    .isLessThanOrEqualTo(3);
            assertThat(waiting.subList(1, waiting.size()))
                    .as("every further command with waitMs")
                    .containsOnly(1);
            assertThat(today.get(0))
                    .as("today's first command: create, poll, prompt, run, poll, read")
                    .isGreaterThanOrEqualTo(6);
            assertThat(today.subList(1, today.size()))
                    .as("today's further commands: run, poll, read")
                    .allMatch(n -> n >= 3);
            assertThat(Files.readString(helper.stderr())).doesNotContain("does not match the output schema");
        }
    }

    record Session(String workspaceId, String epoch) {}

    private Session connect(McpHelperProcess helper) throws Exception {
        agent = SchemaCheckedCalls.connected(helper);
        String workspaceId = call("lomi_workspace_list", "{}")
                .at("/data/workspaces/0/workspaceId")
                .asString();
        String epoch = call("lomi_connect", "{\"workspaceId\":\"" + workspaceId + "\"}")
                .at("/data/retryEpoch")
                .asString();
        return new Session(workspaceId, epoch);
    }

    /** The reference's way: every wait is a poll the agent makes. Returns the calls each command took. */
    private List<Integer> referenceAgent(McpHelperProcess helper, Session session) throws Exception {
        List<Integer> counts = new ArrayList<>();
        calls = 0;
        String id = call("lomi_terminal_create", create(helper, session, "ref-create", null))
                .at("/data/operationId")
                .asString();
        JsonNode created = poll(helper, "{\"operationId\":\"" + id + "\"}");
        String target = target(session, created.at("/data/result"));
        String lease = created.at("/data/result/leaseId").asString();
        awaitReadyPrompt(target, Duration.ofSeconds(60), Duration.ZERO);
        for (int i = 0; i < COMMANDS.size(); i++) {
            Command command = COMMANDS.get(i);
            String run = call("lomi_terminal_run", run(session, target, lease, command.line(), "ref-run-" + i, null))
                    .at("/data/operationId")
                    .asString();
            JsonNode settled = poll(helper, "{\"operationId\":\"" + run + "\"}");
            assertThat(settled.at("/data/result/exitCode").asInt()).isEqualTo(command.exitCode());
            JsonNode output =
                    call("lomi_terminal_read", "{" + target + ",\"mode\":\"command\",\"operationId\":\"" + run + "\"}");
            assertThat(output.at("/data/text").asString()).contains(command.printed());
            counts.add(takeCalls());
            if (i == 0) {
                awaitReadyPrompt(target, Duration.ofSeconds(30), POLL);
            }
        }
        return counts;
    }

    /** Reads the terminal every {@link #POLL} (each read a counted call) until its prompt is ready. */
    private void awaitReadyPrompt(String target, Duration atMost, Duration firstAfter) {
        Awaitility.await("a ready prompt")
                .atMost(atMost)
                .pollDelay(firstAfter)
                .pollInterval(POLL)
                .until(
                        () -> call("lomi_terminal_read", "{" + target + "}")
                                .at("/data/prompt")
                                .asString(),
                        "ready"::equals);
    }

    /** With waitMs: the broker waits, the agent makes one call per step. */
    private List<Integer> waitingAgent(McpHelperProcess helper, Session session) throws Exception {
        List<Integer> counts = new ArrayList<>();
        calls = 0;
        JsonNode created = call("lomi_terminal_create", create(helper, session, "wait-create", 20_000));
        assertThat(created.at("/data/state").asString()).isEqualTo("succeeded");
        assertThat(created.at("/data/result/ready").asBoolean())
                .as("%s", created)
                .isTrue();
        for (int i = 0; i < COMMANDS.size(); i++) {
            Command command = COMMANDS.get(i);
            JsonNode run = runWaiting(session, created.at("/data/result"), command, "wait-run-" + i);
            if (UNSETTLED.contains(run.at("/data/state").asString())) {
                run = call(
                        "lomi_operation_get",
                        "{\"operationId\":\"" + run.at("/data/operationId").asString() + "\",\"waitMs\":20000}");
            }
            assertThat(run.at("/data/result/exitCode").asInt()).as("%s", run).isEqualTo(command.exitCode());
            assertThat(run.at("/data/state").asString()).isEqualTo(command.exitCode() == 0 ? "succeeded" : "failed");
            assertThat(run.at("/data/result/output/text").asString()).contains(command.printed());
            counts.add(takeCalls());
        }
        return counts;
    }

    /** With waitMs and the first command on lomi_terminal_create: one call per command, the terminal included. */
    private List<Integer> commandingAgent(McpHelperProcess helper, Session session) throws Exception {
        List<Integer> counts = new ArrayList<>();
        calls = 0;
        Command first = COMMANDS.get(0);
        JsonNode created =
                call("lomi_terminal_create", create(helper, session, "command-create", 20_000, first.line()));
        assertThat(created.at("/data/state").asString()).as("%s", created).isEqualTo("succeeded");
        assertThat(created.at("/data/result/run/exitCode").asInt()).isEqualTo(first.exitCode());
        assertThat(created.at("/data/result/run/output/text").asString()).contains(first.printed());
        counts.add(takeCalls());
        for (int i = 1; i < COMMANDS.size(); i++) {
            Command command = COMMANDS.get(i);
            JsonNode run = runWaiting(session, created.at("/data/result"), command, "command-run-" + i);
            assertThat(run.at("/data/result/exitCode").asInt()).as("%s", run).isEqualTo(command.exitCode());
            assertThat(run.at("/data/result/output/text").asString()).contains(command.printed());
            counts.add(takeCalls());
        }
        return counts;
    }

    /** The calls counted since the last take, and the count starts again. */
    private int takeCalls() {
        int taken = calls;
        calls = 0;
        return taken;
    }

    /** Runs the command with {@code waitMs} 20000 in the terminal {@code created} answered (one counted call). */
    private JsonNode runWaiting(Session session, JsonNode created, Command command, String key) throws Exception {
        String lease = created.path("leaseId").asString();
        return call("lomi_terminal_run", run(session, target(session, created), lease, command.line(), key, 20_000));
    }

    private JsonNode poll(McpHelperProcess helper, String lookup) throws Exception {
        return Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollDelay(Duration.ZERO)
                .pollInterval(POLL)
                .until(
                        () -> call("lomi_operation_get", lookup),
                        answer -> !UNSETTLED.contains(answer.at("/data/state").asString()));
    }

    /** lomi_terminal_create's arguments; the domainRevision is read first, uncounted (an agent has it from its workspace list). */
    private String create(McpHelperProcess helper, Session session, String key, Integer waitMs) throws Exception {
        return create(helper, session, key, waitMs, null);
    }

    /** As above, with the command lomi_terminal_create runs at the first prompt (null: none). */
    private String create(McpHelperProcess helper, Session session, String key, Integer waitMs, String command)
            throws Exception {
        String revision =
                call("lomi_workspace_list", "{}").at("/data/domainRevision").asString();
        calls--;
        return "{\"workspaceId\":\"" + session.workspaceId() + "\",\"cwdRelative\":\"\",\"expectedRevision\":\""
                + revision + "\",\"retryEpoch\":\"" + session.epoch() + "\",\"requestKey\":\"" + key + "\""
                + (waitMs == null ? "" : ",\"waitMs\":" + waitMs)
                + (command == null ? "" : ",\"command\":\"" + quoted(command) + "\"") + "}";
    }

    private static String quoted(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private static String run(
            Session session, String target, String lease, String command, String key, Integer waitMs) {
        return "{" + target + ",\"leaseId\":\"" + lease + "\",\"command\":\""
                + quoted(command) + "\",\"retryEpoch\":\"" + session.epoch()
                + "\",\"requestKey\":\"" + key + "\"" + (waitMs == null ? "" : ",\"waitMs\":" + waitMs) + "}";
    }

    private static String target(Session session, JsonNode created) {
        return "\"workspaceId\":\"" + session.workspaceId() + "\",\"panelId\":\""
                + created.get("panelId").asString() + "\",\"terminalSessionId\":\""
                + created.get("terminalSessionId").asString() + "\"";
    }

    /** One counted tool call that must succeed, its envelope checked against the published schema. */
    private JsonNode call(String tool, String arguments) throws Exception {
        calls++;
        return agent.call(tool, arguments, true);
    }
}
