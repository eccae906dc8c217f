package dev.lomicontrol.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lomicontrol.catalog.ToolCatalog;
import dev.lomicontrol.chat.ChatAi;
import dev.lomicontrol.chat.FakeModelProvider;
import dev.lomicontrol.chat.FakeModelProvider.Call;
import dev.lomicontrol.chat.FakeModelProvider.Script;
import dev.lomicontrol.chat.ModelClient;
import dev.lomicontrol.chat.ModelConnection;
import dev.lomicontrol.pairing.PairingRequest;
import dev.lomicontrol.pairing.Pairings;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.testing.Agent;
import dev.lomicontrol.tools.ToolSpec;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * The built-in Chat AI through the real broker: the model (Spring AI's OpenAI model against a real
 * HTTP server on 127.0.0.1 that scripts tool calls) gets the catalog external clients get, its
 * calls run over a broker session of its own that pairs like any client, and the results reach its
 * next request as untrusted data; the per-request limits and the call-id registry refuse with no effect.
 */
class ChatAiTests {

    @RegisterExtension
    final Agent driver = Agent.inProject("ai");

    final AttackCalls calls = new AttackCalls(driver);
    final Session agent = driver.session();
    FakeModelProvider provider;
    Pairings pairings;
    ChatAiSessions chatAi;

    @BeforeEach
    void open() throws Exception {
        provider = new FakeModelProvider();
        pairings = new Pairings(driver.broker().clock, driver.broker().random);
        chatAi = new ChatAiSessions(pairings, driver.broker().sessions, driver.broker().calls, driver.broker().chat);
        Files.writeString(driver.project().root().resolve("notes.txt"), "hello from the file\n");
        driver.broker()
                .chat
                .connections()
                .add(new ModelConnection(
                        "local",
                        ModelConnection.Kind.OPENAI,
                        provider.openAiBaseUrl(),
                        "gpt-test",
                        Optional.empty(),
                        Optional.empty(),
                        256));
        driver.broker()
                .yolo
                .set(true); // the agent's sends are approved at once; the Chat AI's own pairing is decided by
        // `pairings`
    }

    @AfterEach
    void close() {
        provider.close();
    }

    @Test
    void theModelGetsTheSameDeclarationsExternalClientsGet() {
        List<ModelClient.ToolDeclaration> declared =
                ChatAi.declarations(ToolCatalog.standard().all());
        List<ToolSpec<?>> catalog = ToolCatalog.standard().all();
        assertThat(declared).hasSameSizeAs(catalog);
        for (int i = 0; i < catalog.size(); i++) {
            assertThat(declared.get(i).name()).isEqualTo(catalog.get(i).name());
            assertThat(declared.get(i).description()).isEqualTo(catalog.get(i).description());
            assertThat(declared.get(i).inputSchema())
                    .isEqualTo(catalog.get(i).inputSchema().toString());
        }
    }

    @Test
    void aScriptedFilesReadRunsThroughTheBrokerOnItsOwnSessionAndItsResultReachesTheModelsNextRequest() {
        pairings.setYolo(true);
        provider.script(Script.toolCalls(readNotes("call_1")));
        provider.script(Script.reply("The file says hello."));
        String conversation = sendWithTools("what is in notes.txt?");

        await().atMost(Duration.ofSeconds(15))
                .until(() -> lastMessage(conversation).path("status").asString().equals("complete"));
        assertThat(lastMessage(conversation).path("content").asString()).isEqualTo("The file says hello.");
        assertThat(provider.requests()).isEqualTo(2);

        JsonNode first = provider.received().get(0).body();
        List<String> offered = new ArrayList<>();
        first.path("tools")
                .forEach(tool -> offered.add(tool.at("/function/name").asString()));
        assertThat(offered)
                .containsExactlyElementsOf(ToolCatalog.standard().all().stream()
                        .map(ToolSpec::name)
                        .toList());
        assertThat(first.at("/messages/0/role").asString()).isEqualTo("system");
        assertThat(first.at("/messages/0/content").toString()).contains("never instructions");

        JsonNode second = provider.received().get(1).body();
        JsonNode toolMessage = findRole(second, "tool");
        assertThat(toolMessage.path("tool_call_id").asString()).isEqualTo("call_1");
        String content = toolMessage.path("content").isString()
                ? toolMessage.path("content").asString()
                : toolMessage.path("content").toString();
        assertThat(content).contains("untrustedToolOutput", "hello from the file");

        Session own = chatAi.sessionOf(conversation).orElseThrow();
        assertThat(own.id()).isNotEqualTo(agent.id());
        assertThat(own.clientLabel()).isEqualTo("lomi Chat AI " + conversation);
        assertThat(own.grant().scopes())
                .as("no chat rights automatically")
                .noneMatch(scope -> scope.startsWith("chat."))
                .contains("files.read");
    }

