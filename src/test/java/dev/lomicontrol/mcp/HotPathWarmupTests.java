package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.lomicontrol.transport.Frames;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The helper's warm-up runs its per-call code on synthetic data to the end (a failure would only be
 * logged by the helper, so it is caught here), sends nothing and writes nothing to the session's
 * stdout; and a real session starts it after its first {@code initialize} answer.
 */
class HotPathWarmupTests {

    @Test
    void theWarmUpRunsEveryStepToTheEndAndWritesNothing() {
        Connector connector = new Connector(Optional.empty(), Optional.empty(), Duration.ZERO);
        ToolCalls calls = new ToolCalls(
                Catalog.standard(),
                new StatusReport(connector),
                new Bridge(connector, Duration.ofSeconds(5), Frames.MAX_FRAME_BYTES));
        PrintStream original = System.out;
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
        try {
            assertThatCode(() -> new HotPathWarmup(calls).run(HotPathWarmup.RUNS))
                    .doesNotThrowAnyException();
        } finally {
            System.setOut(original);
        }
        assertThat(stdout.size()).isZero();
        assertThat(connector.state().phase().wire()).isEqualTo("app_unavailable");
    }

    @Test
    void aSessionStartsTheWarmUpAfterItsInitializeAnswer() throws Exception {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        int[] started = {0};
        Connector connector = new Connector(Optional.empty(), Optional.empty(), Duration.ZERO);
        Catalog catalog = Catalog.standard();
        McpServer server = new McpServer(
                catalog,
                new ToolCalls(
                        catalog,
                        new StatusReport(connector),
                        new Bridge(connector, Duration.ofSeconds(5), Frames.MAX_FRAME_BYTES)),
                connector,
                new StdoutWriter(stdout),
                () -> {
                    assertThat(stdout.toString(StandardCharsets.UTF_8))
                            .as("the answer is out first")
                            .contains("\"protocolVersion\"");
                    started[0]++;
                });
        String ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
        String initialize =
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\"}}";
        server.accept(new LineReader.Line.Complete(ping.getBytes(StandardCharsets.UTF_8)));
        assertThat(started[0]).isZero();
        server.accept(new LineReader.Line.Complete(initialize.getBytes(StandardCharsets.UTF_8)));
        assertThat(started[0]).isEqualTo(1);
    }
}
