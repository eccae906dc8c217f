package dev.lomicontrol.terminal.tools;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.ToolName;
import dev.lomicontrol.mcp.SchemaVerdicts;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.terminal.api.TerminalSpecs;
import dev.lomicontrol.testing.Agent;
import dev.lomicontrol.testing.Eventually;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * lomi_terminal_create's {@code command} (issue 39) through the broker's dispatcher with real bash
 * in real PTYs inside the real bubblewrap sandbox and a real SQLite ledger: one call starts the
 * terminal and answers the first command's exit code and output; it is one operation with one
 * receipt (a retry never runs the command twice); a refused command starts nothing.
 */
class TerminalCreateCommandTests {

    static final int WAIT = 20_000;

    @RegisterExtension
    final Agent agent = Agent.inProject("first");

    final BrokerCallsFixture broker = agent.broker();
    final Session session = agent.session();
    final AgentTerminals terminals = new AgentTerminals(agent);

    @Test
    void oneCallCreatesTheTerminalAndAnswersTheCommandsOutputAndExitCode() {
        assertThat(broker.terminals.sandbox().enabled())
                .as("shells run in bubblewrap")
                .isTrue();
        JsonNode created = broker.ok(session, "lomi_terminal_create", create("c-1", "echo made-$((6*7))", WAIT));

        assertThat(created.path("state").asString()).as("%s", created).isEqualTo("succeeded");
        JsonNode result = created.path("result");
        assertThat(result.path("kind").asString()).isEqualTo("terminal_created");
        assertThat(result.path("ready").asBoolean()).as("%s", created).isTrue();
        JsonNode run = result.path("run");
        assertThat(run.path("kind").asString()).isEqualTo("terminal_run");
        assertThat(run.path("completed").asBoolean()).isTrue();
        assertThat(run.path("exitCode").asInt()).isZero();
        assertThat(run.path("terminalSessionId").asString())
                .isEqualTo(result.path("terminalSessionId").asString());
        assertThat(run.path("output").path("text").asString())
                .contains("made-42")
                .doesNotContain("6*7");
        assertThat(run.path("output").path("nextCursor").asString())
                .isEqualTo(run.path("endCursor").asString());

        // the terminal is the caller's: its lease runs the next command, and the first is readable by the create's id
        CreatedTerminal terminal = new CreatedTerminal(result);
        JsonNode second = broker.ok(
                session,
                "lomi_terminal_run",
                terminals.op(terminal, "leaseId", terminal.lease, "command", "echo second-$((2+3))", "waitMs", WAIT));
        assertThat(second.path("state").asString()).as("%s", second).isEqualTo("succeeded");
        assertThat(second.path("result").path("output").path("text").asString()).contains("second-5");
        JsonNode first = terminals.commandOutput(terminal, created);
        assertThat(first.path("text").asString()).contains("made-42");
    }

    @Test
    void aFailingCommandStillCreatesTheTerminalAndTheRunShowsItsExitCode() {
        JsonNode created = broker.ok(session, "lomi_terminal_create", create("c-1", "echo no >&2; (exit 3)", WAIT));

        assertThat(created.path("state").asString()).as("%s", created).isEqualTo("succeeded");
        assertThat(created.path("effectState").asString()).isEqualTo("complete");
        assertThat(created.path("result").path("run").path("exitCode").asInt()).isEqualTo(3);
        assertThat(broker.terminals.all()).hasSize(1);
        assertThat(broker.terminals.all().get(0).isAlive()).isTrue();
    }

    @Test
    void theSameRequestKeyReplaysTheReceiptAndNeverRunsTheCommandTwice() throws Exception {
        String arguments = create("once", "echo ran >> once.txt", WAIT);
        JsonNode first = broker.ok(session, "lomi_terminal_create", arguments);
        String revision = broker.revision();
        JsonNode again = broker.ok(session, "lomi_terminal_create", arguments);

        assertThat(first.path("state").asString()).as("%s", first).isEqualTo("succeeded");
        assertThat(again.path("operationId").asString())
                .isEqualTo(first.path("operationId").asString());
        assertThat(again.path("state").asString()).isEqualTo("succeeded");
        assertThat(again.path("result").path("run").path("exitCode").asInt()).isZero();
        assertThat(Files.readAllLines(agent.project().root().resolve("once.txt")))
                .containsExactly("ran");
        assertThat(broker.terminals.all()).as("one terminal").hasSize(1);
        assertThat(broker.revision()).as("no second panel").isEqualTo(revision);
    }

    @Test
    void aRetryWhileTheCommandRunsAnswersTheSameOperation() throws Exception {
        String arguments = create("slow", "sleep 1; echo ran >> slow.txt", 1);
        JsonNode first = broker.ok(session, "lomi_terminal_create", arguments);
        assertThat(first.path("state").asString())
                .as("waitMs 1 answers the pending operation: %s", first)
                .isEqualTo("running");
        JsonNode retry = broker.ok(session, "lomi_terminal_create", arguments);
        assertThat(retry.path("operationId").asString())
                .isEqualTo(first.path("operationId").asString());

        JsonNode settled = broker.ok(
                session,
                "lomi_operation_get",
                json("operationId", first.path("operationId").asString(), "waitMs", WAIT));
        assertThat(settled.path("state").asString()).as("%s", settled).isEqualTo("succeeded");
        assertThat(settled.path("result").path("run").path("exitCode").asInt()).isZero();
        assertThat(settled.path("result").path("run").path("output").isObject())
                .as("%s", settled)
                .isTrue();
        assertThat(Files.readAllLines(agent.project().root().resolve("slow.txt")))
                .containsExactly("ran");
        assertThat(broker.terminals.all()).hasSize(1);
    }

