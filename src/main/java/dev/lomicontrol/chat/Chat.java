package dev.lomicontrol.chat;

import dev.lomicontrol.ledger.Ledger;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The chat module's entry point: the conversations, the model connections and the replies in
 * progress, over one store. {@link #open} ends replies a previous run left streaming as
 * {@code interrupted} (never resumed, never re-sent).
 */
public record Chat(Conversations conversations, ModelConnections connections, Replies replies)
        implements AutoCloseable {

    public static Chat open(
            Ledger store,
            Clock clock,
            ChatProperties properties,
            ModelClient client,
            UnaryOperator<String> environment) {
        Conversations conversations = new Conversations(store, clock, new SecureRandom());
        conversations.interruptStreaming();
        ModelConnections connections = new ModelConnections(store, clock, environment);
        Replies replies = new Replies(
                conversations,
                connections,
                client,
                clock,
                properties.checkpointInterval(),
                properties.requestTimeout());
        return new Chat(conversations, connections, replies);
    }

    /**
     * The admin's own message ({@code chat say}): appended at once, no approval. With a connection
     * (named, else the one the conversation used last) its model answers: the reply streams into
     * the conversation like any other. Returns the assistant message that streams, if any.
     */
    public java.util.Optional<ChatMessage> say(
            String conversationId, String text, java.util.Optional<String> connectionId) {
        Conversation conversation = conversations
                .find(conversationId)
                .orElseThrow(() -> new dev.lomicontrol.core.LomiException(
                        dev.lomicontrol.core.ErrorCode.TARGET_NOT_FOUND, "no conversation " + conversationId));
        java.util.Optional<String> named = connectionId.or(conversation::connectionId);
        if (named.isEmpty()) {
            return java.util.Optional.ofNullable(conversations
                    .say(
                            conversationId,
                            text,
                            java.util.Optional.empty(),
                            java.util.Optional.empty(),
                            java.util.Optional.empty())
                    .assistant());
        }
        ModelConnection connection = connections
                .find(named.get())
                .orElseThrow(() -> new dev.lomicontrol.core.LomiException(
                        dev.lomicontrol.core.ErrorCode.TARGET_NOT_FOUND, "no connection " + named.get()));
        java.util.Optional<String> key = replies.key(connection);
        String requestId = "req-" + dev.lomicontrol.core.Ids.randomHex(new SecureRandom(), 8);
        Conversations.Sending sending = conversations.say(
                conversationId,
                text,
                java.util.Optional.of(connection.id()),
                java.util.Optional.of(connection.model()),
                java.util.Optional.of(requestId));
        replies.start(sending, connection, key, outcome -> {});
        return java.util.Optional.of(
                Objects.requireNonNull(sending.assistant(), "a send with a connection has a reply"));
    }

    @Override
    public void close() {
        replies.close();
    }
}
