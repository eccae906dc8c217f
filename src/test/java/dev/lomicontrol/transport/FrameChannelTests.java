package dev.lomicontrol.transport;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.testing.Eventually;
import dev.lomicontrol.testing.WireFrames;
import dev.lomicontrol.transport.FrameException.Reason;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Plaintext framing over a real Unix socket: limits, deadlines, strict mode — and the server survives each fault. */
class FrameChannelTests {

    static final Duration DEADLINE = Duration.ofSeconds(1);
    static final Duration CONNECT = Duration.ofSeconds(5);
    /** How long a refused connection may take to be seen closed: the failure is already reported, so only a loaded machine makes it slow. */
    static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    final Outcomes outcomes = new Outcomes();
    UnixSocketServer server;

    @BeforeEach
    void startEchoServer() throws Exception {
        server = UnixSocketServer.bind(dir.resolve("frames.sock"), 4, this::echoUntilFailure, DEADLINE);
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    /** Echoes metadata-sized frames; records every frame and the failure that ends the connection. */
    void echoUntilFailure(FrameChannel channel) {
        try {
            while (true) {
                byte[] frame = channel.read(null, Frames.MAX_METADATA_BYTES);
                outcomes.add(frame);
                channel.write(frame);
            }
        } catch (FrameException e) {
            outcomes.add(e);
        }
    }

    @Test
    void framesRoundTripInPlaintext() throws Exception {
        byte[] large = new byte[Frames.MAX_METADATA_BYTES];
        Arrays.fill(large, (byte) 'x');
        try (FrameChannel client = UnixSocketClient.connect(server.socket(), CONNECT)) {
            client.write("hello".getBytes(UTF_8));
            assertThat(client.read(Duration.ofSeconds(5), 64)).asString(UTF_8).isEqualTo("hello");
            client.write(large);
            assertThat(client.read(Duration.ofSeconds(5), Frames.MAX_METADATA_BYTES))
                    .isEqualTo(large);
        }
    }

    @Test
    void twoLargestFramesInARowRoundTripThroughTheReadPause() throws Exception {
        byte[] first = new byte[Frames.MAX_FRAME_BYTES];
        byte[] second = new byte[Frames.MAX_FRAME_BYTES];
        Arrays.fill(first, (byte) 1);
        Arrays.fill(second, (byte) 2);
        try (UnixSocketServer large = UnixSocketServer.bind(dir.resolve("large.sock"), 1, channel -> {
                    try {
                        while (true) {
                            channel.write(channel.read(null, Frames.MAX_FRAME_BYTES));
                        }
                    } catch (FrameException e) {
                        outcomes.add(e);
                    }
                });
                FrameChannel client = UnixSocketClient.connect(large.socket(), CONNECT)) {
            client.write(first);
            client.write(second);
            assertThat(client.read(Duration.ofSeconds(5), Frames.MAX_FRAME_BYTES))
                    .isEqualTo(first);
            assertThat(client.read(Duration.ofSeconds(5), Frames.MAX_FRAME_BYTES))
                    .isEqualTo(second);
        }
    }

    @Test
    void aFrameWrittenByteByByteIsReassembled() throws Exception {
        try (RawClient raw = RawClient.connect(server.socket())) {
            raw.trickle(WireFrames.frame("fragment".getBytes(UTF_8)), Duration.ofMillis(10));
            assertThat(raw.readFrame()).asString(UTF_8).isEqualTo("fragment");
        }
        assertThat(outcomes.nextFrame()).asString(UTF_8).isEqualTo("fragment");
    }

    @Test
    void aLengthOverTheLimitIsRefusedWithoutWaitingForThePayload() throws Exception {
        try (RawClient raw = RawClient.connect(server.socket())) {
            raw.write(WireFrames.prefix(Frames.MAX_METADATA_BYTES + 1));
            // TOO_LARGE, not DEADLINE: refused on the prefix alone, no payload awaited
            assertThat(outcomes.nextFailureReason()).isEqualTo(Reason.TOO_LARGE);
            assertThat(raw.closedByPeerWithin(CLOSE_WAIT)).isTrue();
        }
        assertServerStillServes();
    }

    @Test
    void anOversizedOrEmptyPayloadIsRefusedBeforeWritingAndTheChannelStaysOpen() throws Exception {
        try (FrameChannel client = UnixSocketClient.connect(server.socket(), CONNECT)) {
            assertThatThrownBy(() -> client.write(new byte[Frames.MAX_FRAME_BYTES + 1]))
                    .isInstanceOfSatisfying(
                            FrameException.class, e -> assertThat(e.reason()).isEqualTo(Reason.TOO_LARGE));
            assertThatThrownBy(() -> client.write(new byte[0]))
                    .isInstanceOfSatisfying(
                            FrameException.class, e -> assertThat(e.reason()).isEqualTo(Reason.EMPTY));
            assertThat(client.isOpen())
                    .as("a refused outbound frame leaves the channel open")
                    .isTrue();
            client.write("still open".getBytes(UTF_8));
            assertThat(client.read(Duration.ofSeconds(5), 64)).asString(UTF_8).isEqualTo("still open");
        }
    }

    @Test
    void aZeroLengthIsRefused() throws Exception {
        try (RawClient raw = RawClient.connect(server.socket())) {
            raw.write(WireFrames.prefix(0));
            assertThat(outcomes.nextFailureReason()).isEqualTo(Reason.EMPTY);
            assertThat(raw.closedByPeerWithin(CLOSE_WAIT)).isTrue();
        }
        assertServerStillServes();
    }

    @Test
    void aFrameWhoseBytesStopArrivingIsClosedAfterTheDeadline() throws Exception {
        try (RawClient raw = RawClient.connect(server.socket())) {
            long start = System.nanoTime();
            raw.write(Arrays.copyOf(WireFrames.frame("never finished".getBytes(UTF_8)), 7));
            assertThat(outcomes.nextFailureReason()).isEqualTo(Reason.DEADLINE);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(DEADLINE.minusMillis(20));
            assertThat(raw.closedByPeerWithin(CLOSE_WAIT)).isTrue();
        }
        assertServerStillServes();
    }

    @Test
    void aPeerThatSendsButNeverReadsIsClosedAsDeadlineOnceAnAnswerCannotBeFlushed() throws Exception {
        // the server's write returns before its frame is flushed: the frame deadline, timed on the event
        // loop, still ends a connection whose peer lets the answers pile up (and the writer never queues
        // more than one frame)
        byte[] request = WireFrames.frame(new byte[Frames.MAX_METADATA_BYTES]);
        try (RawClient raw = RawClient.connect(server.socket())) {
            long start = System.nanoTime();
            try {
                for (int i = 0; i < 64; i++) {
                    raw.write(request); // 4 MiB of requests, no answer read: far beyond the socket's buffers
                }
            } catch (java.io.IOException closed) {
                // the server closed the connection while we were still sending
            }
            Object outcome = outcomes.next();
            while (outcome instanceof byte[]) {
                outcome = outcomes.next(); // the requests it read and answered before its answers stopped leaving
            }
            assertThat(outcome).isInstanceOf(FrameException.class);
            assertThat(((FrameException) outcome).reason()).isEqualTo(Reason.DEADLINE);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(DEADLINE.minusMillis(20));
            assertThat(raw.closedByPeerWithin(CLOSE_WAIT)).isTrue();
        }
        assertServerStillServes();
    }

    @Test
    void anAnswerThatCannotBeFlushedEndsTheConnectionWhileTheHandlerWaitsForTheNextRequest() throws Exception {
        // one request, one answer far larger than the socket's buffers, and a peer that reads nothing: the
        // handler's write returns at once and it waits for a request; only the deadline timed on the event
        // loop can end the connection (and its read reports it)
        Outcomes seen = new Outcomes();
        byte[] answer = new byte[4 * 1024 * 1024];
        try (UnixSocketServer big = UnixSocketServer.bind(
                        dir.resolve("big.sock"),
                        1,
                        channel -> {
                            try {
                                channel.read(null, Frames.MAX_METADATA_BYTES);
                                channel.write(answer);
                                seen.add("written");
                                channel.read(null, Frames.MAX_METADATA_BYTES);
                            } catch (FrameException e) {
                                seen.add(e);
                            }
                        },
                        DEADLINE);
                RawClient raw = RawClient.connect(big.socket())) {
            raw.write(WireFrames.frame("send me a lot".getBytes(UTF_8)));
            long start = System.nanoTime();
            assertThat(seen.next()).isEqualTo("written");
            FrameException failure = seen.nextFailure();
            assertThat(failure.reason()).isEqualTo(Reason.DEADLINE);
            assertThat(failure.getMessage()).contains("not flushed");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(DEADLINE.minusMillis(20));
            assertThat(raw.closedByPeerWithin(CLOSE_WAIT)).isTrue();
        }
    }

    @Test
    void aLengthPrefixThatStopsHalfWayIsClosedAfterTheDeadline() throws Exception {
        try (RawClient raw = RawClient.connect(server.socket())) {
            raw.write(new byte[] {0, 0});
            assertThat(outcomes.nextFailureReason()).isEqualTo(Reason.DEADLINE);
            assertThat(raw.closedByPeerWithin(CLOSE_WAIT)).isTrue();
        }
        assertServerStillServes();
    }

    @Test
    void anIdleTimeoutWithoutAnyByteClosesTheChannelAsDeadline() throws Exception {
        try (FrameChannel client = UnixSocketClient.connect(server.socket(), CONNECT)) {
            assertThatThrownBy(() -> client.read(Duration.ofMillis(100), 64))
                    .isInstanceOfSatisfying(
                            FrameException.class, e -> assertThat(e.reason()).isEqualTo(Reason.DEADLINE));
            assertThat(client.isOpen()).isFalse();
        }
        assertThat(outcomes.nextFailureReason()).isEqualTo(Reason.CLOSED);
    }

    @Test
    void framesThatArrivedBeforeThePeerClosedAreStillDelivered() throws Exception {
        try (RawClient raw = RawClient.connect(server.socket())) {
            raw.write(WireFrames.frame("last words".getBytes(UTF_8)));
        }
        assertThat(outcomes.nextFrame()).asString(UTF_8).isEqualTo("last words");
        assertThat(outcomes.nextFailureReason()).isEqualTo(Reason.CLOSED);
    }

    @Test
    void onCloseRunsOnceWhenThePeerCloses() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch closed = new CountDownLatch(1);
        try (RawClient raw = RawClient.connect(server.socket())) {
            raw.write(WireFrames.prefix(0)); // the server refuses and closes
            try (FrameChannel client = UnixSocketClient.connect(server.socket(), CONNECT)) {
                client.onClose(() -> {
                    runs.incrementAndGet();
                    closed.countDown();
                });
                server.close();
                // the client's socket channel notices a close when it next looks (isOpen), and runs onClose then
                Eventually.until("the client saw the close", Duration.ofSeconds(5), () -> !client.isOpen());
                assertThat(closed.await(0, TimeUnit.SECONDS)).isTrue();
                client.close();
                assertThatThrownBy(() -> client.read(null, 64)).isInstanceOf(FrameException.class);
            }
        }
        Eventually.holdsFor("onClose ran once and not again", Duration.ofMillis(300), () -> runs.get() == 1);
    }

    /** The fault closed one connection only: a fresh client still round-trips. */
    private void assertServerStillServes() throws Exception {
        try (FrameChannel client = UnixSocketClient.connect(server.socket(), CONNECT)) {
            client.write("next".getBytes(UTF_8));
            assertThat(client.read(Duration.ofSeconds(5), 64)).asString(UTF_8).isEqualTo("next");
        }
    }
}
