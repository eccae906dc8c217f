package dev.lomicontrol.core;

import java.util.random.RandomGenerator;

/** One run of the broker's ledger; a restart makes a new one: 16 random bytes, hex. */
public record InstanceId(String value) {

    public InstanceId {
        Ids.requireHex(value, 32, "instanceId");
    }

    public static InstanceId random(RandomGenerator random) {
        return new InstanceId(Ids.randomHex(random, 16));
    }

    @Override
    public String toString() {
        return value;
    }
}
