package dev.lomicontrol.ledger;

import java.util.Random;

/**
 * The rounds and the seed of a SIGKILL test, from {@code PREFIX.rounds} and {@code PREFIX.seed} (by
 * default a fresh seed), printed first so that a failing run can be replayed.
 */
record CrashRounds(int rounds, long seed, Random random) {

    static CrashRounds of(String test, String prefix, int defaultRounds) {
        int rounds = Integer.getInteger(prefix + ".rounds", defaultRounds);
        long seed = Long.getLong(prefix + ".seed", System.nanoTime());
        System.err.println(test + " seed " + seed + " rounds " + rounds);
        return new CrashRounds(rounds, seed, new Random(seed));
    }
}
