package dev.lomicontrol.terminal.screen;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * Throughput of {@link Screen#feed} as the PTY reader thread drives it: 8 KiB chunks into an 80×24
 * screen. A plain {@code main}, not a test (no timing assertions anywhere):
 *
 * <pre>java -cp target/classes:target/test-classes dev.lomicontrol.terminal.screen.ScreenBenchmark</pre>
 *
 * <p>Three inputs: plain ASCII lines ending in CR LF (the bulk of build and log output), the same
 * lines coloured with SGR sequences (ls, compilers, test runners), and UTF-8 text with accented and
 * CJK characters. Each is fed {@value #MEGABYTES_PER_ROUND} MiB per round; after
 * {@value #WARMUP_ROUNDS} warm-up rounds the median of {@value #ROUNDS} rounds is reported, both per
 * second of wall time and per second of the feeding thread's CPU time (the figure that stays put on
 * a shared, loaded machine).
 */
public final class ScreenBenchmark {

    private static final int CHUNK = 8192;
    private static final int MEGABYTES_PER_ROUND = 256;
    private static final int WARMUP_ROUNDS = 3;
    private static final int ROUNDS = 7;

    private ScreenBenchmark() {}

    public static void main(String[] args) {
        report(
                "plain ASCII lines",
                input(i ->
                        String.format("line %06d: the quick brown fox jumps over the lazy dog %08x\r\n", i, i * 31)));
        report(
                "SGR-coloured lines",
                input(i -> String.format(
                        "\033[1;34mdir%06d\033[0m  \033[32mrun.sh\033[0m  \033[38;5;208mnotes-%d.md\033[m  plain\r\n",
                        i, i)));
        report(
                "UTF-8 text",
                input(i ->
                        String.format("řádek %06d: Příliš žluťoučký kůň úpěl ďábelské ódy — 漢字かな混じり文 %d\r\n", i, i)));
    }

    private interface Line {
        String at(int index);
    }

    /** About 1 MiB of distinct lines. */
    private static byte[] input(Line line) {
        StringBuilder text = new StringBuilder(1 << 21);
        for (int i = 0; text.length() < (1 << 20); i++) {
            text.append(line.at(i));
        }
        return text.toString().getBytes(UTF_8);
    }

    private static void report(String name, byte[] input) {
        double[] wall = new double[ROUNDS];
        double[] cpu = new double[ROUNDS];
        for (int round = -WARMUP_ROUNDS; round < ROUNDS; round++) {
            double[] rates = round(input);
            if (round >= 0) {
                wall[round] = rates[0];
                cpu[round] = rates[1];
            }
        }
        Arrays.sort(wall);
        Arrays.sort(cpu);
        System.out.printf(
                Locale.ROOT,
                "%-20s %7.1f MB/s per CPU second (min %.1f, max %.1f); %7.1f MB/s wall; %d rounds of %d MiB%n",
                name,
                cpu[ROUNDS / 2],
                cpu[0],
                cpu[ROUNDS - 1],
                wall[ROUNDS / 2],
                ROUNDS,
                MEGABYTES_PER_ROUND);
    }

    /** Feeds {@value #MEGABYTES_PER_ROUND} MiB; returns MB (10^6 bytes) per wall second and per CPU second. */
    private static double[] round(byte[] input) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Screen screen = new Screen(80, 24);
        long total = (long) MEGABYTES_PER_ROUND << 20;
        long fed = 0;
        long replies = 0;
        long startCpu = threads.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        while (fed < total) {
            for (int offset = 0; offset < input.length && fed < total; offset += CHUNK) {
                int length = Math.min(CHUNK, input.length - offset);
                replies += screen.feed(input, offset, length).length;
                fed += length;
            }
        }
        long elapsed = System.nanoTime() - start;
        long cpu = threads.getCurrentThreadCpuTime() - startCpu;
        if (replies != 0 || screen.snapshot().lines().isEmpty()) {
            throw new IllegalStateException("unexpected replies or empty screen");
        }
        return new double[] {fed / (elapsed / 1e9) / 1e6, fed / (cpu / 1e9) / 1e6};
    }
}
