package dev.lomicontrol.terminal.tools;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.testing.Agent;
import dev.lomicontrol.testing.Eventually;
import dev.lomicontrol.testing.Machine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Terminal tools end to end through the broker's dispatcher with real bash in real PTYs and a real
 * SQLite ledger: runs settle from the exit code the shell reports, cancel and interrupt send Ctrl+C,
 * input is ordered by sequence, leases die on takeover, revocation and restart, and the terminal
 * hosting the caller is protected.
 */
class TerminalToolsTests {

    @RegisterExtension
    final Agent agent = Agent.inProject("term");

    final BrokerCallsFixture broker = agent.broker();
    final Session session = agent.session();
    final AgentTerminals terminals = new AgentTerminals(agent);

    @Test
    void echoSucceedsAndItsOutputIsReadableInCommandMode() {
        CreatedTerminal terminal = terminals.create();
        JsonNode run = terminals.run(terminal, "echo hello-from-lomi");

        assertThat(run.path("state").asString()).isEqualTo("succeeded");
        assertThat(run.path("effectState").asString()).isEqualTo("complete");
        assertThat(run.path("result").path("exitCode").asInt()).isZero();
        JsonNode output = terminals.commandOutput(terminal, run);
        assertThat(output.path("text").asString()).contains("hello-from-lomi");
        assertThat(output.path("command").path("completed").asBoolean()).isTrue();
    }

    @Test
    void theScrollbackSettingSizesTheOutputRingsOfNewTerminals() {
        CreatedTerminal before = terminals.create();
        String revision = broker.settings.read("terminal").settingsRevision();
        broker.settings.apply(broker.settings.plan(
                "terminal", BrokerCallsFixture.JSON.readTree("{\"scrollbackBytes\":65536}"), revision));
        CreatedTerminal after = terminals.create();

        for (CreatedTerminal terminal : List.of(before, after)) {
            assertThat(terminals
                            .run(terminal, "head -c 300000 /dev/zero | tr '\\0' x; echo")
                            .path("state")
                            .asString())
                    .isEqualTo("succeeded");
        }
        long keptBefore = Long.parseLong(broker.ok(session, "lomi_terminal_read", before.read("cursor", "0"))
                .path("availableFrom")
                .asString());
        long keptAfter = Long.parseLong(broker.ok(session, "lomi_terminal_read", after.read("cursor", "0"))
                .path("availableFrom")
                .asString());
        assertThat(keptBefore).as("512 KiB rings keep all 300 kB").isZero();
        assertThat(keptAfter).as("64 KiB rings dropped the oldest output").isGreaterThan(200_000);
    }

    @Test
    void aNonZeroExitFailsTheOperationWithTheCodeRecorded() {
        CreatedTerminal terminal = terminals.create();
        JsonNode run = terminals.run(terminal, "(exit 7)");

        assertThat(run.path("effectState").asString()).isEqualTo("complete");
        assertEnded(run, "failed", 7);
    }

    @Test
    void cancellingASleepSendsCtrlCAndSettlesCancelled() {
        CreatedTerminal terminal = terminals.create();
        JsonNode started = terminals.startRunning(terminal, "sleep 100");
        assertThat(started.path("state").asString()).isEqualTo("running");

        JsonNode cancel = broker.ok(
                session,
                "lomi_operation_cancel",
                json("operationId", started.path("operationId").asString()));
        assertThat(cancel.path("state").asString()).isEqualTo("cancelling");
        assertThat(cancel.path("stopDelivered").asBoolean()).isTrue();

        assertSettled(started, "cancelled", 130);
    }