    @Test
    void anthropicToolUseRunsThroughTheBrokerAndItsResultReachesTheNextRequest() {
        pairings.setYolo(true);
        driver.broker()
                .chat
                .connections()
                .add(new ModelConnection(
                        "claude",
                        ModelConnection.Kind.ANTHROPIC,
                        provider.anthropicBaseUrl(),
                        "claude-test",
                        Optional.empty(),
                        Optional.empty(),
                        256));
        provider.script(Script.toolCalls(readNotes("toolu_1")));
        provider.script(Script.reply("Claude read it."));
        String conversation = sendWithTools("read notes.txt", "claude", "claude-test");

        await().atMost(Duration.ofSeconds(15))
                .until(() ->
                        !lastMessage(conversation).path("status").asString().equals("streaming"));
        assertThat(lastMessage(conversation).path("content").asString())
                .as(lastMessage(conversation).toString())
                .isEqualTo("Claude read it.");
        assertThat(provider.received().get(0).path()).isEqualTo("/v1/messages");
        assertThat(provider.received().get(0).body().path("tools").size())
                .isEqualTo(ToolCatalog.standard().all().size());
        String second = provider.received().get(1).body().path("messages").toString();
        assertThat(second).contains("tool_result", "toolu_1", "hello from the file", "untrustedToolOutput");
    }

    @Test
    void withYoloOffTheChatAiWaitsForItsOwnPairingLikeAnyClient() {
        provider.script(Script.toolCalls(readNotes("call_1")));
        provider.script(Script.reply("done"));
        String conversation = sendWithTools("read it");

        await().atMost(Duration.ofSeconds(15)).until(() -> !pairings.pending().isEmpty());
        PairingRequest request = pairings.pending().get(0);
        assertThat(request.clientLabel()).isEqualTo("lomi Chat AI " + conversation);
        assertThat(provider.requests())
                .as("nothing more is asked before the pairing is approved")
                .isEqualTo(1);
        // the pairing request is filed before the message saying so is written: wait for the message
        await().atMost(Duration.ofSeconds(15))
                .untilAsserted(() -> assertThat(
                                lastMessage(conversation).path("content").asString())
                        .contains("waiting for the admin", request.id()));
        assertThat(chatAi.sessionOf(conversation)).isEmpty();

        pairings.approve(
                request.id(),
                Optional.empty(),
                Optional.empty(),
                id -> Optional.empty(),
                () -> Set.of(driver.project().id()));
        await().atMost(Duration.ofSeconds(15))
                .until(() -> lastMessage(conversation).path("status").asString().equals("complete"));
        assertThat(findRole(provider.received().get(1).body(), "tool").toString())
                .contains("hello from the file");
    }

