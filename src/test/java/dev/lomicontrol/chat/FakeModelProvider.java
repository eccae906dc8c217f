package dev.lomicontrol.chat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions API
 * ({@code POST /v1/chat/completions}, SSE streaming) and the Anthropic messages API
 * ({@code POST /v1/messages}, SSE events) with scripted replies: the only fake in the chat tests
 * (the external provider). It counts requests and keeps each request's body and auth header.
 */
public final class FakeModelProvider implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** One scripted reply: text pieces sent in order; then how it ends. */
    public record Script(List<String> pieces, Ending ending, int status, List<Call> calls) {
        public Script(List<String> pieces, Ending ending, int status) {
            this(pieces, ending, status, List.of());
        }

        /** A non-streamed answer that asks for these tool calls (OpenAI {@code tool_calls}). */
        public static Script toolCalls(Call... calls) {
            return new Script(List.of(), Ending.DONE, 200, List.of(calls));
        }

        public static Script reply(String... pieces) {
            return new Script(List.of(pieces), Ending.DONE, 200);
        }

        /** Sends the pieces, then holds the stream open until {@link FakeModelProvider#release()} (or close). */
        public static Script hold(String... pieces) {
            return new Script(List.of(pieces), Ending.HOLD, 200);
        }

        /** Sends the pieces, then closes the connection without finishing the stream. */
        public static Script cut(String... pieces) {
            return new Script(List.of(pieces), Ending.CUT, 200);
        }

        /** Answers an HTTP error status with a provider-shaped error body. */
        public static Script error(int status) {
            return new Script(List.of(), Ending.ERROR, status);
        }

        /** Never answers (the client's timeout ends it). */
        public static Script silent() {
            return new Script(List.of(), Ending.SILENT, 200);
        }
    }

    public enum Ending {
        DONE,
        HOLD,
        CUT,
        ERROR,
        SILENT
    }

    /** One scripted tool call: its id, the tool and the arguments' JSON text. */
    public record Call(String id, String name, String arguments) {}

    /** One request as received. */
    public record Received(String path, String authorization, String apiKeyHeader, JsonNode body) {}

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread thread = new Thread(r, "fake-model-provider");
        thread.setDaemon(true);
        return thread;
    });
    private final Queue<Script> scripts = new ConcurrentLinkedQueue<>();
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger requests = new AtomicInteger();
    private final CountDownLatch released = new CountDownLatch(1);
    private final CountDownLatch firstPieceSent = new CountDownLatch(1);

    public FakeModelProvider() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.createContext("/v1/chat/completions", exchange -> handle(exchange, false));
        server.createContext("/v1/messages", exchange -> handle(exchange, true));
        server.setExecutor(executor);
        server.start();
    }

    /** The OpenAI-compatible base URL ({@code http://127.0.0.1:PORT/v1}). */
    public String openAiBaseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    /** The Anthropic base URL ({@code http://127.0.0.1:PORT}; the SDK adds {@code /v1/messages}). */
    public String anthropicBaseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public FakeModelProvider script(Script script) {
        scripts.add(script);
        return this;
    }

    public int requests() {
        return requests.get();
    }

    public List<Received> received() {
        return new ArrayList<>(received);
    }

    /** Lets held streams finish. */
    public void release() {
        released.countDown();
    }

    /** Waits until a held or streaming reply has sent its first piece. */
    public boolean awaitFirstPiece(long seconds) throws InterruptedException {
        return firstPieceSent.await(seconds, TimeUnit.SECONDS);
    }

    private void handle(HttpExchange exchange, boolean anthropic) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            requests.incrementAndGet();
            received.add(new Received(
                    exchange.getRequestURI().getPath(),
                    exchange.getRequestHeaders().getFirst("Authorization"),
                    exchange.getRequestHeaders().getFirst("x-api-key"),
                    JSON.readTree(body)));
            Script script = scripts.poll();
            if (script == null) {
                script = Script.reply("(no script)");
            }
            if (script.ending() == Ending.SILENT) {
                released.await(30, TimeUnit.SECONDS);
                return;
            }
            if (script.ending() == Ending.ERROR) {
                byte[] error = (anthropic
                                ? "{\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"scripted failure\"}}"
                                : "{\"error\":{\"message\":\"scripted failure\",\"type\":\"server_error\",\"code\":null}}")
                        .getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(script.status(), error.length);
                exchange.getResponseBody().write(error);
                return;
            }
            if (!received.get(received.size() - 1).body().path("stream").asBoolean(false)) {
                String text = new String(body, StandardCharsets.UTF_8);
                byte[] json =
                        (anthropic ? message(script, text) : completion(script, text)).getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, json.length);
                exchange.getResponseBody().write(json);
                return;
            }
            exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
            // a cut stream promises more bytes than it sends, so its end is an abrupt close, not a finished chunked
            // body
            exchange.sendResponseHeaders(200, script.ending() == Ending.CUT ? 1_000_000 : 0);
            OutputStream out = exchange.getResponseBody();
            if (anthropic) {
                event(
                        out,
                        "message_start",
                        "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\","
                                + "\"model\":\"claude-test\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":3,"
                                + "\"output_tokens\":0}}}");
                event(
                        out,
                        "content_block_start",
                        "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}");
            }
            for (String piece : script.pieces()) {
                if (anthropic) {
                    ObjectNode delta = JsonNodeFactory.instance
                            .objectNode()
                            .put("type", "content_block_delta")
                            .put("index", 0);
                    delta.putObject("delta").put("type", "text_delta").put("text", piece);
                    event(out, "content_block_delta", JSON.writeValueAsString(delta));
                } else {
                    data(out, chunk(piece, null));
                }
                firstPieceSent.countDown();
            }
            if (script.ending() == Ending.HOLD) {
                released.await(30, TimeUnit.SECONDS);
            }
            if (script.ending() == Ending.CUT) {
                return; // closing now leaves the promised length unsent: the client sees the connection end mid-stream
            }
            if (anthropic) {
                event(out, "content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}");
                event(
                        out,
                        "message_delta",
                        "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},"
                                + "\"usage\":{\"output_tokens\":2}}");
                event(out, "message_stop", "{\"type\":\"message_stop\"}");
            } else {
                data(out, chunk(null, "stop"));
                data(out, "[DONE]");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // the client went away (a stop): nothing more to send
        }
    }

    /** A non-streamed chat completion: the pieces as the content, or the scripted tool calls. */
    private static final java.util.regex.Pattern EPOCH =
            java.util.regex.Pattern.compile("retryEpoch[^0-9a-f]{1,12}([0-9a-f]{40})");

    /**
     * {@code {{retryEpoch}}} in scripted arguments stands for the retry epoch the conversation's
     * earlier tool results carry (the model read it from its lomi_connect result), as a model would copy it.
     */
    private static String completion(Script script, String requestBody) {
        java.util.regex.Matcher epoch = EPOCH.matcher(requestBody);
        String retryEpoch = epoch.find() ? epoch.group(1) : "none";
        ObjectNode completion = JsonNodeFactory.instance
                .objectNode()
                .put("id", "chatcmpl-2")
                .put("object", "chat.completion")
                .put("created", 1)
                .put("model", "gpt-test");
        ObjectNode choice = completion.putArray("choices").addObject().put("index", 0);
        ObjectNode message = choice.putObject("message").put("role", "assistant");
        if (script.calls().isEmpty()) {
            message.put("content", String.join("", script.pieces()));
            choice.put("finish_reason", "stop");
        } else {
            message.putNull("content");
            var calls = message.putArray("tool_calls");
            for (Call call : script.calls()) {
                ObjectNode one = calls.addObject().put("id", call.id()).put("type", "function");
                one.putObject("function")
                        .put("name", call.name())
                        .put("arguments", call.arguments().replace("{{retryEpoch}}", retryEpoch));
            }
            choice.put("finish_reason", "tool_calls");
        }
        completion
                .putObject("usage")
                .put("prompt_tokens", 1)
                .put("completion_tokens", 1)
                .put("total_tokens", 2);
        return JSON.writeValueAsString(completion);
    }

    /** A non-streamed Anthropic message: the pieces as one text block, or the scripted tool_use blocks. */
    private static String message(Script script, String requestBody) {
        java.util.regex.Matcher epoch = EPOCH.matcher(requestBody);
        String retryEpoch = epoch.find() ? epoch.group(1) : "none";
        ObjectNode message = JsonNodeFactory.instance
                .objectNode()
                .put("id", "msg_2")
                .put("type", "message")
                .put("role", "assistant")
                .put("model", "claude-test");
        var content = message.putArray("content");
        if (script.calls().isEmpty()) {
            content.addObject().put("type", "text").put("text", String.join("", script.pieces()));
            message.put("stop_reason", "end_turn");
        } else {
            for (Call call : script.calls()) {
                content.addObject()
                        .put("type", "tool_use")
                        .put("id", call.id())
                        .put("name", call.name())
                        .set("input", JSON.readTree(call.arguments().replace("{{retryEpoch}}", retryEpoch)));
            }
            message.put("stop_reason", "tool_use");
        }
        message.putNull("stop_sequence");
        message.putObject("usage").put("input_tokens", 1).put("output_tokens", 1);
        return JSON.writeValueAsString(message);
    }

    private static String chunk(String content, String finish) {
        ObjectNode chunk = JsonNodeFactory.instance
                .objectNode()
                .put("id", "chatcmpl-1")
                .put("object", "chat.completion.chunk")
                .put("created", 1)
                .put("model", "gpt-test");
        ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
        ObjectNode delta = choice.putObject("delta");
        if (content != null) {
            delta.put("role", "assistant").put("content", content);
        }
        if (finish == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finish);
        }
        return JSON.writeValueAsString(chunk);
    }

    private static void data(OutputStream out, String data) throws IOException {
        out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void event(OutputStream out, String name, String data) throws IOException {
        out.write(("event: " + name + "\ndata: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    @Override
    public void close() {
        released.countDown();
        server.stop(0);
        executor.shutdownNow();
    }
}
