package dev.lomicontrol.chat.tools;

import dev.lomicontrol.chat.Chat;
import dev.lomicontrol.chat.ChatDocuments;
import dev.lomicontrol.chat.ChatMessage;
import dev.lomicontrol.chat.Conversation;
import dev.lomicontrol.chat.Conversations;
import dev.lomicontrol.chat.ModelConnection;
import dev.lomicontrol.chat.ModelConnections;
import dev.lomicontrol.chat.Replies;
import dev.lomicontrol.chat.api.ChatSpecs;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.ledger.EffectState;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.ledger.OperationError;
import dev.lomicontrol.ledger.OperationState;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.Revisions;
import dev.lomicontrol.operations.ToolFeature;
import dev.lomicontrol.operations.ToolHandlers;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.PanelKind;
import dev.lomicontrol.projects.WorkspaceView;
import dev.lomicontrol.tools.Encoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The seven {@code lomi_chat_*} tools (SPEC §10 Chat) on the durable conversations. A conversation
 * exists for a session only when it belongs to the workspace's project and is shared with the
 * session or its client label (TARGET_NOT_FOUND otherwise, like an unknown id). A send parks in
 * {@code awaiting_user} with its exact text, model and connection; approval persists the draft as
 * a user message and starts the provider's stream, and the operation settles when the reply ends.
 */
@Component
public final class ChatCalls implements ToolFeature {

    /** How long lomi_chat_stop waits for the stopped reply's checkpoint. */
    static final Duration STOP_WAIT = Duration.ofSeconds(5);

    private final Conversations conversations;
    private final ModelConnections connections;
    private final Replies replies;
    private final WorkspaceAccess workspaces;
    private final OperationRunner runner;
    private final Layout layout;
    private final SecureRandom random = new SecureRandom();
    /** Send operations whose reply streams, by operation id: their request id (a cancel stops it). */
    private final Map<OperationId, String> streaming = new ConcurrentHashMap<>();

    public ChatCalls(Chat chat, WorkspaceAccess workspaces, OperationRunner runner, Layout layout) {
        this.conversations = chat.conversations();
        this.connections = chat.connections();
        this.replies = chat.replies();
        this.workspaces = workspaces;
        this.runner = runner;
        this.layout = layout;
    }

    /** Registers the handlers of the seven chat tools. */
    @Override
    public void register(Wiring wiring) {
        ToolHandlers handlers = wiring.handlers();
        handlers.on(ChatSpecs.LIST, this::list);
        handlers.on(ChatSpecs.READ, this::read);
        handlers.on(ChatSpecs.EXPORT, this::export);
        handlers.on(ChatSpecs.OPEN, this::open);
        handlers.on(ChatSpecs.DRAFT, this::draft);
        handlers.on(ChatSpecs.SEND, this::send);
        handlers.on(ChatSpecs.STOP, this::stop);
    }

    // ------------------------------------------------------------------ reads

