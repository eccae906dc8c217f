package dev.lomicontrol.core;

import java.util.random.RandomGenerator;

/** An authenticated client session (one per paired connection): 16 random bytes, hex. */
public record SessionId(String value) {

    public SessionId {
        Ids.requireHex(value, 32, "sessionId");
    }

    public static SessionId random(RandomGenerator random) {
        return new SessionId(Ids.randomHex(random, 16));
    }

    @Override
    public String toString() {
        return value;
    }
}
