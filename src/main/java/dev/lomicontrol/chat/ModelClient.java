package dev.lomicontrol.chat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * One streamed request to a model provider. {@link #stream} sends it and returns at once; the
 * listener hears each piece of text and then exactly one of {@code completed} or {@code failed},
 * on another thread. Nothing is ever re-sent: a failure is reported, never retried.
 */
public interface ModelClient {

    /** A message of the conversation as the provider sees it: role {@code user} or {@code assistant}. */
    record Turn(String role, String text) {}

    /**
     * What to send: the connection, its key (read just now; empty when it names none), the model,
     * the output token limit, the conversation so far, and how long the provider may take.
     */
    record Request(ModelConnection connection, Optional<String> apiKey, String model, int maxOutputTokens, List<Turn> turns, Duration timeout) {
        @Override
        public String toString() {
            return "Request[" + connection.id() + ", " + model + ", " + turns.size() + " turns]"; // never the key
        }
    }

    interface Listener {
        void text(String delta);

        void completed();

        /** The request failed: {@code what} says how (status, timeout), never with a key in it. */
        void failed(String what);
    }

    /** Stops the request's stream (the provider has already received it; nothing is undone). */
    @FunctionalInterface
    interface Handle {
        void stop();
    }

    Handle stream(Request request, Listener listener);
}
