package dev.lomicontrol.chat.tools;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.chat.ChatMessage;
import dev.lomicontrol.chat.Conversations;
import dev.lomicontrol.chat.FakeModelProvider;
import dev.lomicontrol.chat.FakeModelProvider.Script;
import dev.lomicontrol.chat.ModelConnection;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.testing.Agent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The seven chat tools through the broker's dispatcher on a real SQLite store, with Spring AI's
 * real OpenAI and Anthropic models talking to a real HTTP server on 127.0.0.1 that plays the
 * provider ({@link FakeModelProvider}, the only fake): open → draft → send → the admin approves →
 * the streamed reply is persisted and readable → the export's revision is stable; stop mid-stream;
 * provider errors and timeouts; stale revisions; a retry that sends once.
 */
class ChatToolsTests {

    static final String KEY = "sk-test-0123456789abcdef";

    @TempDir
    Path temp;

    @RegisterExtension
    final Agent agent = Agent.inProject("chat");

    BrokerCallsFixture broker;
    FakeModelProvider provider;
    String ws;

    @BeforeEach
    void open() throws Exception {
        broker = agent.broker();
        provider = new FakeModelProvider();
        ws = agent.workspace();
        broker.environment.put("FAKE_OPENAI_KEY", KEY);
        connect("local", ModelConnection.Kind.OPENAI, "gpt-test", Optional.of("FAKE_OPENAI_KEY"), Optional.empty());
        Path keyFile = temp.resolve("anthropic.key");
        Files.writeString(keyFile, KEY + "\n");
        Files.setPosixFilePermissions(keyFile, PosixFilePermissions.fromString("rw-------"));
        connect(
                "claude",
                ModelConnection.Kind.ANTHROPIC,
                "claude-test",
                Optional.empty(),
                Optional.of(keyFile.toString()));
    }

    @AfterEach
    void close() {
        provider.close();
    }

    @Test
    void openDraftSendApproveStreamsTheReplyIntoTheConversationAndTheExportRevisionIsStable() {
        provider.script(Script.reply("Hel", "lo, ", "world"));
        Opened chat = openNew();
        JsonNode drafted = draft(chat, "Say hello", "d1", "r1");
        assertThat(drafted.path("draftRevision").asString()).isEqualTo("d2");

        JsonNode parked = send(sendArgs(chat, "local", "gpt-test", "d2", "r1", "send-1"));
        assertThat(parked.path("state").asString()).isEqualTo("awaiting_user");
        assertThat(provider.requests())
                .as("nothing is sent before the admin approves")
                .isZero();
        String plan = broker.decisions.list().get(0).plan();
        String summary = broker.decisions.list().get(0).summary();
        assertThat(plan)
                .contains(
                        "\"draftText\":\"Say hello\"",
                        "\"model\":\"gpt-test\"",
                        "\"connectionId\":\"local\"",
                        provider.openAiBaseUrl())
                .doesNotContain(KEY);
        assertThat(summary).contains("local", "gpt-test", "Say hello");

        broker.decisions.decide(new OperationId(parked.path("operationId").asString()), true);
        JsonNode settled = settled(parked, 10);

        assertThat(settled.path("state").asString()).as(settled.toString()).isEqualTo("succeeded");
        assertThat(settled.path("effectState").asString()).isEqualTo("complete");
        assertThat(settled.at("/result/kind").asString()).isEqualTo("chat_sent");
        assertThat(settled.at("/result/draftRevision").asString()).isEqualTo("d3");
        assertThat(provider.requests()).isEqualTo(1);
        FakeModelProvider.Received request = provider.received().get(0);
        assertThat(request.authorization()).isEqualTo("Bearer " + KEY);
        assertThat(request.body().path("model").asString()).isEqualTo("gpt-test");
        assertThat(request.body().path("stream").asBoolean()).isTrue();
        assertThat(request.body().at("/messages/0/content").toString()).contains("Say hello");

        JsonNode reply = lastMessage(chat);
        assertThat(reply.path("role").asString()).isEqualTo("assistant");
        assertThat(reply.path("status").asString()).isEqualTo("complete");
        assertThat(reply.path("content").asString()).isEqualTo("Hello, world");
        assertThat(reply.path("source").asString()).isEqualTo("persisted_checkpoint");
        assertThat(reply.at("/request/requestId").asString())
                .isEqualTo(settled.at("/result/requestId").asString());
        assertThat(read(chat, "{\"type\":\"draft\"}").path("content").asString())
                .as("the send cleared the draft")
                .isEmpty();

        JsonNode first = export(chat, "markdown");
        JsonNode again = export(chat, "markdown");
        assertThat(first.path("revision").asString())
                .hasSize(64)
                .isEqualTo(again.path("revision").asString());
        assertThat(first.path("content").asString()).contains("Say hello", "Hello, world");
        assertThat(first.path("messageCount").asInt()).isEqualTo(2);
        JsonNode asJson = export(chat, "json");
        assertThat(BrokerCallsFixture.JSON
                        .readTree(asJson.path("content").asString())
                        .at("/messages/1/content")
                        .asString())
                .isEqualTo("Hello, world");

        JsonNode listed = agent.ok("lomi_chat_list", "workspaceId", ws);
        assertThat(listed.path("total").asInt()).isEqualTo(1);
        assertThat(listed.at("/items/0/conversationId").asString()).isEqualTo(chat.conversationId);
        assertThat(listed.at("/items/0/latestMessageId").asString())
                .isEqualTo(reply.at("/request/assistantId").asString());
    }