    @Test
    void interruptReportsTheDispatchAndTheRunEndsWithExit130() {
        CreatedTerminal terminal = terminals.create();
        JsonNode started = terminals.startRunning(terminal, "sleep 100");

        Object[] ofTheRun = {
            "leaseId",
            terminal.lease,
            "operationId",
            started.path("operationId").asString()
        };
        JsonNode interrupt = broker.ok(session, "lomi_terminal_interrupt", terminals.op(terminal, ofTheRun));
        assertThat(interrupt.path("state").asString()).isEqualTo("succeeded");
        assertThat(interrupt.path("result").path("dispatched").asBoolean()).isTrue();

        assertSettled(started, "failed", 130);
        assertThat(broker.refused(session, "lomi_terminal_interrupt", terminals.op(terminal, ofTheRun)))
                .isEqualTo(ErrorCode.TARGET_BUSY);
    }

    @Test
    void inputIsOrderedBySequenceAndARepeatConfirmsInsteadOfResending() {
        CreatedTerminal terminal = terminals.create();
        JsonNode first = broker.ok(session, "lomi_terminal_input", terminal.input(1, "text", "echo typed"));
        assertThat(first.path("state").asString()).isEqualTo("dispatched");
        assertThat(first.path("nextInputSequence").asString()).isEqualTo("2");

        JsonNode repeat = broker.ok(session, "lomi_terminal_input", terminal.input(1, "text", "echo typed"));
        assertThat(repeat.path("repeated").asBoolean()).isTrue();
        assertThat(broker.refused(session, "lomi_terminal_input", terminal.input(1, "text", "echo other")))
                .isEqualTo(ErrorCode.IDEMPOTENCY_CONFLICT);
        assertThat(broker.refused(session, "lomi_terminal_input", terminal.input(3, "key", "enter")))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        broker.ok(session, "lomi_terminal_input", terminal.input(2, "key", "enter"));

        terminals.awaitText(terminal, "typed\r\n");
        String text = terminals.readAll(terminal);
        assertThat(text.split("echo typed", -1)).hasSize(2);
    }

    @Test
    void aClaimApprovedByTheAdminTakesTheLeaseFromItsHolder() {
        CreatedTerminal terminal = terminals.create();
        Session other = broker.session();
        RetryEpochId otherEpoch = broker.connect(other, agent.project());

        JsonNode claim = broker.ok(
                other, "lomi_panel_control", terminals.withOp(terminal.read("action", "claim"), null, otherEpoch));
        assertThat(claim.path("state").asString()).isEqualTo("awaiting_user");
        broker.decisions.decide(new OperationId(claim.path("operationId").asString()), true);
        JsonNode claimed = broker.ok(
                other,
                "lomi_operation_get",
                json("operationId", claim.path("operationId").asString()));
        assertThat(claimed.path("state").asString()).isEqualTo("succeeded");
        String otherLease = claimed.path("result").path("leaseId").asString();
        assertThat(otherLease).hasSize(32).isNotEqualTo(terminal.lease);

        assertThat(broker.refused(session, "lomi_terminal_input", terminal.input(1, "text", "x")))
                .isEqualTo(ErrorCode.CONTROL_REVOKED);
        JsonNode panel =
                AgentTerminals.lastPanel(broker.ok(other, "lomi_panel_list", json("workspaceId", terminal.workspace)));
        assertThat(panel.path("inputControlled").asBoolean()).isTrue();
        assertThat(panel.path("ownership").asString()).isEqualTo("other_session");
    }

    @Test
    void revokingTheSessionKillsItsLeaseAndARunningCommandBecomesOutcomeUnknown() {
        CreatedTerminal terminal = terminals.create();
        JsonNode started = terminals.startRunning(terminal, "sleep 100");

        broker.sessions.revoke(session.id(), "test revocation");
        broker.calls.sessionEnded(session);

        Session admin = broker.session();
        Eventually.await(
                "the running command becomes outcome_unknown",
                AgentTerminals.SETTLE,
                () -> broker.ledger
                        .get(
                                session.id(),
                                new OperationId(started.path("operationId").asString()))
                        .orElseThrow()
                        .state()
                        .wire(),
                "outcome_unknown"::equals);
        JsonNode list = broker.ok(admin, "lomi_panel_list", json("workspaceId", terminal.workspace));
        assertThat(AgentTerminals.lastPanel(list).path("inputControlled").asBoolean())
                .isFalse();
    }