    ChatSpecs.Listed list(Session session, ChatSpecs.ListInput in) {
        WorkspaceAccess.Listed listed = workspaces.resolve(session, in.workspaceId());
        List<Conversation> shared = conversations.sharedWith(
                listed.project().id(), session.clientLabel(), session.id().value());
        StringBuilder state = new StringBuilder();
        shared.forEach(c -> state.append(c.id())
                .append(':')
                .append(c.revision())
                .append(':')
                .append(c.title())
                .append('\n'));
        String revision = "l" + ChatDocuments.sha256(state.toString()).substring(0, 32);
        if (in.expectedRevision().isPresent()
                && !in.expectedRevision().get().value().equals(revision)) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    "the shared conversations changed (revision is now " + revision + "); list again from offset 0");
        }
        int from = Math.min(in.offset(), shared.size());
        int to = Math.min(shared.size(), from + in.limit());
        List<ChatSpecs.Summary> items =
                shared.subList(from, to).stream().map(this::summary).toList();
        return new ChatSpecs.Listed(
                listed.workspace().id(),
                revision,
                items,
                shared.size(),
                in.offset(),
                to < shared.size() ? Optional.of(to) : Optional.empty());
    }

    ChatSpecs.Read read(Session session, ChatSpecs.ReadInput in) {
        WorkspaceAccess.Listed listed = workspaces.resolve(session, in.workspaceId());
        Conversation conversation = shared(session, listed, in.conversationId().value());
        if (in.includeSendTarget() && !session.grant().allows("chat.send")) {
            throw new LomiException(
                    ErrorCode.SCOPE_DENIED,
                    "includeSendTarget needs the chat.send scope, which this session was not granted");
        }
        Optional<ChatSpecs.SendTarget> target = in.includeSendTarget() ? sendTarget(conversation) : Optional.empty();
        if (in.part() instanceof ChatSpecs.Draft) {
            String revision = conversation.draftRevisionToken();
            ChatDocuments.Page page = page(
                    conversation.draft(),
                    in.startUtf16(),
                    in.maxChars(),
                    revision,
                    in.expectedRevision().map(t -> t.value()));
            return new ChatSpecs.Read(
                    listed.workspace().id(),
                    summary(conversation),
                    "persisted_checkpoint",
                    in.part(),
                    revision,
                    Optional.of(revision),
                    lastMessage(conversation).map(ChatMessage::id),
                    "user",
                    "draft",
                    page.content(),
                    in.startUtf16(),
                    page.total(),
                    page.next(),
                    false,
                    false,
                    target,
                    Optional.empty());
        }
        ChatSpecs.Message part = (ChatSpecs.Message) in.part();
        ChatMessage message = part.messageId().isPresent()
                ? conversations
                        .message(part.messageId().get().value())
                        .filter(m -> m.conversationId().equals(conversation.id()))
                        .orElseThrow(() -> new LomiException(
                                ErrorCode.TARGET_NOT_FOUND,
                                "no message " + part.messageId().get() + " in " + conversation.id()))
                : lastMessage(conversation)
                        .orElseThrow(() -> new LomiException(
                                ErrorCode.TARGET_NOT_FOUND,
                                "conversation " + conversation.id() + " has no messages yet"));
        String revision = "m"
                + ChatDocuments.sha256(message.id() + "\n" + message.status() + "\n" + message.content())
                        .substring(0, 32);
        ChatDocuments.Page page = page(
                message.content(),
                in.startUtf16(),
                in.maxChars(),
                revision,
                in.expectedRevision().map(t -> t.value()));
        Optional<ChatSpecs.Request> request =
                message.requestId().map(id -> new ChatSpecs.Request(id, message.id(), requestStatus(message)));
        return new ChatSpecs.Read(
                listed.workspace().id(),
                summary(conversation),
                "persisted_checkpoint",
                new ChatSpecs.Message(Optional.of(new ChatSpecs.ChatId(message.id()))),
                revision,
                Optional.empty(),
                message.parentId(),
                message.role(),
                message.status(),
                page.content(),
                in.startUtf16(),
                page.total(),
                page.next(),
                false,
                false,
                target,
                request);
    }

    ChatSpecs.Exported export(Session session, ChatSpecs.ExportInput in) {
        WorkspaceAccess.Listed listed = workspaces.resolve(session, in.workspaceId());
        Conversation conversation = shared(session, listed, in.conversationId().value());
        List<ChatMessage> messages = conversations.messages(conversation.id());
        String document = in.format() == ChatSpecs.Format.MARKDOWN
                ? ChatDocuments.markdown(conversation, messages)
                : ChatDocuments.json(conversation, messages);
        String revision = ChatDocuments.sha256(document);
        ChatDocuments.Page page = page(
                document,
                in.startUtf16(),
                in.maxChars(),
                revision,
                in.expectedRevision().map(t -> t.value()));
        return new ChatSpecs.Exported(
                listed.workspace().id(),
                conversation.id(),
                in.format(),
                revision,
                document.getBytes(StandardCharsets.UTF_8).length,
                messages.size(),
                page.content(),
                in.startUtf16(),
                page.total(),
                page.next(),
                false,
                false);
    }

    // ------------------------------------------------------------------ operations

    ObjectNode open(Session session, ChatSpecs.OpenInput in) {
        WorkspaceAccess.Listed listed = workspaces.resolve(session, in.workspaceId());
        long expected = in.expectedRevision().asLong();
        boolean create = in.target() instanceof ChatSpecs.New;
        String resource = create
                ? "new"
                : ((ChatSpecs.Existing) in.target()).conversationId().value();
        return runner.immediate(
                OperationRunner.Request.of(session, ChatSpecs.OPEN, in, listed, resource, expected),
                () -> {
                    if (create && !session.grant().allows("chat.create")) {
                        throw new LomiException(
                                ErrorCode.SCOPE_DENIED,
                                "target new needs the chat.create scope, which this session was not granted");
                    }
                    if (!create) {
                        shared(session, listed, resource);
                    }
                    Revisions.require(expected, layout.revision());
                },
                operation -> {
                    Conversation conversation = create
                            ? conversations.create(
                                    listed.project().id(),
                                    "Chat",
                                    Optional.of(Conversations.Share.session(
                                            session.id().value())))
                            : shared(session, listed, resource);
                    Panel panel = layout.change(OptionalLong.of(expected), edit -> {
                        WorkspaceView view = edit.view(listed.workspace().id());
                        Optional<Panel> existing = view.panels().stream()
                                .filter(p -> showing(p, conversation.id()))
                                .findFirst();
                        if (existing.isPresent()) {
                            edit.focus(listed.workspace().id(), existing.get().id());
                            return existing.get();
                        }
                        return edit.addChatPanel(
                                listed.workspace().id(),
                                conversation.title(),
                                session.id().value(),
                                conversation.id());
                    });
                    return Encoder.encode(
                            new ChatSpecs.Opened(listed.workspace().id(), panel.id(), conversation.id(), create));
                });
    }

    ObjectNode draft(Session session, ChatSpecs.DraftInput in) {
        WorkspaceAccess.Listed listed = workspaces.resolve(session, in.workspaceId());
        long expected = in.expectedRevision().asLong();
        String id = in.conversationId().value();
        return runner.immediate(
                OperationRunner.Request.of(session, ChatSpecs.DRAFT, in, listed, id, expected),
                () -> {
                    Conversation conversation = shared(session, listed, id);
                    requirePanel(listed, in.panelId().value(), id);
                    Revisions.require(expected, layout.revision());
                    requireRevisions(
                            conversation,
                            in.expectedDraftRevision().value(),
                            in.expectedConversationRevision().value());
                },
                operation -> {
                    Conversation after = conversations.setDraft(
                            id,
                            in.text(),
                            in.expectedDraftRevision().value(),
                            in.expectedConversationRevision().value());
                    return Encoder.encode(new ChatSpecs.DraftUpdated(
                            listed.workspace().id(),
                            in.panelId().value(),
                            id,
                            after.draftRevisionToken(),
                            after.conversationRevision(),
                            ChatDocuments.sha256(after.draft()),
                            after.draft().length()));
                });
    }

    ObjectNode send(Session session, ChatSpecs.SendInput in) {
        WorkspaceAccess.Listed listed = workspaces.resolve(session, in.workspaceId());
        long expected = in.expectedRevision().asLong();
        String id = in.conversationId().value();
        String requestId = "req-" + Ids.randomHex(random, 8);
        Object[] planned = new Object[2];
        return runner.afterApprovalThenDispatch(
                OperationRunner.Request.of(session, ChatSpecs.SEND, in, listed, id, expected),
                () -> {
                    Conversation conversation = shared(session, listed, id);
                    requirePanel(listed, in.panelId().value(), id);
                    Revisions.require(expected, layout.revision());
                    ModelConnection connection = connection(in.connectionId().value(), in.model());
                    requireRevisions(
                            conversation,
                            in.expectedDraftRevision().value(),
                            in.expectedConversationRevision().value());
                    conversations.requireSendable(id);
                    replies.key(connection); // an unreadable key refuses now, before anything is reserved
                    planned[0] = conversation;
                    planned[1] = connection;
                },
                () -> {
                    Conversation conversation = (Conversation) planned[0];
                    ModelConnection connection = (ModelConnection) planned[1];
                    String preview = conversation
                            .draft()
                            .codePoints()
                            .limit(60)
                            .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
                            .toString()
                            .replaceAll("\\p{Cntrl}", " ");
                    return "send chat " + id + " '" + conversation.title() + "' to " + connection.id() + " ("
                            + connection.kind().wire() + " "
                            + connection.baseUrl() + ", model " + in.model() + ") for " + session.clientLabel() + ": \""
                            + preview
                            + (conversation
                                                    .draft()
                                                    .codePointCount(
                                                            0,
                                                            conversation.draft().length())
                                            > 60
                                    ? "…"
                                    : "") + "\"";
                },
                () -> sendPlan(session, (Conversation) planned[0], (ModelConnection) planned[1], in),
                operation -> {
                    ModelConnection connection = connection(in.connectionId().value(), in.model());
                    Optional<String> key = replies.key(connection);
                    Conversations.Sending sending = conversations.beginSend(
                            id,
                            in.expectedDraftRevision().value(),
                            in.expectedConversationRevision().value(),
                            connection.id(),
                            in.model(),
                            requestId);
                    ChatSpecs.Sent sent = new ChatSpecs.Sent(
                            listed.workspace().id(),
                            in.panelId().value(),
                            id,
                            requestId,
                            sending.user().id(),
                            Objects.requireNonNull(sending.assistant(), "a send with a connection has a reply")
                                    .id(),
                            connection.id(),
                            in.model(),
                            Optional.of(sending.conversation().draftRevisionToken()),
                            Optional.empty());
                    streaming.put(operation.id(), requestId);
                    replies.start(sending, connection, key, outcome -> settleSend(operation.id(), sent, outcome));
                });
    }

    ObjectNode stop(Session session, ChatSpecs.StopInput in) {
        WorkspaceAccess.Listed listed = workspaces.resolve(session, in.workspaceId());
        String id = in.conversationId().value();
        String requestId = in.requestId().value();
        return runner.immediate(
                OperationRunner.Request.of(session, ChatSpecs.STOP, in, listed, id + "/" + requestId, -1),
                () -> {
                    shared(session, listed, id);
                    conversations
                            .byRequest(id, requestId)
                            .orElseThrow(() -> new LomiException(
                                    ErrorCode.TARGET_NOT_FOUND, "no request " + requestId + " in " + id));
                },
                operation -> {
                    Optional<Replies.Outcome> stopped = replies.stop(requestId, STOP_WAIT);
                    ChatMessage message = conversations.byRequest(id, requestId).orElseThrow();
                    return Encoder.encode(new ChatSpecs.Stopped(
                            listed.workspace().id(),
                            id,
                            new ChatSpecs.Request(requestId, message.id(), requestStatus(message)),
                            stopped.isEmpty()));
                });
    }

    /** lomi_operation_cancel of a send whose reply streams: stops that request (the ledger already says cancelling). */
    @Override
    public boolean requestStop(Operation operation) {
        String requestId = streaming.get(operation.id());
        if (requestId == null) {
            return false;
        }
        Thread stopper = new Thread(() -> replies.stop(requestId, STOP_WAIT), "lomi-chat-cancel");
        stopper.setDaemon(true);
        stopper.start();
        return true;
    }

    /**
     * The send's operation after its reply ended: complete → succeeded/complete; stopped →
     * cancelled/partial (the provider had the request); failed before any text → failed/none with
     * DEADLINE_EXCEEDED for a timeout, APP_UNAVAILABLE for a provider error; failed or cut off after
     * text arrived → outcome_unknown (the partial reply stays in the conversation). Never re-sent.
     */
    private void settleSend(OperationId operation, ChatSpecs.Sent sent, Replies.Outcome outcome) {
        streaming.remove(operation);
        ObjectNode result = (ObjectNode) Encoder.encode(sent);
        switch (outcome.status()) {
            case "complete" ->
                runner.settle(
                        operation,
                        OperationState.SUCCEEDED,
                        EffectState.COMPLETE,
                        Optional.of(result),
                        Optional.empty());
            case "stopped" -> {
                runner.settle(
                        operation, OperationState.CANCELLING, EffectState.PARTIAL, Optional.empty(), Optional.empty());
                runner.settle(
                        operation,
                        OperationState.CANCELLED,
                        EffectState.PARTIAL,
                        Optional.of(result),
                        Optional.empty());
            }
            default -> {
                String error = outcome.error().orElse("the reply ended without completing");
                result.put("providerError", error);
                if (outcome.bytes() || outcome.status().equals("interrupted")) {
                    runner.settle(
                            operation,
                            OperationState.OUTCOME_UNKNOWN,
                            EffectState.UNKNOWN,
                            Optional.of(result),
                            Optional.of(new OperationError(
                                    ErrorCode.OUTCOME_UNKNOWN,
                                    "the reply was cut off after text arrived (" + error + "), so the provider may"
                                            + " have acted on it; read the conversation (lomi_chat_read) before"
                                            + " sending again")));
                } else {
                    ErrorCode code = error.toLowerCase(java.util.Locale.ROOT).contains("timeout")
                                    || error.toLowerCase(java.util.Locale.ROOT).contains("timed out")
                            ? ErrorCode.DEADLINE_EXCEEDED
                            : ErrorCode.APP_UNAVAILABLE;
                    runner.settle(
                            operation,
                            OperationState.FAILED,
                            EffectState.NONE,
                            Optional.of(result),
                            Optional.of(new OperationError(
                                    code,
                                    "the model provider answered no text (" + error + "); "
                                            + (code == ErrorCode.DEADLINE_EXCEEDED
                                                    ? "send the message again, perhaps shorter"
                                                    : "check the connection's settings and send the message" + " again")
                                            + " with a new requestKey")));
                }
            }
        }
    }

    // ------------------------------------------------------------------ helpers

    private ObjectNode sendPlan(
            Session session, Conversation conversation, ModelConnection connection, ChatSpecs.SendInput in) {
        List<ChatMessage> messages = conversations.messages(conversation.id());
        long context = messages.stream()
                        .mapToLong(m -> m.content().getBytes(StandardCharsets.UTF_8).length)
                        .sum()
                + conversation.draft().getBytes(StandardCharsets.UTF_8).length;
        ObjectNode plan = JsonNodeFactory.instance.objectNode();
        plan.put("conversationId", conversation.id());
        plan.put("conversationTitle", conversation.title());
        plan.put("connectionId", connection.id());
        plan.put("provider", connection.kind().wire());
        plan.put("baseUrl", connection.baseUrl());
        plan.put("model", in.model());
        plan.put("maxOutputTokens", connection.maxOutputTokens());
        plan.put("draftText", conversation.draft());
        plan.put("draftRevision", conversation.draftRevisionToken());
        plan.put("messageCount", messages.size() + 1);
        plan.put("contextBytes", context);
        plan.put("client", session.clientLabel());
        return plan;
    }

    private ModelConnection connection(String connectionId, String model) {
        ModelConnection connection = connections
                .find(connectionId)
                .orElseThrow(
                        () -> new LomiException(ErrorCode.TARGET_NOT_FOUND, "no model connection " + connectionId));
        if (!connection.model().equals(model)) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    "model " + model + " is not the model of connection " + connectionId
                            + " (see lomi_chat_read includeSendTarget)");
        }
        return connection;
    }

    private Optional<ChatSpecs.SendTarget> sendTarget(Conversation conversation) {
        Optional<ModelConnection> connection = conversation
                .connectionId()
                .flatMap(connections::find)
                .or(() -> connections.list().stream().findFirst());
        return connection.map(c -> new ChatSpecs.SendTarget(c.id(), c.model(), c.maxOutputTokens()));
    }

    /** The conversation when it is in the workspace's project and shared with the session (else TARGET_NOT_FOUND). */
    private Conversation shared(Session session, WorkspaceAccess.Listed listed, String id) {
        Optional<Conversation> found = conversations
                .find(id)
                .filter(c -> c.project().equals(listed.project().id()));
        if (found.isEmpty()
                || !conversations.isShared(
                        id, session.clientLabel(), session.id().value())) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND, "no conversation " + id + " shared with this connection");
        }
        return found.get();
    }

    private void requirePanel(WorkspaceAccess.Listed listed, String panelId, String conversationId) {
        Panel panel = layout.view(listed.workspace().id())
                .panel(panelId)
                .orElseThrow(() ->
                        new LomiException(ErrorCode.TARGET_NOT_FOUND, "no panel " + panelId + " in this workspace"));
        if (!showing(panel, conversationId)) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    "panel " + panelId + " does not show conversation " + conversationId
                            + "; open it with lomi_chat_open");
        }
    }

    private static boolean showing(Panel panel, String conversationId) {
        return panel.kind() == PanelKind.CHAT
                && panel.gitView()
                        .filter(v -> v.contains("\"conversationId\":\"" + conversationId + "\""))
                        .isPresent();
    }

    private static void requireRevisions(Conversation conversation, String draftRevision, String conversationRevision) {
        if (!conversation.draftRevisionToken().equals(draftRevision)) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    "the draft is at " + conversation.draftRevisionToken() + ", not " + draftRevision
                            + "; read it again");
        }
        if (!conversation.conversationRevision().equals(conversationRevision)) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    "the conversation is at " + conversation.conversationRevision() + ", not " + conversationRevision
                            + "; read it again");
        }
    }

    private ChatSpecs.Summary summary(Conversation c) {
        return new ChatSpecs.Summary(
                c.id(),
                c.title(),
                c.conversationRevision(),
                lastMessage(c).map(ChatMessage::id),
                Long.toString(c.updatedAt().toEpochMilli()));
    }

    private Optional<ChatMessage> lastMessage(Conversation conversation) {
        List<ChatMessage> messages = conversations.messages(conversation.id());
        return messages.isEmpty() ? Optional.empty() : Optional.of(messages.get(messages.size() - 1));
    }

    private static String requestStatus(ChatMessage message) {
        return message.status().equals("complete") ? "completed" : message.status();
    }

    private static ChatDocuments.Page page(
            String text, long start, int max, String revision, Optional<String> expected) {
        if (expected.isPresent() && !expected.get().equals(revision)) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    "the text changed since that page (revision is now " + revision
                            + "); read again from startUtf16 0");
        }
        return ChatDocuments.page(text, start, max);
    }
}
