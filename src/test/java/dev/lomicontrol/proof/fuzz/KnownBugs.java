package dev.lomicontrol.proof.fuzz;

/**
 * Inputs that break main code, each reproduced by a focused test that fails until the bug is fixed.
 * The seeded runs steer around such inputs, so that one known crash does not end every run before it
 * can find the next; {@code -Dlomi.fuzz.includeKnownBugs=true} sends them anyway.
 *
 * <p>None at present. The first entry — a non-finite number ({@code 1e999999}) for an integer
 * argument crashed the helper's schema validator — is fixed; its reproducer
 * {@code HelperFuzzTests#aNonFiniteNumberForAnIntegerArgumentIsRefusedNotFatal} stays, and the runs
 * send such numbers again.
 */
final class KnownBugs {

    static final boolean INCLUDE = Boolean.getBoolean("lomi.fuzz.includeKnownBugs");

    private KnownBugs() {}

    /** Tool arguments as generated (nothing to steer around now). */
    static String steerToolArguments(String argumentsJson) {
        return argumentsJson;
    }

    /** A byte-mutated line as generated (nothing to steer around now). */
    static byte[] steerMutatedLine(byte[] line) {
        return line;
    }
}
