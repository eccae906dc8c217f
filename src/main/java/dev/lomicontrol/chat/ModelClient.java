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
    record Request(
            ModelConnection connection,
            Optional<String> apiKey,
            String model,
            int maxOutputTokens,
            List<Turn> turns,
            Duration timeout) {
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

    /** A tool the model may call: the catalog's name, description and input schema (JSON text). */
    record ToolDeclaration(String name, String description, String inputSchema) {}

    /** A tool call the model asked for ({@code arguments}: its JSON text, as the model wrote it). */
    record ToolCall(String id, String name, String arguments) {}

    /** The answer to one tool call, as the model will read it. */
    record ToolResult(String id, String name, String content) {}

    /**
     * One message of a tool-using exchange: {@code system}, {@code user} or {@code assistant} text
     * (an assistant message may carry tool calls), or {@code tool} results.
     */
    record Exchange(String role, String text, java.util.List<ToolCall> calls, java.util.List<ToolResult> results) {
        public static Exchange text(String role, String text) {
            return new Exchange(role, text, java.util.List.of(), java.util.List.of());
        }
    }

    /** What the model answered in one round: text, and the tool calls it wants (none: it is done). */
    record Round(String text, java.util.List<ToolCall> calls) {}

    /**
     * One non-streamed round of a tool-using conversation: sends the exchange with the tool
     * declarations and answers the model's text and tool calls. Never runs a tool; never retries.
     * A failure throws (its message names the cause, never the key).
     */
    Round complete(Request request, java.util.List<ToolDeclaration> tools, java.util.List<Exchange> exchange);
}
