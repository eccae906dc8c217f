package dev.lomicontrol.core;

import java.util.random.RandomGenerator;

/** A durable operation receipt id: 20 random bytes, hex. */
@WireString(minLength = 40, maxLength = 40, pattern = "[0-9a-f]{40}")
public record OperationId(String value) {

    public OperationId {
        Ids.requireHex(value, 40, "operationId");
    }

    public static OperationId random(RandomGenerator random) {
        return new OperationId(Ids.randomHex(random, 20));
    }

    @Override
    public String toString() {
        return value;
    }
}
