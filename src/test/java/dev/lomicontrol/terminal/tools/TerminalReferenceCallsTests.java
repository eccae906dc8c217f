package dev.lomicontrol.terminal.tools;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.testing.Agent;
import java.nio.file.Files;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The reference's calls of the terminal tools (catalog.md §4.6, §7) through the broker with real
 * shells: each is accepted with the reference's meaning, and what it refuses stays refused (the
 * forms that need no shell, and the helper's binding, are {@link TerminalReferenceFormsTests}).
 */
class TerminalReferenceCallsTests {

    static final Duration SETTLE = Duration.ofSeconds(20);

    @RegisterExtension
    final Agent agent = Agent.inProject("ref");

    final BrokerCallsFixture broker = agent.broker();
    final Session session = agent.session();
    final String ws = agent.workspace();
    final AgentTerminals terminals = new AgentTerminals(agent);

    @Test
    void theSeed000CreateWithAnEmptyCwdStartsTheShellAtTheProjectRoot() throws Exception {
        JsonNode op = broker.ok(
                session, "lomi_terminal_create", create("seed-000-create", "cwdRelative", "", "title", "Agent shell"));

        assertThat(op.path("state").asString()).as("%s", op).isEqualTo("succeeded");
        JsonNode result = op.path("result");
        assertThat(result.path("kind").asString()).isEqualTo("terminal_created");
        JsonNode run = pwdIn(new CreatedTerminal(result));
        assertThat(run.path("state").asString()).isEqualTo("succeeded");
        assertThat(lastPanelTitle()).isEqualTo("Agent shell");
    }

    @Test
    void aNullProfileIsTheDefaultProfileAndAbsentTitleAndCwdAreTheProfileNameAndTheRoot() throws Exception {
        JsonNode op = broker.ok(
                session,
                "lomi_terminal_create",
                create("null-profile", "cwdRelative", "", "profileId", null, "title", "Nulls"));
        assertThat(op.path("state").asString()).as("%s", op).isEqualTo("succeeded");
        assertThat(op.path("result").path("profileId").asString())
                .isEqualTo(broker.settings.terminal().defaultProfile());

        JsonNode bare = broker.ok(session, "lomi_terminal_create", create("bare"));
        assertThat(bare.path("state").asString()).as("%s", bare).isEqualTo("succeeded");
        pwdIn(new CreatedTerminal(bare.path("result")));
        assertThat(lastPanelTitle()).isEqualTo(broker.settings.terminal().defaultProfile());
    }

    @Test
    void aSubdirectoryWithATrailingSlashAndDotAreAccepted() throws Exception {
        Files.createDirectories(agent.project().root().resolve("sub"));
        for (String cwd : new String[] {"sub/", ".", "./sub"}) {
            JsonNode op = broker.ok(session, "lomi_terminal_create", inCwd(cwd, agent.key("cwd")));
            assertThat(op.path("state").asString()).as("%s -> %s", cwd, op).isEqualTo("succeeded");
        }
    }

