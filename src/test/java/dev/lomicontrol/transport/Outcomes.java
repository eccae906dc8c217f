package dev.lomicontrol.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** What server-side handlers saw, in order: frames (byte[]) and failures (FrameException), across connections. */
final class Outcomes {

    private final BlockingQueue<Object> seen = new LinkedBlockingQueue<>();

    void add(Object outcome) {
        seen.add(outcome);
    }

    Object next() throws InterruptedException {
        Object outcome = seen.poll(10, TimeUnit.SECONDS);
        assertThat(outcome).as("a handler outcome within 10 s").isNotNull();
        return outcome;
    }

    byte[] nextFrame() throws InterruptedException {
        Object outcome = next();
        assertThat(outcome).isInstanceOf(byte[].class);
        return (byte[]) outcome;
    }

    FrameException nextFailure() throws InterruptedException {
        Object outcome = next();
        assertThat(outcome).isInstanceOf(FrameException.class);
        return (FrameException) outcome;
    }

    FrameException.Reason nextFailureReason() throws InterruptedException {
        return nextFailure().reason();
    }

    /** Nothing more arrives within {@code quiet}. */
    void assertNoMoreWithin(Duration quiet) throws InterruptedException {
        assertThat(seen.poll(quiet.toMillis(), TimeUnit.MILLISECONDS)).isNull();
    }
}
