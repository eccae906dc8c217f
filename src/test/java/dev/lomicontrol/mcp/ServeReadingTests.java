package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.Eventually;
import dev.lomicontrol.transport.Frames;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link McpServer#serve}: the reading of stdin moves to a worker at each forwarded call, and it still ends
 * {@code serve} however it stops — here, an unexpected failure on the worker that had the reading.
 */
class ServeReadingTests {

    @TempDir
    Path temp;

    @Test
    void anUnexpectedFailureWhileAWorkerReadsStillEndsServe() throws Exception {
        try (MisbehavingBroker broker = new MisbehavingBroker(temp.resolve("store"))) {
            Connector connector =
                    new Connector(Optional.of(broker.discoveryFile), Optional.of(broker.keyHex), Duration.ZERO);
            connector.start();
            try {
                Eventually.until(
                        "the in-process helper connected",
                        Duration.ofSeconds(30),
                        () -> connector.state().phase().wire().equals("connected"));
                Catalog catalog = Catalog.standard();
                ToolCalls calls = new ToolCalls(
                        catalog,
                        new StatusReport(connector),
                        new Bridge(connector, Duration.ofSeconds(5), Frames.MAX_FRAME_BYTES));
                McpServer server =
                        new McpServer(catalog, calls, connector, new StdoutWriter(new FailingOn("boom")), () -> {});
                String lines = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":"
                        + "\"lomi_workspace_list\",\"arguments\":{}}}\n"
                        + "{\"jsonrpc\":\"2.0\",\"id\":\"boom\",\"method\":\"ping\"}\n"
                        + "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}\n";

                CompletableFuture<Void> served = CompletableFuture.runAsync(() -> {
                    try {
                        server.serve(new LineReader(
                                new ByteArrayInputStream(lines.getBytes(StandardCharsets.UTF_8)),
                                McpServer.MAX_LINE_BYTES));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });

                // the ping after the forwarded call is read by a worker; its answer fails unexpectedly there
                served.get(30, TimeUnit.SECONDS);
                assertThat(broker.received("lomi_workspace_list")).isEqualTo(1);
            } finally {
                connector.close();
            }
        }
    }

    /** Stdout that fails (unchecked, as a bug would) on the line answering {@code id}. */
    private static final class FailingOn extends OutputStream {
        private final byte[] marker;

        FailingOn(String id) {
            this.marker = ("\"id\":\"" + id + "\"").getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public void write(int b) throws IOException {}

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            String text = new String(bytes, offset, length, StandardCharsets.UTF_8);
            if (text.contains(new String(marker, StandardCharsets.UTF_8))) {
                throw new IllegalStateException("a bug while answering " + text.trim());
            }
        }
    }
}
