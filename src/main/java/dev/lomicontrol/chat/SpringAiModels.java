package dev.lomicontrol.chat;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.ai.anthropic.AnthropicChatModel;
import org.springframework.ai.anthropic.AnthropicChatOptions;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import reactor.core.Disposable;

/**
 * {@link ModelClient} on Spring AI's plain model modules (no auto-configuration): an
 * {@link OpenAiChatModel} or {@link AnthropicChatModel} built for each request from the connection,
 * with the SDK's own retries off ({@code maxRetries 0}: a request is never silently re-sent) and the
 * key passed explicitly (a connection without one sends a placeholder, so the SDK never falls back
 * to a key of the broker's environment such as {@code OPENAI_API_KEY}).
 */
public final class SpringAiModels implements ModelClient {

    /** What a connection without a key sends as its key (local servers ignore it). */
    static final String NO_KEY = "no-key";

    /** The model and options of one request (tools: definitions only; the model module never runs them). */
    private record Built(ChatModel model, ChatOptions options) {}

    private static Built build(Request request, List<ToolCallback> tools) {
        String key = request.apiKey().orElse(NO_KEY);
        if (request.connection().kind() == ModelConnection.Kind.OPENAI) {
            OpenAiChatOptions openAi = OpenAiChatOptions.builder()
                    .baseUrl(request.connection().baseUrl())
                    .apiKey(key)
                    .model(request.model())
                    .maxTokens(request.maxOutputTokens())
                    .timeout(request.timeout())
                    .maxRetries(0)
                    .toolCallbacks(tools)
                    .build();
            return new Built(OpenAiChatModel.builder().options(openAi).build(), openAi);
        }
        AnthropicChatOptions anthropic = AnthropicChatOptions.builder()
                .baseUrl(request.connection().baseUrl())
                .apiKey(key)
                .model(request.model())
                .maxTokens(request.maxOutputTokens())
                .timeout(request.timeout())
                .maxRetries(0)
                .toolCallbacks(tools)
                .build();
        return new Built(AnthropicChatModel.builder().options(anthropic).build(), anthropic);
    }

    @Override
    public Round complete(Request request, List<ToolDeclaration> tools, List<Exchange> exchange) {
        List<ToolCallback> callbacks = new ArrayList<>();
        for (ToolDeclaration tool : tools) {
            callbacks.add(new Declared(ToolDefinition.builder()
                    .name(tool.name())
                    .description(tool.description())
                    .inputSchema(tool.inputSchema())
                    .build()));
        }
        Built built = build(request, callbacks);
        List<Message> messages = new ArrayList<>();
        for (Exchange item : exchange) {
            switch (item.role()) {
                case "system" -> messages.add(new SystemMessage(item.text()));
                case "user" -> messages.add(new UserMessage(item.text()));
                case "assistant" ->
                    messages.add(AssistantMessage.builder()
                            .content(item.text())
                            .toolCalls(item.calls().stream()
                                    .map(c ->
                                            new AssistantMessage.ToolCall(c.id(), "function", c.name(), c.arguments()))
                                    .toList())
                            .build());
                default ->
                    messages.add(ToolResponseMessage.builder()
                            .responses(item.results().stream()
                                    .map(r -> new ToolResponseMessage.ToolResponse(r.id(), r.name(), r.content()))
                                    .toList())
                            .build());
            }
        }
        String key = request.apiKey().orElse(NO_KEY);
        ChatResponse response;
        try {
            response = built.model().call(new Prompt(messages, built.options()));
        } catch (RuntimeException e) {
            throw new IllegalStateException(describe(e).replace(key, "[key]"));
        }
        StringBuilder text = new StringBuilder();
        List<ToolCall> calls = new ArrayList<>();
        for (org.springframework.ai.chat.model.Generation generation : response.getResults()) {
            AssistantMessage output = generation.getOutput();
            text.append(Objects.requireNonNullElse(output.getText(), ""));
            output.getToolCalls().forEach(c -> calls.add(new ToolCall(c.id(), c.name(), c.arguments())));
        }
        return new Round(text.toString(), calls);
    }

    /** A tool the model may call; only its definition is used: the broker runs every call itself. */
    private record Declared(ToolDefinition definition) implements ToolCallback {
        @Override
        public ToolDefinition getToolDefinition() {
            return definition;
        }

        @Override
        public String call(String arguments) {
            throw new IllegalStateException("tool calls are run by the broker's Chat AI, never by the model module");
        }
    }

    @Override
    public Handle stream(Request request, Listener listener) {
        Built built = build(request, List.of());
        ChatModel model = built.model();
        ChatOptions options = built.options();
        String key = request.apiKey().orElse(NO_KEY);
        List<Message> messages = new ArrayList<>();
        for (Turn turn : request.turns()) {
            messages.add(
                    turn.role().equals("assistant") ? new AssistantMessage(turn.text()) : new UserMessage(turn.text()));
        }
        AtomicBoolean ended = new AtomicBoolean();
        Disposable subscription = model.stream(new Prompt(messages, options))
                .subscribe(
                        response -> {
                            String delta = text(response);
                            if (!delta.isEmpty()) {
                                listener.text(delta);
                            }
                        },
                        error -> {
                            if (ended.compareAndSet(false, true)) {
                                listener.failed(describe(error).replace(key, "[key]"));
                            }
                        },
                        () -> {
                            if (ended.compareAndSet(false, true)) {
                                listener.completed();
                            }
                        });
        return () -> {
            ended.set(true);
            subscription.dispose();
        };
    }

    private static String text(ChatResponse response) {
        if (response == null
                || response.getResult() == null
                || response.getResult().getOutput() == null) {
            return "";
        }
        return Objects.requireNonNullElse(response.getResult().getOutput().getText(), "");
    }

    /**
     * The error's causes, outermost first, each as its class and first line ({@code A: m ← B: n}),
     * bounded to 500 characters (SDK messages carry the status and the provider's error, not the key).
     */
    static String describe(Throwable error) {
        StringBuilder text = new StringBuilder();
        java.util.Set<Throwable> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (Throwable cause = error; cause != null && seen.add(cause); cause = cause.getCause()) {
            String message = cause.getMessage() == null
                    ? ""
                    : cause.getMessage().lines().findFirst().orElse("");
            if (text.length() > 0) {
                text.append(" \u2190 ");
            }
            text.append(cause.getClass().getSimpleName()).append(message.isEmpty() ? "" : ": " + message);
        }
        return text.length() > 500 ? text.substring(0, 500) : text.toString();
    }
}
