package dev.lomicontrol.core;

import java.util.random.RandomGenerator;

/** A retry epoch id issued by {@code lomi_connect}: 20 random bytes, hex. */
@WireString(minLength = 40, maxLength = 40, pattern = "[0-9a-f]{40}", description = "from lomi_connect")
public record RetryEpochId(String value) {

    public RetryEpochId {
        Ids.requireHex(value, 40, "retryEpoch");
    }

    public static RetryEpochId random(RandomGenerator random) {
        return new RetryEpochId(Ids.randomHex(random, 20));
    }

    @Override
    public String toString() {
        return value;
    }
}
