package dev.lomicontrol.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock the test moves by hand. */
public final class MutableClock extends Clock {

    private volatile Instant now;
    private final ThreadLocal<String> failure = new ThreadLocal<>();

    public MutableClock(Instant start) {
        this.now = start;
    }

    public static MutableClock startingAt(String instant) {
        return new MutableClock(Instant.parse(instant));
    }

    public void advance(Duration duration) {
        now = now.plus(duration);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    /**
     * The next reading of this clock on the calling thread (only there) throws an
     * IllegalStateException with {@code message}, once; its stack names the code that read the clock.
     */
    public void failNextReadingOnThisThread(String message) {
        this.failure.set(message);
    }

    @Override
    public Instant instant() {
        String armed = failure.get();
        if (armed != null) {
            failure.remove();
            throw new IllegalStateException(armed);
        }
        return now;
    }
}
