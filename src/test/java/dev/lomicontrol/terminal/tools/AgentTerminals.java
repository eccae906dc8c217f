package dev.lomicontrol.terminal.tools;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.testing.Agent;
import dev.lomicontrol.testing.Eventually;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One agent's terminals through the broker's dispatcher: creating one (and waiting for its first
 * ready prompt), running a command to its settlement, waiting for a prompt state or for text, reading
 * all output, and the arguments of durable calls with a retry epoch and the agent's fresh request keys.
 */
final class AgentTerminals {

    static final Duration SETTLE = Duration.ofSeconds(20);

    private final Agent agent;

    AgentTerminals(Agent agent) {
        this.agent = agent;
    }

    /** A new terminal in the agent's workspace, its prompt ready. */
    CreatedTerminal create() {
        String arguments = json(
                "workspaceId",
                agent.workspace(),
                "expectedRevision",
                agent.broker().revision(),
                "retryEpoch",
                agent.epoch().value(),
                "requestKey",
                agent.key("create"));
        JsonNode op = agent.broker().ok(agent.session(), "lomi_terminal_create", arguments);
        assertThat(op.path("state").asString()).as("%s", op).isEqualTo("succeeded");
        CreatedTerminal created = new CreatedTerminal(op.path("result"));
        awaitPrompt(created, "ready");
        return created;
    }

    /** A durable call's arguments: {@code terminal}, {@code pairs}, the agent's epoch and a fresh key. */
    String op(CreatedTerminal terminal, Object... pairs) {
        return withOp(terminal.read(pairs), null, agent.epoch());
    }

    /** A layout operation's arguments naming {@code terminal}'s panel, at the layout's current revision. */
    String layoutOp(CreatedTerminal terminal) {
        return layoutOp(
                json("workspaceId", terminal.workspace, "panelId", terminal.panel, "terminalSessionId", terminal.id));
    }

    /** {@code arguments} as a layout operation at the layout's current revision, with the agent's epoch. */
    String layoutOp(String arguments) {
        return withOp(arguments, agent.broker().revision(), agent.epoch());
    }

    /** {@code arguments} with {@code epoch}, a fresh key and, unless null, {@code expectedRevision}. */
    String withOp(String arguments, @Nullable String revision, RetryEpochId epoch) {
        ObjectNode node = (ObjectNode) BrokerCallsFixture.JSON.readTree(arguments);
        if (revision != null) {
            node.put("expectedRevision", revision);
        }
        node.put("retryEpoch", epoch.value());
        node.put("requestKey", agent.key("k"));
        return node.toString();
    }

    /** Starts {@code command} (lomi_terminal_run with the terminal's lease) and answers the call. */
    JsonNode start(CreatedTerminal terminal, String command) {
        return agent.broker()
                .ok(agent.session(), "lomi_terminal_run", op(terminal, "leaseId", terminal.lease, "command", command));
    }

    /** Starts {@code command} and waits until the shell says it runs; answers the run call. */
    JsonNode startRunning(CreatedTerminal terminal, String command) {
        JsonNode started = start(terminal, command);
        awaitStarted(terminal);
        return started;
    }

    /** Runs {@code command} and answers its settled operation. */
    JsonNode run(CreatedTerminal terminal, String command) {
        return settled(start(terminal, command));
    }

    /** lomi_terminal_read in command mode: the output of the run {@code run} answered. */
    JsonNode commandOutput(CreatedTerminal terminal, JsonNode run) {
        return agent.broker()
                .ok(
                        agent.session(),
                        "lomi_terminal_read",
                        terminal.read(
                                "mode",
                                "command",
                                "operationId",
                                run.path("operationId").asString()));
    }

    /** The operation a call {@code started}, once settled. */
    JsonNode settled(JsonNode started) {
        return agent.broker()
                .settled(agent.session(), started.path("operationId").asString(), SETTLE);
    }

    /** The last panel of a lomi_panel_list answer (the newest). */
    static JsonNode lastPanel(JsonNode list) {
        return list.path("panels").get(list.path("panels").size() - 1);
    }

    void awaitPrompt(CreatedTerminal terminal, String prompt) {
        Eventually.await(
                "the prompt becomes " + prompt,
                SETTLE,
                () -> agent.broker()
                        .ok(agent.session(), "lomi_terminal_read", terminal.read())
                        .path("prompt")
                        .asString(),
                prompt::equals);
    }

    /** Waits until the shell says a command runs. */
    void awaitStarted(CreatedTerminal terminal) {
        awaitPrompt(terminal, "running");
    }

    String awaitText(CreatedTerminal terminal, String needle) {
        return Eventually.await(
                "the terminal prints " + needle, SETTLE, () -> readAll(terminal), text -> text.contains(needle));
    }

    /** All the output the terminal still holds, page by page from cursor 0. */
    String readAll(CreatedTerminal terminal) {
        StringBuilder text = new StringBuilder();
        String cursor = "0";
        while (true) {
            JsonNode page = agent.broker()
                    .ok(agent.session(), "lomi_terminal_read", terminal.read("cursor", cursor, "maxBytes", 65536));
            text.append(page.path("text").asString());
            if (page.path("end").asBoolean()
                    || page.path("nextCursor").asString().equals(cursor)) {
                return text.toString();
            }
            cursor = page.path("nextCursor").asString();
        }
    }
}