    @Test
    void aRunningTerminalCannotBeClosedAndAnIdleOneCan() {
        CreatedTerminal terminal = terminals.create();
        JsonNode started = terminals.startRunning(terminal, "sleep 100");
        assertThat(broker.refused(session, "lomi_panel_close", terminals.layoutOp(terminal)))
                .isEqualTo(ErrorCode.TARGET_BUSY);
        assertThat(broker.refused(
                        session,
                        "lomi_workspace_update",
                        terminals.withOp(
                                json("workspaceId", terminal.workspace, "action", "close"),
                                broker.revision(),
                                agent.epoch())))
                .isIn(ErrorCode.TARGET_BUSY, ErrorCode.INVALID_ARGUMENT);

        broker.ok(
                session,
                "lomi_operation_cancel",
                json("operationId", started.path("operationId").asString()));
        terminals.settled(started);
        terminals.awaitPrompt(terminal, "ready");
        assertThat(broker.ok(session, "lomi_panel_close", terminals.layoutOp(terminal))
                        .path("state")
                        .asString())
                .isEqualTo("succeeded");
        Eventually.until(
                "the closed panel's shell ended",
                AgentTerminals.SETTLE,
                () -> broker.terminals
                        .find(terminal.id)
                        .filter(t -> t.isAlive())
                        .isEmpty());
    }

    @Test
    void aFullScreenProgramIsReadableInScreenMode() throws Exception {
        Machine.requireProgram("/usr/bin/less", "less");
        Path file = agent.project().root().resolve("lines.txt");
        StringBuilder lines = new StringBuilder();
        for (int i = 1; i <= 200; i++) {
            lines.append("screen line ").append(i).append('\n');
        }
        Files.writeString(file, lines);
        CreatedTerminal terminal = terminals.create();
        JsonNode started = terminals.start(terminal, "less lines.txt");

        JsonNode screen = Eventually.await(
                "less shows the file in the alternate buffer",
                AgentTerminals.SETTLE,
                () -> broker.ok(session, "lomi_terminal_read", terminal.read("mode", "screen")),
                read -> read.path("buffer").asString().equals("alternate")
                        && read.path("text").asString().contains("screen line 20"));
        assertThat(screen.path("kind").asString()).isEqualTo("terminal_screen");
        assertThat(screen.path("buffer").asString()).isEqualTo("alternate");
        assertThat(screen.path("lines").get(0).asString()).isEqualTo("screen line 1");
        assertThat(screen.path("rows").asInt()).isEqualTo(32);

        broker.ok(session, "lomi_terminal_input", terminal.input(1, "text", "q"));
        JsonNode settled = terminals.settled(started);
        assertThat(settled.path("state").asString()).isEqualTo("succeeded");
        assertThat(broker.ok(session, "lomi_terminal_read", terminal.read("mode", "screen"))
                        .path("buffer")
                        .asString())
                .isEqualTo("normal");
    }

