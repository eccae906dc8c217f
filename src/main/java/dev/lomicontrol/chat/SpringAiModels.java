package dev.lomicontrol.chat;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.ai.anthropic.AnthropicChatModel;
import org.springframework.ai.anthropic.AnthropicChatOptions;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;
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

    @Override
    public Handle stream(Request request, Listener listener) {
        ChatModel model;
        ChatOptions options;
        String key = request.apiKey().orElse(NO_KEY);
        if (request.connection().kind() == ModelConnection.Kind.OPENAI) {
            OpenAiChatOptions openAi = OpenAiChatOptions.builder().baseUrl(request.connection().baseUrl()).apiKey(key).model(request.model())
                    .maxTokens(request.maxOutputTokens()).timeout(request.timeout()).maxRetries(0).build();
            model = OpenAiChatModel.builder().options(openAi).build();
            options = openAi;
        } else {
            AnthropicChatOptions anthropic = AnthropicChatOptions.builder().baseUrl(request.connection().baseUrl()).apiKey(key).model(request.model())
                    .maxTokens(request.maxOutputTokens()).timeout(request.timeout()).maxRetries(0).build();
            model = AnthropicChatModel.builder().options(anthropic).build();
            options = anthropic;
        }
        List<Message> messages = new ArrayList<>();
        for (Turn turn : request.turns()) {
            messages.add(turn.role().equals("assistant") ? new AssistantMessage(turn.text()) : new UserMessage(turn.text()));
        }
        AtomicBoolean ended = new AtomicBoolean();
        Disposable subscription = model.stream(new Prompt(messages, options)).subscribe(response -> {
            String delta = text(response);
            if (!delta.isEmpty()) {
                listener.text(delta);
            }
        }, error -> {
            if (ended.compareAndSet(false, true)) {
                listener.failed(describe(error).replace(key, "[key]"));
            }
        }, () -> {
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
        if (response == null || response.getResult() == null || response.getResult().getOutput() == null) {
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
            String message = cause.getMessage() == null ? "" : cause.getMessage().lines().findFirst().orElse("");
            if (text.length() > 0) {
                text.append(" \u2190 ");
            }
            text.append(cause.getClass().getSimpleName()).append(message.isEmpty() ? "" : ": " + message);
        }
        return text.length() > 500 ? text.substring(0, 500) : text.toString();
    }
}
