package dev.lomicontrol.chat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replies in progress: each streams from its provider into the assistant message's checkpoint (at
 * most every {@code checkpointEvery}, and at the end) and ends exactly once — {@code complete},
 * {@code stopped} (by {@link #stop}), or {@code failed}. Nothing is retried.
 */
public final class Replies {

    private static final Logger log = LoggerFactory.getLogger(Replies.class);

    private final Conversations conversations;
    private final ModelConnections connections;
    private final ModelClient client;
    private final Clock clock;
    private final Duration checkpointEvery;
    private final Duration timeout;
    private final Map<String, Reply> running = new ConcurrentHashMap<>();
    private volatile @Nullable ToolGateway gateway;

    public Replies(
            Conversations conversations,
            ModelConnections connections,
            ModelClient client,
            Clock clock,
            Duration checkpointEvery,
            Duration timeout) {
        this.conversations = conversations;
        this.connections = connections;
        this.client = client;
        this.clock = clock;
        this.checkpointEvery = checkpointEvery;
        this.timeout = timeout;
    }

    /** How a reply ended, and the status its message is saved with. */
    public enum Ending {
        COMPLETE("complete"),
        STOPPED("stopped"),
        FAILED("failed"),
        /** The broker stopped while the reply streamed. */
        INTERRUPTED("interrupted");

        private final String status;

        Ending(String status) {
            this.status = status;
        }

        /** The message status saved for this ending. */
        public String status() {
            return status;
        }
    }

    /** How a reply ended. {@code bytes}: whether any text had arrived; {@code text}: what was persisted. */
    public record Outcome(Ending ending, String text, boolean bytes, Optional<String> error) {
        public boolean completed() {
            return ending == Ending.COMPLETE;
        }
    }

    /**
     * The key of {@code connection}, read now (HOST_UNQUALIFIED when its variable or file is missing),
     * so that a send can refuse before anything is persisted or sent.
     */
    public Optional<String> key(ModelConnection connection) {
        return connections.apiKey(connection);
    }

    /**
     * Sends the conversation up to {@code sending.user()} and streams the answer into
     * {@code sending.assistant()}; {@code ended} hears the outcome once, after it was persisted.
     */
    public void start(
            Conversations.Sending sending,
            ModelConnection connection,
            Optional<String> apiKey,
            Consumer<Outcome> ended) {
        ChatMessage assistant =
                Objects.requireNonNull(sending.assistant(), "a reply starts for a send with a connection");
        String requestId = assistant.requestId().orElseThrow();
        List<ModelClient.Turn> turns = new ArrayList<>();
        for (ChatMessage message : conversations.messages(sending.conversation().id())) {
            if (message.id().equals(assistant.id())) {
                break;
            }
            if (message.role().equals("user") || !message.content().isEmpty()) {
                turns.add(new ModelClient.Turn(message.role(), message.content()));
            }
        }
        Reply reply = new Reply(assistant.id(), requestId, ended);
        running.put(requestId, reply);
        ToolGateway tools = gateway;
        if (sending.conversation().tools() && tools != null) {
            ModelClient.Request request = new ModelClient.Request(
                    connection,
                    apiKey,
                    assistant.model().orElse(connection.model()),
                    connection.maxOutputTokens(),
                    turns,
                    timeout);
            Thread worker = new Thread(
                    () -> withTools(new ChatAi(client, tools), request, sending, turns, reply),
                    "lomi-chat-ai-" + requestId);
            worker.setDaemon(true);
            reply.handle = worker::interrupt;
            worker.start();
            return;
        }
        try {
            reply.handle = client.stream(
                    new ModelClient.Request(
                            connection,
                            apiKey,
                            assistant.model().orElse(connection.model()),
                            connection.maxOutputTokens(),
                            turns,
                            timeout),
                    reply);
        } catch (RuntimeException e) {
            reply.end(Ending.FAILED, Optional.of(SpringAiModels.describe(e)));
        }
    }

    /** Lets conversations with tools on use the broker's tools through {@code gateway} (the broker sets it once its dispatcher exists). */
    public void useTools(ToolGateway gateway) {
        this.gateway = gateway;
    }

    /** Whether the request's reply is still streaming in this broker. */
    public boolean running(String requestId) {
        return running.containsKey(requestId);
    }

    /**
     * Stops one request: its stream is cancelled (what the provider received is not undone) and its
     * checkpoint saved as {@code stopped}, waiting at most {@code wait}. Empty when the request is not
     * streaming here (it had finished). DEADLINE_EXCEEDED when the checkpoint was not saved in time.
     */
    public Optional<Outcome> stop(String requestId, Duration wait) {
        Reply reply = running.get(requestId);
        if (reply == null) {
            return Optional.empty();
        }
        // the checkpoint is saved first (later text is ignored from then on), then the stream is cancelled:
        // cancelling a provider's stream may take a while, the stop answer must not wait for it
        Thread stopper = new Thread(
                () -> {
                    reply.end(Ending.STOPPED, Optional.empty());
                    ModelClient.Handle handle = reply.handle;
                    if (handle != null) {
                        handle.stop();
                    }
                },
                "lomi-chat-stop");
        stopper.setDaemon(true);
        stopper.start();
        try {
            if (!reply.done.await(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new LomiException(
                        ErrorCode.DEADLINE_EXCEEDED,
                        "the checkpoint of request " + requestId + " was not saved within " + wait.toSeconds()
                                + " s; read the conversation again");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LomiException(ErrorCode.DEADLINE_EXCEEDED, "interrupted while stopping request " + requestId);
        }
        return Optional.of(Objects.requireNonNull(reply.outcome, "the outcome is set before done counts down"));
    }

    /** The built-in Chat AI's request: tool rounds, then the final text as the reply. */
    private void withTools(
            ChatAi ai,
            ModelClient.Request request,
            Conversations.Sending sending,
            List<ModelClient.Turn> turns,
            Reply reply) {
        ChatAi.Ended ended = ai.run(
                request,
                sending.conversation().id(),
                sending.conversation().project(),
                turns,
                reply::finished,
                waiting -> conversations.checkpoint(
                        reply.messageId,
                        "(waiting for the admin to approve the Chat AI's pairing request " + waiting + ")"));
        if (ended.failure().isPresent()) {
            reply.failedAfter(ended.failure().get(), ended.calls() > 0);
            return;
        }
        reply.text(ended.text());
        reply.completed();
    }

    /** Cancels every stream (broker shutdown); their messages end {@code interrupted}. */
    public void close() {
        for (Reply reply : running.values()) {
            ModelClient.Handle handle = reply.handle;
            if (handle != null) {
                handle.stop();
            }
            reply.end(Ending.INTERRUPTED, Optional.of("the broker stopped while the reply streamed"));
        }
    }

    private final class Reply implements ModelClient.Listener {
        private final String messageId;
        private final String requestId;
        private final Consumer<Outcome> ended;
        private final StringBuilder text = new StringBuilder();
        private final CountDownLatch done = new CountDownLatch(1);
        private volatile ModelClient.@Nullable Handle handle;
        private volatile @Nullable Outcome outcome;
        private boolean finished;
        private boolean bytes;
        private long lastCheckpoint;

        Reply(String messageId, String requestId, Consumer<Outcome> ended) {
            this.messageId = messageId;
            this.requestId = requestId;
            this.ended = ended;
        }

        @Override
        public void text(String delta) {
            String snapshot;
            synchronized (this) {
                if (finished) {
                    return;
                }
                text.append(delta);
                bytes = true;
                long now = clock.millis();
                if (now - lastCheckpoint < checkpointEvery.toMillis()) {
                    return;
                }
                lastCheckpoint = now;
                snapshot = text.toString();
            }
            conversations.checkpoint(messageId, snapshot);
        }

        synchronized boolean finished() {
            return finished;
        }

        /** A Chat AI failure: after a tool ran the effect of the request is partly there (bytes = true). */
        void failedAfter(String what, boolean toolsRan) {
            synchronized (this) {
                if (toolsRan) {
                    bytes = true;
                }
            }
            end(Ending.FAILED, Optional.of(what));
        }

        @Override
        public void completed() {
            end(Ending.COMPLETE, Optional.empty());
        }

        @Override
        public void failed(String what) {
            end(Ending.FAILED, Optional.of(what));
        }

        /** Persists the end once (the first caller wins), then tells the operation. */
        void end(Ending ending, Optional<String> error) {
            Outcome result;
            synchronized (this) {
                if (finished) {
                    return;
                }
                finished = true;
                result = new Outcome(ending, text.toString(), bytes, error);
            }
            try {
                conversations.finish(messageId, ending.status(), result.text(), error);
            } catch (RuntimeException e) {
                log.warn("chat request {}: the final checkpoint could not be saved: {}", requestId, e.toString());
            } finally {
                outcome = result;
                running.remove(requestId);
                done.countDown();
            }
            try {
                ended.accept(result);
            } catch (RuntimeException e) {
                log.warn("chat request {}: settling its operation failed: {}", requestId, e.toString());
            }
        }
    }
}
