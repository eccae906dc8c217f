package dev.lomicontrol.chat.tools;

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
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
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
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code lomi_chat_send}: the send parks in {@code awaiting_user} with its exact text, model and
 * connection; approval persists the draft as a user message and starts the provider's stream, and
 * the operation settles when the reply ends ({@link #settleSend}). A cancel of a streaming send stops
 * its request ({@link #requestStop}).
 */
final class ChatSends {

    /** How long lomi_chat_stop (and a cancel) waits for the stopped reply's checkpoint. */
    static final Duration STOP_WAIT = Duration.ofSeconds(5);

    private final Conversations conversations;
    private final ModelConnections connections;
    private final Replies replies;
    private final WorkspaceAccess workspaces;
    private final OperationRunner runner;
    private final Layout layout;
    private final ChatAccess access;
    private final SecureRandom random = new SecureRandom();
    /** Send operations whose reply streams, by operation id: their request id (a cancel stops it). */
    private final Map<OperationId, String> streaming = new ConcurrentHashMap<>();

    ChatSends(
            Conversations conversations,
            ModelConnections connections,
            Replies replies,
            WorkspaceAccess workspaces,
            OperationRunner runner,
            Layout layout,
            ChatAccess access) {
        this.conversations = conversations;
        this.connections = connections;
        this.replies = replies;
        this.workspaces = workspaces;
        this.runner = runner;
        this.layout = layout;
        this.access = access;
    }

    /** What the send's admission found, for the plan the admin approves: the conversation and the connection. */
    private record Planned(Conversation conversation, ModelConnection connection) {}

    /** The send's admission: the checks run before the receipt exists, and what they found ({@link #planned}). */
    private final class Admitted implements OperationRunner.Admission {
        private final Session session;
        private final WorkspaceAccess.Listed listed;
        private final ChatSpecs.SendInput in;
        private @Nullable Planned found;

        Admitted(Session session, WorkspaceAccess.Listed listed, ChatSpecs.SendInput in) {
            this.session = session;
            this.listed = listed;
            this.in = in;
        }

        @Override
        public void check() {
            String id = in.conversationId().value();
            Conversation conversation = access.shared(session, listed, id);
            access.requirePanel(listed, in.panelId().value(), id);
            Revisions.require(in.expectedRevision().asLong(), layout.revision());
            ModelConnection connection = connection(in.connectionId().value(), in.model());
            ChatAccess.requireRevisions(
                    conversation,
                    in.expectedDraftRevision().value(),
                    in.expectedConversationRevision().value());
            conversations.requireSendable(id);
            replies.key(connection); // an unreadable key refuses now, before anything is reserved
            found = new Planned(conversation, connection);
        }

        /** What {@link #check} found (only after it passed). */
        Planned planned() {
            if (found == null) {
                throw new IllegalStateException("the send was not admitted");
            }
            return found;
        }

        String summary() {
            Conversation conversation = planned().conversation();
            ModelConnection connection = planned().connection();
            String preview = conversation
                    .draft()
                    .codePoints()
                    .limit(60)
                    .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
                    .toString()
                    .replaceAll("\\p{Cntrl}", " ");
            return "send chat " + in.conversationId().value() + " '" + conversation.title() + "' to " + connection.id()
                    + " ("
                    + connection.kind().wire() + " "
                    + connection.baseUrl() + ", model " + in.model() + ") for " + session.clientLabel() + ": \""
                    + preview
                    + (conversation
                                            .draft()
                                            .codePointCount(
                                                    0, conversation.draft().length())
                                    > 60
                            ? "…"
                            : "")
                    + "\"";
        }

        ObjectNode plan() {
            return sendPlan(session, planned().conversation(), planned().connection(), in);
        }
    }

    ObjectNode send(Session session, ChatSpecs.SendInput in) {
        WorkspaceAccess.Listed listed = workspaces.resolve(session, in.workspaceId());
        long expected = in.expectedRevision().asLong();
        String id = in.conversationId().value();
        String requestId = "req-" + Ids.randomHex(random, 8);
        Admitted admitted = new Admitted(session, listed, in);
        return runner.afterApprovalThenDispatch(
                OperationRunner.Request.of(session, ChatSpecs.SEND, in, listed, id, OptionalLong.of(expected)),
                admitted,
                admitted::summary,
                admitted::plan,
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

    /** lomi_operation_cancel of a send whose reply streams: stops that request (the ledger already says cancelling). */
    boolean requestStop(Operation operation) {
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
        switch (outcome.ending()) {
            case COMPLETE ->
                runner.settle(
                        operation,
                        OperationState.SUCCEEDED,
                        EffectState.COMPLETE,
                        Optional.of(result),
                        Optional.empty());
            case STOPPED -> {
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
                if (outcome.bytes() || outcome.ending() == Replies.Ending.INTERRUPTED) {
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
}
