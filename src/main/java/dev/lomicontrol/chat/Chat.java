package dev.lomicontrol.chat;

import dev.lomicontrol.ledger.Ledger;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.function.UnaryOperator;

/**
 * The chat module's entry point: the conversations, the model connections and the replies in
 * progress, over one store. {@link #open} ends replies a previous run left streaming as
 * {@code interrupted} (never resumed, never re-sent).
 */
public record Chat(Conversations conversations, ModelConnections connections, Replies replies) implements AutoCloseable {

    public static Chat open(Ledger store, Clock clock, ChatProperties properties, ModelClient client, UnaryOperator<String> environment) {
        Conversations conversations = new Conversations(store, clock, new SecureRandom());
        conversations.interruptStreaming();
        ModelConnections connections = new ModelConnections(store, clock, environment);
        Replies replies = new Replies(conversations, connections, client, clock, properties.checkpointInterval(), properties.requestTimeout());
        return new Chat(conversations, connections, replies);
    }

    @Override
    public void close() {
        replies.close();
    }
}
