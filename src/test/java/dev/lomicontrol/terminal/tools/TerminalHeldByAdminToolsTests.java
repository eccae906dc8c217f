package dev.lomicontrol.terminal.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.terminal.HumanHold;
import dev.lomicontrol.testing.Agent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * The terminal tools while the admin holds a terminal's input (console {@code terminal attach}):
 * run, interrupt and input are refused with TARGET_BUSY before the ledger admits them — no receipt
 * under their request keys — and the agent's same lease and input sequence work once the hold ends.
 */
class TerminalHeldByAdminToolsTests {

    @RegisterExtension
    final Agent agent = Agent.inProject("held");

    final BrokerCallsFixture broker = agent.broker();
    final Session session = agent.session();
    final AgentTerminals terminals = new AgentTerminals(agent);

    @Test
    void runInterruptAndInputAreRefusedAsBusyWithoutAReceiptAndWorkAgainAfterTheHold() {
        CreatedTerminal terminal = terminals.create();
        JsonNode sleeping = terminals.startRunning(terminal, "sleep 100");
        Object[] ofTheRun = {
            "leaseId",
            terminal.lease,
            "operationId",
            sleeping.path("operationId").asString()
        };
        HumanHold hold = broker.terminals.find(terminal.id).orElseThrow().holdForHuman("admin console connection 1");

        String run = terminals.op(terminal, "leaseId", terminal.lease, "command", "echo agent");
        String interrupt = terminals.op(terminal, ofTheRun);
        assertBusy("lomi_terminal_run", run);
        assertBusy("lomi_terminal_interrupt", interrupt);
        assertBusy("lomi_terminal_input", terminal.input(1, "text", "x"));
        assertNoReceipt("lomi_terminal_run", run);
        assertNoReceipt("lomi_terminal_interrupt", interrupt);

        hold.close();
        JsonNode interrupted = broker.ok(session, "lomi_terminal_interrupt", interrupt);
        assertThat(interrupted.path("state").asString()).isEqualTo("succeeded");
        terminals.awaitPrompt(terminal, "ready");
        JsonNode typed = broker.ok(session, "lomi_terminal_input", terminal.input(1, "text", "echo back\r"));
        assertThat(typed.path("state").asString())
                .as("the same lease, and sequence 1: the refused input used no number")
                .isEqualTo("dispatched");
    }

    private void assertBusy(String tool, String arguments) {
        JsonNode envelope = broker.call(session, tool, arguments);
        assertThat(envelope.path("code").asString()).as(tool + ": " + envelope).isEqualTo("TARGET_BUSY");
        assertThat(envelope.path("message").asString()).isEqualTo(HumanHold.REFUSAL);
    }

    private void assertNoReceipt(String tool, String arguments) {
        JsonNode call = BrokerCallsFixture.JSON.readTree(arguments);
        assertThat(broker.refused(
                        session,
                        "lomi_operation_get",
                        BrokerCallsFixture.json(
                                "retryEpoch",
                                call.path("retryEpoch").asString(),
                                "requestKey",
                                call.path("requestKey").asString(),
                                "tool",
                                tool)))
                .as("no receipt for the refused " + tool)
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
    }
}
