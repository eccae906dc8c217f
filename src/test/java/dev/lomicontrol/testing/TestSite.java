package dev.lomicontrol.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP server on 127.0.0.1 serving the browser test pages from {@code src/test/resources/browser}
 * ({@code .js} as JavaScript, the rest as HTML):
 * {@code /} (a form, a button that changes text and posts {@code /clicked}, a key field, a file input,
 * a download link, an iframe, console errors), {@code /file.bin} (100 000 fixed pseudo-random bytes),
 * {@code /redirect?to=URL} (302), {@code /cookie?set=V} and {@code /whoami} (echoes the Cookie header).
 * It counts clicks and records every path requested.
 */
public final class TestSite implements AutoCloseable {

    public static final byte[] FILE = bytes();

    private final HttpServer server;
    public final AtomicInteger clicks = new AtomicInteger();
    public final List<String> requests = new CopyOnWriteArrayList<>();

    public TestSite() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newFixedThreadPool(4, r -> {
            Thread thread = new Thread(r, "test-site");
            thread.setDaemon(true);
            return thread;
        }));
        server.createContext("/", this::handle);
        server.start();
    }

    /** {@code http://127.0.0.1:PORT} */
    public String origin() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public String url(String path) {
        return origin() + path;
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String query = exchange.getRequestURI().getRawQuery() == null
                ? ""
                : exchange.getRequestURI().getRawQuery();
        requests.add(path);
        try (exchange) {
            switch (path) {
                case "/clicked":
                    clicks.incrementAndGet();
                    send(exchange, 200, "text/plain", "ok".getBytes(StandardCharsets.UTF_8));
                    return;
                case "/file.bin":
                    send(exchange, 200, "application/octet-stream", FILE);
                    return;
                case "/redirect":
                    exchange.getResponseHeaders()
                            .add(
                                    "Location",
                                    java.net.URLDecoder.decode(query.replaceFirst("^to=", ""), StandardCharsets.UTF_8));
                    exchange.sendResponseHeaders(302, -1);
                    return;
                case "/cookie":
                    exchange.getResponseHeaders()
                            .add("Set-Cookie", "who=" + query.replaceFirst("^set=", "") + "; Path=/");
                    send(exchange, 200, "text/html", "<p>cookie set</p>".getBytes(StandardCharsets.UTF_8));
                    return;
                case "/whoami":
                    String cookie = exchange.getRequestHeaders().getFirst("Cookie");
                    send(
                            exchange,
                            200,
                            "text/html",
                            ("<p>cookie: [" + (cookie == null ? "" : cookie) + "]</p>")
                                    .getBytes(StandardCharsets.UTF_8));
                    return;
                default:
                    String name = path.equals("/") ? "index.html" : path.substring(1);
                    try (InputStream in = TestSite.class.getResourceAsStream("/browser/" + name)) {
                        if (in == null || name.contains("/")) {
                            send(exchange, 404, "text/plain", "not found".getBytes(StandardCharsets.UTF_8));
                            return;
                        }
                        String type = name.endsWith(".js") ? "text/javascript" : "text/html; charset=utf-8";
                        send(exchange, 200, type, in.readAllBytes());
                    }
            }
        }
    }

    private static void send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", type);
        exchange.getResponseHeaders().add("Cache-Control", "no-store");
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
    }

    private static byte[] bytes() {
        byte[] out = new byte[100_000];
        new Random(15).nextBytes(out);
        return out;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