    @Test
    void aDuplicatedCallIdProducesNoSecondEffect() {
        pairings.setYolo(true);
        String revision = Long.toString(Long.parseLong(driver.broker().revision()) + 1); // after the chat panel opens
        provider.script(Script.toolCalls(
                new Call("c_connect", "lomi_connect", "{\"workspaceId\":\"" + driver.workspace() + "\"}")));
        String create =
                "{\"workspaceId\":\"" + driver.workspace() + "\",\"name\":\"made by the model\",\"expectedRevision\":\""
                        + revision + "\",\"retryEpoch\":\"{{retryEpoch}}\",\"requestKey\":\"KEY\"}";
        provider.script(Script.toolCalls(
                new Call("c_create", "lomi_workspace_create", create.replace("KEY", "ws-1")),
                new Call("c_create", "lomi_workspace_create", create.replace("KEY", "ws-2"))));
        provider.script(Script.reply("created"));
        String conversation = sendWithTools("make a workspace");

        await().atMost(Duration.ofSeconds(15))
                .until(() -> lastMessage(conversation).path("status").asString().equals("complete"));
        assertThat(driver.broker().projects.list().get(0).workspaces())
                .as(provider.received().get(2).body().path("messages").toString())
                .extracting(w -> w.name())
                .containsOnlyOnce("made by the model");
        JsonNode tools = findRole(provider.received().get(2).body(), "tool");
        String all = provider.received().get(2).body().path("messages").toString();
        assertThat(all).contains("already used in this request");
        assertThat(tools).isNotNull();
    }

    @Test
    void the129thCallAndA64KiBPlusOneArgumentAreRefusedWithoutRunning() {
        pairings.setYolo(true);
        List<Call> calls = new ArrayList<>();
        for (int i = 1; i <= 129; i++) {
            calls.add(new Call("c" + i, "lomi_workspace_list", "{}"));
        }
        String padding = "x"
                .repeat(64 * 1024
                        + 1
                        - "{\"workspaceId\":\"\",\"relativePath\":\"\"}".length()
                        - driver.workspace().length());
        String big = "{\"workspaceId\":\"" + driver.workspace() + "\",\"relativePath\":\"" + padding + "\"}";
        assertThat(big.getBytes(java.nio.charset.StandardCharsets.UTF_8)).hasSize(64 * 1024 + 1);
        provider.script(Script.toolCalls(new Call("big", "lomi_files_read", big)));
        provider.script(Script.toolCalls(calls.toArray(Call[]::new)));
        provider.script(Script.reply("enough"));
        String conversation = sendWithTools("list a lot");

        await().atMost(Duration.ofSeconds(30))
                .until(() -> lastMessage(conversation).path("status").asString().equals("complete"));
        String afterBig = provider.received().get(1).body().path("messages").toString();
        assertThat(afterBig).contains("tool arguments are at most 64 KiB").doesNotContain("untrustedToolOutput");
        JsonNode third = provider.received().get(2).body();
        List<String> results = new ArrayList<>();
        third.path("messages").forEach(m -> {
            if (m.path("role").asString().equals("tool")
                    && m.path("tool_call_id").asString().startsWith("c")) {
                results.add(
                        m.path("content").isString()
                                ? m.path("content").asString()
                                : m.path("content").toString());
            }
        });
        assertThat(results).hasSize(129);
        assertThat(results.subList(0, 127)).allMatch(r -> r.contains("untrustedToolOutput"));
        assertThat(results.get(127))
                .as("the 128th call (the 1st, 'big', was refused and not counted)")
                .contains("untrustedToolOutput");
        assertThat(results.get(128))
                .contains("at most 128 tool calls per request")
                .doesNotContain("untrustedToolOutput");
    }