    @Test
    void whileTheCommandRunsTheAnswerNamesTheTerminalAndTheCreatesIdInterruptsIt() {
        String arguments = create("long", "sleep 100", 1);
        JsonNode pending = broker.ok(session, "lomi_terminal_create", arguments);
        assertThat(pending.path("state").asString()).as("%s", pending).isEqualTo("running");
        String id = pending.path("operationId").asString();
        JsonNode made = awaitRunning(id);
        assertThat(made.path("run").isNull()).as("%s", made).isTrue();
        JsonNode retry = broker.call(session, "lomi_terminal_create", arguments);
        assertThat(retry.path("data").path("result").path("terminalSessionId").asString())
                .as("a retry answers the same running operation, naming its terminal: %s", retry)
                .isEqualTo(made.path("terminalSessionId").asString());
        assertThat(SchemaVerdicts.firstViolation(TerminalSpecs.CREATE.outputSchema(), retry))
                .as("%s", retry)
                .isEmpty();

        CreatedTerminal terminal = new CreatedTerminal(made);
        JsonNode interrupt = broker.ok(
                session,
                "lomi_terminal_interrupt",
                terminals.op(terminal, "leaseId", terminal.lease, "operationId", id));
        assertThat(interrupt.path("state").asString()).as("%s", interrupt).isEqualTo("succeeded");

        JsonNode settled = broker.ok(session, "lomi_operation_get", json("operationId", id, "waitMs", WAIT));
        assertThat(settled.path("state").asString())
                .as("the terminal was made; the run tells how the command ended: %s", settled)
                .isEqualTo("succeeded");
        assertThat(settled.path("result").path("run").path("exitCode").asInt()).isEqualTo(130);
    }

    @Test
    void cancellingTheCreateSendsOneCtrlCToItsCommand() {
        JsonNode pending = broker.ok(session, "lomi_terminal_create", create("cancel", "sleep 100", 1));
        String id = pending.path("operationId").asString();
        awaitRunning(id);

        JsonNode cancel = broker.ok(session, "lomi_operation_cancel", json("operationId", id));
        assertThat(cancel.path("stopDelivered").asBoolean()).as("%s", cancel).isTrue();

        JsonNode settled = broker.settled(session, id, Duration.ofMillis(WAIT));
        assertThat(settled.path("state").asString()).as("%s", settled).isEqualTo("cancelled");
        assertThat(settled.path("effectState").asString()).isEqualTo("partial");
        assertThat(settled.path("result").path("run").path("exitCode").asInt()).isEqualTo(130);
    }

    @Test
    void aRefusedCommandStartsNothingAndLeavesNoReceipt() {
        String revision = broker.revision();
        List<String> refused = List.of(
                "echo \u0007bell",
                "echo a\nb",
                "x".repeat(16385),
                "é".repeat(9000), // 9,000 characters, 18,000 bytes of UTF-8: over 16 KiB
                " ");
        int n = 0;
        for (String command : refused) {
            String key = "bad-" + n++;
            assertThat(broker.refused(session, "lomi_terminal_create", create(key, command, WAIT)))
                    .as("%.40s", command)
                    .isEqualTo(ErrorCode.INVALID_ARGUMENT);
            assertThat(broker.ledger.getByKey(
                            session.id(),
                            agent.epoch(),
                            new ToolName("lomi_terminal_create"),
                            new RequestKey(key),
                            Optional.of(agent.project().id())))
                    .as("no receipt for %.40s", command)
                    .isEmpty();
        }
        assertThat(broker.terminals.all()).as("no terminal started").isEmpty();
        assertThat(broker.revision()).as("no panel added").isEqualTo(revision);
        assertThat("é".repeat(9000).getBytes(StandardCharsets.UTF_8)).hasSizeGreaterThan(16384);
    }

    @Test
    void withoutACommandTheCreateIsAsBefore() {
        JsonNode created = broker.ok(session, "lomi_terminal_create", create("plain", null, 0));

        assertThat(created.path("state").asString()).as("%s", created).isEqualTo("succeeded");
        assertThat(created.path("result").path("run").isNull())
                .as("%s", created)
                .isTrue();
        assertThat(broker.terminals.all()).hasSize(1);
        assertThat(broker.terminals.all().get(0).latest()).as("nothing ran").isEmpty();
    }

    /** The result of the running create once its command runs (the shell reports it started). */
    private JsonNode awaitRunning(String operationId) {
        return Eventually.await(
                "the create's command runs",
                Duration.ofMillis(WAIT),
                () -> broker.ok(session, "lomi_operation_get", json("operationId", operationId))
                        .path("result"),
                made -> made.path("kind").asString("").equals("terminal_created")
                        && broker.ok(session, "lomi_terminal_read", new CreatedTerminal(made).read())
                                .path("prompt")
                                .asString()
                                .equals("running"));
    }

    private String create(String key, String command, int waitMs) {
        ObjectNode node = (ObjectNode) BrokerCallsFixture.JSON.readTree(json(
                "workspaceId",
                agent.workspace(),
                "expectedRevision",
                broker.revision(),
                "retryEpoch",
                agent.epoch().value(),
                "requestKey",
                key));
        if (command != null) {
            node.put("command", command);
        }
        if (waitMs > 0) {
            node.put("waitMs", waitMs);
        }
        return node.toString();
    }
}
