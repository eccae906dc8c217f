package dev.lomicontrol.browser;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Security review 2026-12-06, N3: the pipe is split into messages under caps chosen from their
 * first bytes; a message over its cap is skipped unread and described by its start and end.
 */
class PipeMessagesTests {

    final List<String> messages = new ArrayList<>();
    final List<PipeMessages.Oversized> skipped = new ArrayList<>();
    final PipeMessages reader = new PipeMessages();

    @Test
    void smallMessagesArriveWholeWhateverTheChunks() throws IOException {
        read("{\"id\":1,\"result\":{}}", "{\"method\":\"Page.lifecycleEvent\",\"params\":{},\"sessionId\":\"AB\"}");
        assertThat(messages)
                .containsExactly(
                        "{\"id\":1,\"result\":{}}",
                        "{\"method\":\"Page.lifecycleEvent\",\"params\":{},\"sessionId\":\"AB\"}");
        assertThat(skipped).isEmpty();
    }

    @Test
    void aSixtyMebibyteConsoleEventIsSkippedAndTheNextMessageIsIntact() throws IOException {
        String log =
                "{\"method\":\"Runtime.consoleAPICalled\",\"params\":{\"type\":\"warning\",\"args\":[{\"type\":\"string\",\"value\":\""
                        + "x".repeat(60 << 20) + "\"}],\"executionContextId\":3},\"sessionId\":\"5F1E2D\"}";
        read(log, "{\"id\":7,\"result\":{\"ok\":true}}");
        assertThat(skipped).hasSize(1);
        PipeMessages.Oversized big = skipped.get(0);
        assertThat(big.bytes()).isEqualTo(log.length());
        assertThat(big.cap()).isEqualTo(PipeMessages.LOG_CAP);
        assertThat(big.head()).hasSizeLessThanOrEqualTo(PipeMessages.HEAD);
        assertThat(big.method()).contains("Runtime.consoleAPICalled");
        assertThat(big.sessionId()).contains("5F1E2D");
        assertThat(big.consoleType()).contains("warning");
        assertThat(big.id()).isEmpty();
        assertThat(messages).containsExactly("{\"id\":7,\"result\":{\"ok\":true}}");
        assertThat(reader.capacity())
                .as("the buffer never grew past the log cap")
                .isLessThanOrEqualTo(64 << 10);
    }

    @Test
    void anAnswerMayBeLargeButNotOverItsCapAndTheBufferShrinksAfterwards() throws IOException {
        String large = "{\"id\":2,\"result\":{\"data\":\"" + "A".repeat(6 << 20) + "\"}}";
        String huge = "{\"id\":3,\"result\":{\"data\":\"" + "A".repeat(PipeMessages.ANSWER_CAP) + "\"}}";
        read(large, huge, "{\"id\":4,\"result\":{}}");
        assertThat(messages).hasSize(2);
        assertThat(messages.get(0)).hasSize(large.length());
        assertThat(skipped).hasSize(1);
        assertThat(skipped.get(0).id()).contains(3L);
        assertThat(skipped.get(0).cap()).isEqualTo(PipeMessages.ANSWER_CAP);
        assertThat(reader.capacity()).isEqualTo(64 << 10);
    }

    @Test
    void anOversizedPausedRequestNamesItsRequestId() throws IOException {
        String paused = "{\"method\":\"Fetch.requestPaused\",\"params\":{\"requestId\":\"interception-job-9.0\","
                + "\"request\":{\"url\":\"http://127.0.0.1/?" + "q".repeat(5 << 20) + "\"}},\"sessionId\":\"77\"}";
        read(paused);
        assertThat(skipped).hasSize(1);
        assertThat(skipped.get(0).cap()).isEqualTo(PipeMessages.EVENT_CAP);
        assertThat(skipped.get(0).requestId()).contains("interception-job-9.0");
        assertThat(skipped.get(0).sessionId()).contains("77");
    }

    private void read(String... parts) throws IOException {
        ByteArrayOutputStream pipe = new ByteArrayOutputStream();
        for (String part : parts) {
            pipe.write(part.getBytes(StandardCharsets.UTF_8));
            pipe.write(0);
        }
        reader.read(new ByteArrayInputStream(pipe.toByteArray()), new PipeMessages.Sink() {
            @Override
            public void message(byte[] bytes, int length) {
                messages.add(new String(bytes, 0, length, StandardCharsets.UTF_8));
            }

            @Override
            public void oversized(PipeMessages.Oversized message) {
                skipped.add(message);
            }
        });
    }
}
