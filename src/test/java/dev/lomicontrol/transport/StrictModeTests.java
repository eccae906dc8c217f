package dev.lomicontrol.transport;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.testing.Eventually;
import dev.lomicontrol.testing.WireFrames;
import dev.lomicontrol.transport.FrameException.Reason;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One request in flight: while strict, any inbound byte ends the connection. */
class StrictModeTests {

    static final Duration WAIT = Duration.ofSeconds(5);

    @TempDir
    Path dir;

    final Outcomes outcomes = new Outcomes();

    /** Reads a request, turns strict on, waits for {@code release}, then leaves strict mode and answers. */
    void slowRequest(FrameChannel channel, CountDownLatch inFlight, CountDownLatch release) {
        try {
            while (true) {
                byte[] request = channel.read(null, 64);
                channel.setStrict(true);
                inFlight.countDown();
                release.await(5, TimeUnit.SECONDS);
                channel.setStrict(false); // before the answer: a prompt next request must not race it
                channel.write(request);
            }
        } catch (FrameException e) {
            outcomes.add(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aByteSentWhileStrictClosesTheConnection() throws Exception {
        CountDownLatch inFlight = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (UnixSocketServer server =
                        UnixSocketServer.bind(dir.resolve("strict.sock"), 2, c -> slowRequest(c, inFlight, release));
                FrameChannel client = UnixSocketClient.connect(server.socket(), WAIT)) {
            CountDownLatch closed = new CountDownLatch(1);
            client.onClose(closed::countDown);
            client.write("first".getBytes(UTF_8));
            assertThat(inFlight.await(5, TimeUnit.SECONDS)).isTrue();
            client.write("pipelined".getBytes(UTF_8));
            // the client's socket channel notices a close when it next looks (isOpen), and runs onClose then
            Eventually.until("the server closed the connection", WAIT, () -> !client.isOpen());
            assertThat(closed.await(0, TimeUnit.SECONDS)).as("onClose ran").isTrue();
            release.countDown();
            assertThat(outcomes.nextFailureReason()).isEqualTo(Reason.PIPELINED);
            assertThatThrownBy(() -> client.read(WAIT, 64))
                    .isInstanceOfSatisfying(
                            FrameException.class, e -> assertThat(e.reason()).isEqualTo(Reason.CLOSED));
        }
    }

    @Test
    void aClientThatWaitsForEachAnswerIsServedWhileStrictModeIsOn() throws Exception {
        CountDownLatch released = new CountDownLatch(0);
        try (UnixSocketServer server = UnixSocketServer.bind(
                        dir.resolve("strict.sock"), 2, c -> slowRequest(c, new CountDownLatch(1), released));
                FrameChannel client = UnixSocketClient.connect(server.socket(), WAIT)) {
            for (String request : new String[] {"one", "two", "three"}) {
                client.write(request.getBytes(UTF_8));
                assertThat(client.read(WAIT, 64)).asString(UTF_8).isEqualTo(request);
            }
        }
    }

    @Test
    void turningStrictOnWithUnreadBytesWaitingClosesTheConnection() throws Exception {
        try (UnixSocketServer server = UnixSocketServer.bind(dir.resolve("strict.sock"), 2, channel -> {
                    try {
                        // both frames came in one write, so they arrive in one read: "two" is buffered once "one" is
                        // delivered
                        channel.read(null, 64);
                        channel.setStrict(true);
                        channel.write("answer".getBytes(UTF_8));
                    } catch (FrameException e) {
                        outcomes.add(e);
                    }
                });
                RawClient raw = RawClient.connect(server.socket())) {
            byte[] one = WireFrames.frame("one".getBytes(UTF_8));
            byte[] two = WireFrames.frame("two".getBytes(UTF_8));
            byte[] both = java.util.Arrays.copyOf(one, one.length + two.length);
            System.arraycopy(two, 0, both, one.length, two.length);
            raw.write(both);
            assertThat(outcomes.nextFailureReason()).isEqualTo(Reason.PIPELINED);
            assertThat(raw.closedByPeerWithin(WAIT)).isTrue();
        }
    }
}