    @Test
    void theTerminalHostingTheCallingAgentIsProtected() throws Exception {
        CreatedTerminal terminal = terminals.create();
        broker.ok(session, "lomi_terminal_input", terminal.input(1, "text", "sleep 300 & echo CHILD=$!\r"));
        java.util.regex.Pattern childPid = java.util.regex.Pattern.compile("CHILD=([0-9]+)");
        Eventually.await(
                "the shell printed the background pid",
                AgentTerminals.SETTLE,
                () -> terminals.readAll(terminal),
                text -> childPid.matcher(text).find());
        // inside the sandbox's pid namespace $! is not the host pid: take the sleep among the terminal's descendants
        // (the fork may not have exec'd sleep yet when $! is printed: wait for it)
        long shell = broker.terminals.find(terminal.id).orElseThrow().shellPid();
        long child = org.awaitility.Awaitility.await()
                .atMost(AgentTerminals.SETTLE)
                .until(
                        () -> ProcessHandle.of(shell)
                                .orElseThrow()
                                .descendants()
                                .filter(p -> p.info().command().orElse("").endsWith("/sleep"))
                                .findFirst(),
                        java.util.Optional::isPresent)
                .orElseThrow()
                .pid();

        Session hosted = broker.session(Grant.full(), child);
        RetryEpochId hostedEpoch = broker.connect(hosted, agent.project());
        assertThat(broker.refused(
                        hosted,
                        "lomi_panel_control",
                        terminals.withOp(terminal.read("action", "claim"), null, hostedEpoch)))
                .isEqualTo(ErrorCode.SCOPE_DENIED);
        // even holding a valid lease (here: the creator's), the hosted agent cannot type into or run in its own
        // terminal
        assertThat(broker.refused(hosted, "lomi_terminal_input", terminal.input(2, "text", "echo no")))
                .isEqualTo(ErrorCode.SCOPE_DENIED);
        String run =
                terminals.withOp(terminal.read("leaseId", terminal.lease, "command", "echo no"), null, hostedEpoch);
        assertThat(broker.refused(hosted, "lomi_terminal_run", run)).isEqualTo(ErrorCode.SCOPE_DENIED);
        assertThat(broker.ok(session, "lomi_terminal_input", terminal.input(2, "text", "kill %1\r"))
                        .path("state")
                        .asString())
                .isEqualTo("dispatched");
    }

    @Test
    void aRestartLeavesTheProjectAndMarksItsTerminalExited(@TempDir Path temp) {
        CreatedTerminal terminal;
        try (Agent first = Agent.on(new BrokerCallsFixture(temp), "term")) {
            terminal = new AgentTerminals(first).create();
        }
        try (BrokerCallsFixture restarted = new BrokerCallsFixture(temp)) {
            Session later = restarted.session();

            JsonNode panel = AgentTerminals.lastPanel(
                    restarted.ok(later, "lomi_panel_list", json("workspaceId", terminal.workspace)));
            assertThat(panel.path("terminalSessionId").asString()).isEqualTo(terminal.id);
            assertThat(panel.path("runtimeState").asString()).isEqualTo("exited");
            assertThat(restarted.refused(later, "lomi_terminal_read", terminal.read()))
                    .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        }
    }

    @Test
    void aCwdOutsideTheProjectIsRefused() throws Exception {
        Files.createDirectories(agent.project().root().resolve("sub"));
        Files.createSymbolicLink(agent.project().root().resolve("escape"), broker.temp);
        for (String cwd : new String[] {"../", "/tmp", "escape", "sub/../.."}) {
            ErrorCode code = broker.refused(
                    session,
                    "lomi_terminal_create",
                    terminals.layoutOp(json("workspaceId", agent.workspace(), "cwdRelative", cwd)));
            assertThat(code).as(cwd).isIn(ErrorCode.INVALID_ARGUMENT, ErrorCode.SCOPE_DENIED);
        }
        JsonNode inSub = broker.ok(
                session,
                "lomi_terminal_create",
                terminals.layoutOp(json("workspaceId", agent.workspace(), "cwdRelative", "sub")));
        assertThat(inSub.path("state").asString()).isEqualTo("succeeded");
    }

    /** The run {@code started} settles {@code state} with {@code exitCode}. */
    private void assertSettled(JsonNode started, String state, int exitCode) {
        assertEnded(terminals.settled(started), state, exitCode);
    }

    private static void assertEnded(JsonNode settled, String state, int exitCode) {
        assertThat(settled.path("state").asString()).isEqualTo(state);
        assertThat(settled.path("result").path("exitCode").asInt()).isEqualTo(exitCode);
    }
}
