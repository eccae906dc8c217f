package dev.lomicontrol.proof.fuzz;

import java.security.SecureRandom;

/**
 * Size and seed of a fuzz run, from {@code -Dlomi.fuzz.messages} (default {@value #DEFAULT_MESSAGES},
 * short enough for CI) and {@code -Dlomi.fuzz.seed} (default: a fresh random seed). The seed is
 * printed in every report line, so any failure can be replayed with the same two properties.
 */
record FuzzSettings(long seed, int messages) {

    static final int DEFAULT_MESSAGES = 1500;
    /** Drawn once per JVM, so every report line of one run carries the same seed. */
    private static final long RANDOM_SEED = new SecureRandom().nextLong();

    static FuzzSettings fromSystemProperties() {
        String seed = System.getProperty("lomi.fuzz.seed", "").trim();
        String messages = System.getProperty("lomi.fuzz.messages", "").trim();
        return new FuzzSettings(
                seed.isEmpty() ? RANDOM_SEED : Long.parseLong(seed),
                messages.isEmpty() ? DEFAULT_MESSAGES : Math.max(1, Integer.parseInt(messages)));
    }
}