    @Test
    void anthropicRepliesStreamThroughTheMessagesApiWithTheKeyFromA0600File() {
        provider.script(Script.reply("Bonjour", " !"));
        Opened chat = openNew();
        JsonNode sent = draftAndSend(chat, "Salut", "claude", "claude-test", "send-a");
        JsonNode settled = settled(sent, 10);

        assertThat(settled.path("state").asString()).as(settled.toString()).isEqualTo("succeeded");
        assertThat(provider.received().get(0).path()).isEqualTo("/v1/messages");
        assertThat(provider.received().get(0).apiKeyHeader()).isEqualTo(KEY);
        assertThat(lastMessage(chat).path("content").asString()).isEqualTo("Bonjour !");
    }

    @Test
    void aRetryWithTheSameKeySendsOnce() {
        provider.script(Script.reply("once"));
        Opened chat = openNew();
        JsonNode first = draftAndSend(chat, "only once", "local", "gpt-test", "send-same");
        settled(first, 10);
        JsonNode retry = send(sendArgs(chat, "local", "gpt-test", "d2", "r1", "send-same"));

        assertThat(retry.path("operationId").asString())
                .isEqualTo(first.path("operationId").asString());
        assertThat(retry.path("state").asString()).isEqualTo("succeeded");
        assertThat(provider.requests()).as("counted by the provider").isEqualTo(1);
        assertThat(broker.chat.conversations().messages(chat.conversationId)).hasSize(2);
    }

    @Test
    void staleDraftAndConversationRevisionsAreRefusedWithNoEffect() {
        Opened chat = openNew();
        draft(chat, "first", "d1", "r1");

        assertThat(broker.refused(
                        agent.session(), "lomi_chat_draft", draftArgs(chat, "second", "d1", "r1", "k-stale-d")))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(broker.refused(
                        agent.session(), "lomi_chat_draft", draftArgs(chat, "second", "d2", "r7", "k-stale-c")))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(broker.refused(
                        agent.session(),
                        "lomi_chat_send",
                        sendArgs(chat, "local", "gpt-test", "d1", "r1", "k-stale-s")))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(broker.refused(
                        agent.session(), "lomi_chat_send", sendArgs(chat, "local", "gpt-4", "d2", "r1", "k-model")))
                .as("only the configured model")
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(broker.refused(
                        agent.session(), "lomi_chat_send", sendArgs(chat, "nobody", "gpt-test", "d2", "r1", "k-conn")))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);