    @Test
    void aRevokedChatAiSessionIsReplacedByANewPairingNeverReused() {
        pairings.setYolo(true);
        String read = "{\"workspaceId\":\"" + driver.workspace() + "\",\"relativePath\":\"notes.txt\"}";
        provider.script(Script.toolCalls(new Call("r1", "lomi_files_read", read)));
        provider.script(Script.reply("one"));
        String conversation = sendWithTools("first");
        await().atMost(Duration.ofSeconds(15))
                .until(() -> lastMessage(conversation).path("status").asString().equals("complete"));
        Session first = chatAi.sessionOf(conversation).orElseThrow();
        driver.broker().sessions.revoke(first.id(), "the admin revoked it");

        provider.script(Script.toolCalls(new Call("r2", "lomi_files_read", read)));
        provider.script(Script.reply("two"));
        String panel = driver.ok("lomi_panel_list", "workspaceId", driver.workspace())
                .path("panels")
                .valueStream()
                .filter(p -> p.path("kind").asString().equals("chat"))
                .findFirst()
                .orElseThrow()
                .path("panelId")
                .asString();
        driver.broker()
                .ok(
                        agent,
                        "lomi_chat_draft",
                        calls.durable(
                                "draft-again",
                                "panelId",
                                panel,
                                "conversationId",
                                conversation,
                                "text",
                                "second",
                                "expectedDraftRevision",
                                "d3",
                                "expectedConversationRevision",
                                "r3"));
        driver.broker()
                .ok(
                        agent,
                        "lomi_chat_send",
                        calls.durable(
                                "send-again",
                                "panelId",
                                panel,
                                "conversationId",
                                conversation,
                                "connectionId",
                                "local",
                                "model",
                                "gpt-test",
                                "expectedDraftRevision",
                                "d4",
                                "expectedConversationRevision",
                                "r3"));
        await().atMost(Duration.ofSeconds(15))
                .until(() ->
                        !lastMessage(conversation).path("status").asString().equals("streaming"));
        assertThat(lastMessage(conversation).path("content").asString())
                .as(lastMessage(conversation).toString())
                .isEqualTo("two");

        Session second = chatAi.sessionOf(conversation).orElseThrow();
        assertThat(second.id()).isNotEqualTo(first.id());
        assertThat(first.isAlive()).isFalse();
        assertThat(second.isAlive()).isTrue();
        assertThat(findRole(provider.received().get(3).body(), "tool").toString())
                .contains("hello from the file");
    }

    // ------------------------------------------------------------------ helpers

    /** The agent opens a conversation, turns its tools on (the admin's choice), drafts and sends; returns the conversation id. */
    String sendWithTools(String text) {
        return sendWithTools(text, "local", "gpt-test");
    }

    String sendWithTools(String text, String connection, String model) {
        JsonNode opened = driver.broker()
                .ok(
                        agent,
                        "lomi_chat_open",
                        calls.durable(
                                driver.key("open"), "target", BrokerCallsFixture.JSON.readTree("{\"type\":\"new\"}")));
        String conversation = opened.at("/result/conversationId").asString();
        String panel = opened.at("/result/panelId").asString();
        driver.broker().chat.conversations().setTools(conversation, true);
        JsonNode drafted = driver.broker()
                .ok(
                        agent,
                        "lomi_chat_draft",
                        calls.durable(
                                driver.key("draft"),
                                "panelId",
                                panel,
                                "conversationId",
                                conversation,
                                "text",
                                text,
                                "expectedDraftRevision",
                                "d1",
                                "expectedConversationRevision",
                                "r1"));
        assertThat(drafted.path("state").asString()).isEqualTo("succeeded");
        JsonNode sent = driver.broker()
                .ok(
                        agent,
                        "lomi_chat_send",
                        calls.durable(
                                driver.key("send"),
                                "panelId",
                                panel,
                                "conversationId",
                                conversation,
                                "connectionId",
                                connection,
                                "model",
                                model,
                                "expectedDraftRevision",
                                "d2",
                                "expectedConversationRevision",
                                "r1"));
        assertThat(sent.path("state").asString()).as(sent.toString()).isIn("running", "succeeded");
        return conversation;
    }

    JsonNode lastMessage(String conversation) {
        return driver.ok(
                "lomi_chat_read",
                "workspaceId",
                driver.workspace(),
                "conversationId",
                conversation,
                "part",
                BrokerCallsFixture.JSON.readTree("{\"type\":\"message\",\"messageId\":null}"));
    }

    /** A scripted tool call {@code id} that reads notes.txt in the agent's workspace. */
    Call readNotes(String id) {
        return new Call(
                id,
                "lomi_files_read",
                "{\"workspaceId\":\"" + driver.workspace() + "\",\"relativePath\":\"notes.txt\"}");
    }

    static JsonNode findRole(JsonNode body, String role) {
        for (JsonNode message : body.path("messages")) {
            if (message.path("role").asString().equals(role)) {
                return message;
            }
        }
        return null;
    }
}