    @Test
    void whatTheReferenceRefusesStaysRefused() throws Exception {
        for (String cwd : new String[] {"/tmp", "../x", "sub/../..", "a//b"}) {
            assertThat(broker.refused(session, "lomi_terminal_create", inCwd(cwd, agent.key("bad"))))
                    .as(cwd)
                    .isIn(ErrorCode.INVALID_ARGUMENT, ErrorCode.SCOPE_DENIED, ErrorCode.TARGET_NOT_FOUND);
        }
        ObjectNode unknown = (ObjectNode) BrokerCallsFixture.JSON.readTree(inCwd("", "unknown"));
        unknown.put("shell", "fish");
        JsonNode envelope = broker.call(session, "lomi_terminal_create", unknown.toString());
        assertThat(envelope.path("code").asString()).isEqualTo("INVALID_ARGUMENT");
        assertThat(envelope.path("message").asString()).contains("shell");
        assertThat(broker.refused(
                        session, "lomi_terminal_create", create("fish", "cwdRelative", "", "profileId", "fish")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(broker.refused(
                        session,
                        "lomi_terminal_create",
                        json(
                                "workspaceId",
                                ws,
                                "cwdRelative",
                                "",
                                "retryEpoch",
                                agent.epoch().value(),
                                "requestKey",
                                "no-revision")))
                .as("expectedRevision stays required")
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(broker.terminals.all()).isEmpty();
    }

    @Test
    void minimumParsedSequenceIsHonouredOnTheScreenAndRefusedElsewhere() {
        CreatedTerminal terminal = created();
        broker.ok(session, "lomi_terminal_input", terminal.input(1, "text", "echo SCREEN-$((40+2))\r"));
        String stream =
                awaitOutput(terminal, "SCREEN-42").path("streamSequence").asString();

        JsonNode screen = broker.ok(
                session,
                "lomi_terminal_read",
                terminal.read("mode", "screen", "minimumParsedSequence", stream, "cursor", null, "operationId", null));
        assertThat(screen.path("kind").asString()).isEqualTo("terminal_screen");
        assertThat(Long.parseLong(screen.path("parsedSequence").asString()))
                .isGreaterThanOrEqualTo(Long.parseLong(stream));
        assertThat(Long.parseLong(screen.path("streamSequence").asString()))
                .isGreaterThanOrEqualTo(
                        Long.parseLong(screen.path("parsedSequence").asString()));
        assertThat(screen.path("parserPending").isBoolean()).isTrue();
        assertThat(screen.path("text").asString()).contains("SCREEN-42");

        JsonNode nullMinimum = broker.ok(
                session, "lomi_terminal_read", terminal.read("mode", "screen", "minimumParsedSequence", null));
        assertThat(nullMinimum.path("kind").asString()).isEqualTo("terminal_screen");
        long beyond = Long.parseLong(stream) + 1_000_000;
        assertThat(broker.refused(
                        session,
                        "lomi_terminal_read",
                        terminal.read("mode", "screen", "minimumParsedSequence", Long.toString(beyond))))
                .as("more than the terminal produced")
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(broker.refused(
                        session,
                        "lomi_terminal_read",
                        terminal.read("mode", "output", "minimumParsedSequence", stream)))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void theScreenKeepsItsTextWithinMaxBytesAndSaysWhenRowsWereLeftOut() {
        CreatedTerminal terminal = created();
        JsonNode whole = broker.ok(session, "lomi_terminal_read", terminal.read("mode", "screen"));
        assertThat(whole.path("truncated").asBoolean()).isFalse();
        assertThat(whole.path("lines").size()).isEqualTo(whole.path("rows").asInt());

        int firstRow = whole.path("lines").get(0).asString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        assertThat(firstRow).as("a fresh shell's prompt is on the top row").isPositive();
        JsonNode cut = broker.ok(session, "lomi_terminal_read", terminal.read("mode", "screen", "maxBytes", firstRow));
        assertThat(cut.path("truncated").asBoolean()).isTrue();
        assertThat(cut.path("lines").size()).isEqualTo(1);
        assertThat(cut.path("text").asString())
                .isEqualTo(whole.path("lines").get(0).asString());
    }

    @Test
    void nullForEveryOptionalReadFieldMeansAbsent() {
        CreatedTerminal terminal = created();
        JsonNode output = broker.ok(
                session,
                "lomi_terminal_read",
                terminal.read(
                        "mode",
                        null,
                        "cursor",
                        null,
                        "maxBytes",
                        null,
                        "operationId",
                        null,
                        "minimumParsedSequence",
                        null));
        assertThat(output.path("kind").asString()).isEqualTo("terminal_output");
        assertThat(output.path("mode").asString()).isEqualTo("output");
        assertThat(output.path("data").isNull()).isTrue();
        assertThat(output.path("command").isNull()).isTrue();
        JsonNode raw = broker.ok(session, "lomi_terminal_read", terminal.read("mode", "raw", "cursor", null));
        assertThat(raw.path("text").isNull()).isTrue();
        assertThat(raw.path("data").isString()).isTrue();
    }

    @Test
    void panelControlWithFieldsOfBothFormsIsRefused() {
        CreatedTerminal terminal = created();
        String both = terminals.layoutOp(terminal.read("deviceId", "pixel-8", "generation", "3", "action", "claim"));
        assertThat(broker.refused(session, "lomi_panel_control", both)).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        String release = terminals.op(terminal, "action", "release");
        JsonNode released = broker.ok(session, "lomi_panel_control", release);
        assertThat(released.path("state").asString()).isEqualTo("succeeded");
        assertThat(released.path("result").path("kind").asString()).isEqualTo("panel_control");
        assertThat(released.path("result").path("controlled").asBoolean()).isFalse();
        assertThat(released.path("result").path("leaseId").isNull()).isTrue();
    }

    // --- helpers

    /** lomi_terminal_create's arguments in the workspace: {@code pairs} at the current revision, with {@code key}. */
    private String create(String key, Object... pairs) {
        Object[] all = new Object[pairs.length + 8];
        all[0] = "workspaceId";
        all[1] = ws;
        System.arraycopy(pairs, 0, all, 2, pairs.length);
        Object[] tail = {
            "expectedRevision", broker.revision(), "retryEpoch", agent.epoch().value(), "requestKey", key
        };
        System.arraycopy(tail, 0, all, pairs.length + 2, tail.length);
        return json(all);
    }

    /** lomi_terminal_create's arguments starting in {@code cwd}, titled "t". */
    private String inCwd(String cwd, String key) {
        return create(key, "cwdRelative", cwd, "title", "t");
    }

    private CreatedTerminal created() {
        JsonNode op = broker.ok(session, "lomi_terminal_create", inCwd("", agent.key("created")));
        assertThat(op.path("state").asString()).as("%s", op).isEqualTo("succeeded");
        CreatedTerminal terminal = new CreatedTerminal(op.path("result"));
        terminals.awaitPrompt(terminal, "ready");
        return terminal;
    }

    /** Once its prompt is ready, runs pwd in {@code terminal}, checks it printed the project root, and answers the run. */
    private JsonNode pwdIn(CreatedTerminal terminal) throws Exception {
        terminals.awaitPrompt(terminal, "ready");
        JsonNode run = terminals.run(terminal, "pwd");
        String printed = terminals.commandOutput(terminal, run).path("text").asString();
        assertThat(printed.lines().map(String::strip))
                .contains(agent.project().root().toRealPath().toString());
        return run;
    }

    /** The title of the workspace's last panel. */
    private String lastPanelTitle() {
        return AgentTerminals.lastPanel(broker.ok(session, "lomi_panel_list", json("workspaceId", ws)))
                .path("title")
                .asString();
    }

    /** The first output read (from the start) whose text contains {@code needle}. */
    private JsonNode awaitOutput(CreatedTerminal terminal, String needle) {
        return org.awaitility.Awaitility.await("output " + needle)
                .atMost(SETTLE)
                .pollInterval(java.time.Duration.ofMillis(20))
                .until(
                        () -> broker.ok(session, "lomi_terminal_read", terminal.read("cursor", "0", "maxBytes", 65536)),
                        page -> page.path("text").asString().contains(needle));
    }
}
