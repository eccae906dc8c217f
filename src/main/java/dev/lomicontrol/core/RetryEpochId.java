package dev.lomicontrol.core;

import java.util.random.RandomGenerator;

/** A retry epoch id issued by {@code lomi_connect}: 20 random bytes, hex. */
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
