package dev.lomicontrol.proof.crash;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The long broker crash suite as one command ({@code bench/crash.sh}): runs {@link CrashSuite}
 * and prints its one-line report to stdout; progress goes to stderr. Exits 1 when a promise was
 * broken (the violations are printed), 0 otherwise.
 *
 * <pre>java … CrashBench [--rounds=200] [--seed=N] [--max-kill-delay-ms=800] [--work-dir=DIR]</pre>
 */
public final class CrashBench {

    private CrashBench() {}

    public static void main(String[] args) throws Exception {
        int rounds = 200;
        long seed = System.nanoTime();
        int maxDelay = 800;
        int waitMs = 0;
        Path workDir = null;
        for (String arg : args) {
            String value = arg.substring(arg.indexOf('=') + 1);
            if (arg.startsWith("--rounds=")) {
                rounds = Integer.parseInt(value);
            } else if (arg.startsWith("--seed=")) {
                seed = Long.parseLong(value);
            } else if (arg.startsWith("--max-kill-delay-ms=")) {
                maxDelay = Integer.parseInt(value);
            } else if (arg.startsWith("--wait-ms=")) {
                waitMs = Integer.parseInt(value);
            } else if (arg.startsWith("--work-dir=")) {
                workDir = Path.of(value);
            } else {
                throw new IllegalArgumentException(
                        "unknown argument " + arg
                                + "; usage: [--rounds=200] [--seed=N] [--max-kill-delay-ms=800] [--wait-ms=0] [--work-dir=DIR]");
            }
        }
        Path dir = workDir == null ? Files.createTempDirectory("lomi-crash-") : Files.createDirectories(workDir);
        System.err.println("broker crash suite: seed " + seed + ", rounds " + rounds + ", work dir " + dir);
        CrashSuite.Report report = new CrashSuite(new CrashSuite.Settings(rounds, seed, maxDelay, dir, waitMs)).run();
        System.out.println(report.line());
        report.verdict().uncertainItems().forEach(item -> System.out.println("left unknown to the client: " + item));
        report.verdict().violations().forEach(violation -> System.out.println("VIOLATION " + violation));
        boolean kept = report.verdict().violations().isEmpty()
                && report.verdict().unsettledRows() == 0
                && report.kills() == rounds
                && report.exitCodes().stream().allMatch(code -> code == 137);
        System.out.println(kept ? "PASS" : "FAIL (work dir kept for inspection: " + dir + ")");
        System.exit(kept ? 0 : 1);
    }
}