        assertThat(read(chat, "{\"type\":\"draft\"}").path("content").asString())
                .isEqualTo("first");
        assertThat(broker.decisions.list()).isEmpty();
        assertThat(provider.requests()).isZero();
        assertThat(broker.ledger.getByKey(
                        agent.session().id(),
                        agent.epoch(),
                        new dev.lomicontrol.core.ToolName("lomi_chat_send"),
                        new dev.lomicontrol.core.RequestKey("k-stale-s"),
                        Optional.of(agent.project().id())))
                .as("no receipt")
                .isEmpty();
    }

    @Test
    void stopMidStreamKeepsTheCheckpointAndCancelsTheSend() throws Exception {
        provider.script(Script.hold("partial ", "answer"));
        Opened chat = openNew();
        JsonNode sent = sendUntilArrived(chat, "talk slowly", "send-stop", "partial answer");
        String requestId = lastMessage(chat).at("/request/requestId").asString();

        long started = System.nanoTime();
        JsonNode stopped = stop(chat, requestId, "stop-1");
        // generous: the provider holds its stream until it is closed, so a stop that waited for the stream would not
        // return at all
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(30));

        assertThat(stopped.path("state").asString()).as(stopped.toString()).isEqualTo("succeeded");
        assertThat(stopped.at("/result/kind").asString()).isEqualTo("chat_stopped");
        assertThat(stopped.at("/result/alreadyFinished").asBoolean()).isFalse();
        assertThat(stopped.at("/result/request/status").asString()).isEqualTo("stopped");
        assertStoppedWith(chat, "partial answer");
        JsonNode send = settled(sent, 5);
        assertThat(send.path("state").asString()).isEqualTo("cancelled");
        assertThat(send.path("effectState").asString())
                .as("the provider had the request: never undone")
                .isEqualTo("partial");

        JsonNode again = stop(chat, requestId, "stop-2");
        assertThat(again.at("/result/alreadyFinished").asBoolean()).isTrue();
        assertThat(provider.requests()).isEqualTo(1);
    }

    @Test
    void cancellingAStreamingSendStopsItsRequestAndKeepsWhatArrived() throws Exception {
        provider.script(Script.hold("so far"));
        Opened chat = openNew();
        JsonNode sent = sendUntilArrived(chat, "go on", "send-cancel", "so far");

        broker.ok(
                agent.session(),
                "lomi_operation_cancel",
                json("operationId", sent.path("operationId").asString()));
        JsonNode settled = settled(sent, 10);

        assertThat(settled.path("state").asString()).as(settled.toString()).isEqualTo("cancelled");
        assertThat(settled.path("effectState").asString()).isEqualTo("partial");
        assertStoppedWith(chat, "so far");
        assertThat(provider.requests()).isEqualTo(1);
    }

    @Test
    void aSecondSendWhileAReplyStreamsIsRefusedAndSendsNothing() throws Exception {
        provider.script(Script.hold("slow"));
        Opened chat = openNew();
        JsonNode first = draftAndSend(chat, "one", "local", "gpt-test", "send-first");
        assertThat(provider.awaitFirstPiece(10)).isTrue();
        draft(chat, "two", "d3", "r2");

        assertThat(broker.refused(
                        agent.session(),
                        "lomi_chat_send",
                        sendArgs(chat, "local", "gpt-test", "d4", "r2", "send-parallel")))
                .isEqualTo(ErrorCode.TARGET_BUSY);
        assertThat(provider.requests()).isEqualTo(1);
        provider.release();
        assertThat(settled(first, 10).path("state").asString()).isEqualTo("succeeded");
        assertThat(read(chat, "{\"type\":\"draft\"}").path("content").asString())
                .as("the refused send left the draft")
                .isEqualTo("two");
    }

    @Test
    void aProvider500FailsTheSendWithWhatIsKnownAndIsNotRetried() {
        provider.script(Script.error(500));
        Opened chat = openNew();
        JsonNode sent = draftAndSend(chat, "break", "local", "gpt-test", "send-500");
        JsonNode settled = settled(sent, 10);

        assertThat(settled.path("state").asString()).as(settled.toString()).isEqualTo("failed");
        assertThat(settled.path("effectState").asString()).isEqualTo("none");
        assertThat(settled.at("/result/kind").asString()).isEqualTo("failure");
        assertThat(settled.at("/result/detail/providerError").asString())
                .contains("500")
                .doesNotContain(KEY);
        assertThat(provider.requests()).as("the SDK's retries are off").isEqualTo(1);
        assertThat(lastMessage(chat).path("status").asString()).isEqualTo("failed");
    }

    @Test
    void aProviderThatNeverAnswersTimesOutAsDeadlineExceeded() {
        provider.script(Script.silent());
        Opened chat = openNew();
        JsonNode sent = draftAndSend(chat, "anyone?", "local", "gpt-test", "send-timeout");
        JsonNode settled = settled(sent, 15);

        assertThat(settled.path("state").asString()).as(settled.toString()).isEqualTo("failed");
        assertThat(settled.path("errorCode").asString()).as(settled.toString()).isEqualTo("DEADLINE_EXCEEDED");
        assertThat(provider.requests()).isEqualTo(1);
    }

    @Test
    void aStreamCutAfterTextArrivedIsOutcomeUnknownWithThePartialReplyKept() {
        provider.script(Script.cut("half a"));
        Opened chat = openNew();
        JsonNode sent = draftAndSend(chat, "go", "local", "gpt-test", "send-cut");
        JsonNode settled = settled(sent, 15);

        assertThat(settled.path("state").asString()).as(settled.toString()).isEqualTo("outcome_unknown");
        assertThat(lastMessage(chat).path("content").asString()).isEqualTo("half a");
        assertThat(provider.requests()).as("never silently re-sent").isEqualTo(1);
    }

    @Test
    void conversationsNotSharedWithThisConnectionDoNotExist() {
        Conversations.Share nobody = Conversations.Share.client("someone else");
        String hidden = broker.chat
                .conversations()
                .create(agent.project().id(), "private", Optional.of(nobody))
                .id();
        assertThat(broker.refused(agent.session(), "lomi_chat_read", readArgs(hidden, "{\"type\":\"draft\"}")))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        assertThat(agent.ok("lomi_chat_list", "workspaceId", ws).path("total").asInt())
                .isZero();

        broker.chat
                .conversations()
                .share(hidden, Conversations.Share.client(agent.session().clientLabel()), false);
        assertThat(agent.ok("lomi_chat_list", "workspaceId", ws).path("total").asInt())
                .isEqualTo(1);
        JsonNode opened = agent.op(
                "lomi_chat_open",
                "workspaceId",
                ws,
                "target",
                Agent.object("type", "existing", "conversationId", hidden),
                "expectedRevision",
                broker.revision());
        assertThat(opened.at("/result/created").asBoolean()).isFalse();
        assertThat(opened.at("/result/conversationId").asString()).isEqualTo(hidden);
    }

    @Test
    void readsPageInUtf16OnScalarBoundaries() {
        Opened chat = openNew();
        String text = "a".repeat(8191) + "\uD83D\uDE00" + "tail";
        draft(chat, text, "d1", "r1");
        JsonNode first = read(chat, "{\"type\":\"draft\"}");
        assertThat(first.path("content").asString()).hasSize(8191);
        assertThat(first.path("nextUtf16").asLong()).isEqualTo(8191);
        assertThat(first.path("totalUtf16").asLong()).isEqualTo(text.length());
        JsonNode second = read(
                chat,
                "{\"type\":\"draft\"}",
                "startUtf16",
                8191,
                "expectedRevision",
                first.path("revision").asString());
        assertThat(second.path("content").asString()).isEqualTo("\uD83D\uDE00tail");
        assertThat(second.path("nextUtf16").isNull()).isTrue();
    }

    @Test
    void aKeyFileWithAWideModeIsRefusedBeforeAnythingIsReservedOrSent() throws Exception {
        Path wide = temp.resolve("wide.key");
        Files.writeString(wide, KEY);
        Files.setPosixFilePermissions(wide, PosixFilePermissions.fromString("rw-r--r--"));
        connect("wide", ModelConnection.Kind.ANTHROPIC, "claude-test", Optional.empty(), Optional.of(wide.toString()));
        Opened chat = openNew();
        draft(chat, "x", "d1", "r1");
        JsonNode envelope = broker.call(
                agent.session(), "lomi_chat_send", sendArgs(chat, "wide", "claude-test", "d2", "r1", "k-wide"));

        assertThat(envelope.path("code").asString()).isEqualTo("HOST_UNQUALIFIED");
        assertThat(envelope.path("message").asString()).contains("0600").doesNotContain(KEY);
        assertThat(provider.requests()).isZero();
    }

    // ------------------------------------------------------------------ helpers

    record Opened(String panelId, String conversationId) {}

    Opened openNew() {
        JsonNode opened = agent.op(
                "lomi_chat_open",
                "workspaceId",
                ws,
                "target",
                Agent.object("type", "new"),
                "expectedRevision",
                broker.revision());
        assertThat(opened.path("state").asString()).as(opened.toString()).isEqualTo("succeeded");
        assertThat(opened.at("/result/created").asBoolean()).isTrue();
        JsonNode panels = agent.ok("lomi_panel_list", "workspaceId", ws);
        assertThat(panels.toString()).contains(opened.at("/result/panelId").asString(), "\"chat\"");
        return new Opened(
                opened.at("/result/panelId").asString(),
                opened.at("/result/conversationId").asString());
    }

    /** lomi_chat_stop of one request of {@code chat}, with this request key. */
    JsonNode stop(Opened chat, String requestId, String key) {
        return agent.ok(
                "lomi_chat_stop",
                "workspaceId",
                ws,
                "conversationId",
                chat.conversationId,
                "requestId",
                requestId,
                "retryEpoch",
                agent.epoch().value(),
                "requestKey",
                key);
    }

    JsonNode draft(Opened chat, String text, String draftRevision, String conversationRevision) {
        JsonNode drafted = broker.ok(
                agent.session(),
                "lomi_chat_draft",
                draftArgs(chat, text, draftRevision, conversationRevision, agent.key("draft")));
        assertThat(drafted.path("state").asString()).as(drafted.toString()).isEqualTo("succeeded");
        return drafted.path("result");
    }

    String draftArgs(Opened chat, String text, String draftRevision, String conversationRevision, String key) {
        return atRevisions(chat, draftRevision, conversationRevision, key, "text", text);
    }

    /** lomi_chat_send with these arguments ({@link #sendArgs}). */
    JsonNode send(String arguments) {
        return broker.ok(agent.session(), "lomi_chat_send", arguments);
    }

    String sendArgs(
            Opened chat,
            String connection,
            String model,
            String draftRevision,
            String conversationRevision,
            String key) {
        return atRevisions(chat, draftRevision, conversationRevision, key, "connectionId", connection, "model", model);
    }

    /**
     * A durable call's arguments on {@code chat}'s panel: {@code pairs}, the draft, conversation and layout
     * revisions it expects, the agent's epoch and {@code key}.
     */
    String atRevisions(Opened chat, String draftRevision, String conversationRevision, String key, Object... pairs) {
        return Agent.object(
                        "workspaceId",
                        ws,
                        "panelId",
                        chat.panelId,
                        "conversationId",
                        chat.conversationId,
                        "expectedDraftRevision",
                        draftRevision,
                        "expectedConversationRevision",
                        conversationRevision,
                        "expectedRevision",
                        broker.revision(),
                        "retryEpoch",
                        agent.epoch().value(),
                        "requestKey",
                        key)
                .setAll(Agent.object(pairs))
                .toString();
    }

    JsonNode read(Opened chat, String part, Object... more) {
        return broker.ok(agent.session(), "lomi_chat_read", readArgs(chat.conversationId, part, more));
    }

    /** lomi_chat_read's arguments: {@code part} of the conversation, then {@code more} pairs. */
    String readArgs(String conversationId, String part, Object... more) {
        ObjectNode node = Agent.object("workspaceId", ws, "conversationId", conversationId);
        node.set("part", BrokerCallsFixture.JSON.readTree(part));
        return node.setAll(Agent.object(more)).toString();
    }

    /** The conversation's newest message. */
    JsonNode lastMessage(Opened chat) {
        return read(chat, "{\"type\":\"message\",\"messageId\":null}");
    }

    /** The operation a call {@code started}, once settled within {@code seconds}. */
    JsonNode settled(JsonNode started, int seconds) {
        return broker.settled(agent.session(), started.path("operationId").asString(), Duration.ofSeconds(seconds));
    }

    /** Drafts {@code text} in a fresh conversation and sends it at once (yolo: no admin approval). */
    JsonNode draftAndSend(Opened chat, String text, String connection, String model, String key) {
        draft(chat, text, "d1", "r1");
        broker.yolo.set(true);
        return send(sendArgs(chat, connection, model, "d2", "r1", key));
    }

    /** Sends {@code text} (gpt-test, at once) and waits until the reply's first piece and then {@code arrived} are in. */
    JsonNode sendUntilArrived(Opened chat, String text, String key, String arrived) throws InterruptedException {
        JsonNode sent = draftAndSend(chat, text, "local", "gpt-test", key);
        assertThat(provider.awaitFirstPiece(10)).isTrue();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> lastMessage(chat).path("content").asString().equals(arrived));
        return sent;
    }

    /** The newest message was stopped holding {@code content}. */
    void assertStoppedWith(Opened chat, String content) {
        JsonNode reply = lastMessage(chat);
        assertThat(reply.path("status").asString()).isEqualTo("stopped");
        assertThat(reply.path("content").asString()).isEqualTo(content);
    }

    /** Adds a model connection to the fake provider's {@code kind} endpoint, its key in {@code env} or {@code file}. */
    void connect(String id, ModelConnection.Kind kind, String model, Optional<String> env, Optional<String> file) {
        String base = kind == ModelConnection.Kind.OPENAI ? provider.openAiBaseUrl() : provider.anthropicBaseUrl();
        broker.chat.connections().add(new ModelConnection(id, kind, base, model, env, file, 256));
    }

    JsonNode export(Opened chat, String format) {
        return broker.ok(
                agent.session(),
                "lomi_chat_export",
                json("workspaceId", ws, "conversationId", chat.conversationId, "format", format));
    }

    static List<ChatMessage> unused() {
        return List.of();
    }
}
