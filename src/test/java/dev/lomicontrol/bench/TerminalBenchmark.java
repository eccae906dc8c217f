package dev.lomicontrol.bench;

import static dev.lomicontrol.bench.Bench.configureLogging;
import static dev.lomicontrol.bench.Bench.deleteTree;
import static dev.lomicontrol.bench.Bench.firstLine;
import static dev.lomicontrol.bench.Bench.fmt;
import static dev.lomicontrol.bench.Bench.note;
import static dev.lomicontrol.bench.Bench.run;

import com.pty4j.PtyProcess;
import com.pty4j.PtyProcessBuilder;
import dev.lomicontrol.terminal.CommandRun;
import dev.lomicontrol.terminal.PromptState;
import dev.lomicontrol.terminal.RunOutcome;
import dev.lomicontrol.terminal.Terminal;
import dev.lomicontrol.terminal.TerminalOptions;
import dev.lomicontrol.terminal.Terminals;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The terminal benchmark ({@code bash bench/terminal.sh}): a plain {@code main}, not a test.
 *
 * <p>Measures how fast PTY output gets into a {@link Terminal} (reader thread, raw and text rings,
 * normalizer, OSC 133 parsing, screen emulator) against a raw pty4j read loop that reads and
 * discards, both fed by the same producer: {@code cat} of a generated file (plain log lines, lines
 * with SGR colours, lines with Polish letters and emoji) repeated to at least {@code --mb} MB. The
 * two are interleaved (raw, lomi, raw, lomi, …) after one smaller warm-up pair, so both see the same
 * machine; the medians and their ratio (goal: lomi ≥ 0.5 × raw) are reported, with the paired
 * ratio per round, the reader thread's CPU per MB, an idle terminal's CPU over 2 s, and peak RSS.
 *
 * <p>Usage: {@code TerminalBenchmark [workDir] [--mb=200] [--rounds=3] [--results=dir]}. Progress
 * goes to stderr; the report to stdout and to {@code bench/results/terminal-<timestamp>.md}.
 */
public final class TerminalBenchmark {

    private static final double GOAL = 0.5;
    private static final int READ_BUFFER = 16 * 1024;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    record Options(Path repo, Path workDir, Path resultsDir, int megabytes, int rounds) {}

    /** One measured pass: bytes through the PTY, wall time, CPU of the consuming thread. */
    record Pass(long bytes, long nanos, long consumerCpuNanos) {
        double megabytesPerSecond() {
            return bytes / 1e6 / (nanos / 1e9);
        }

        double cpuMillisPerMegabyte() {
            return consumerCpuNanos / 1e6 / (bytes / 1e6);
        }
    }

    private TerminalBenchmark() {}

    public static void main(String[] args) throws Exception {
        configureLogging();
        Options options = parse(args);
        ZonedDateTime started = ZonedDateTime.now();
        Path work = Files.createDirectories(options.workDir().resolve("run-" + System.currentTimeMillis()));
        try {
            Path data = work.resolve("output.txt");
            long fileBytes = writeData(data);
            int repeats = (int) Math.ceil(options.megabytes() * 1e6 / fileBytes);
            String producer = "for i in $(seq " + repeats + "); do cat '" + data + "'; done";
            String warmUp = "for i in $(seq " + Math.max(1, repeats / 4) + "); do cat '" + data + "'; done";
            note("producer: " + producer + " (" + fileBytes + " bytes per file)");
            String busy = busyWarning();
            List<Pass> raw = new ArrayList<>();
            List<Pass> lomi = new ArrayList<>();
            String screenKind;
            double idleReaderMillis;
            try (Terminals terminals = new Terminals(
                    TerminalOptions.defaults(work.resolve("integration")),
                    new SecureRandom(),
                    new dev.lomicontrol.terminal.TerminalSandbox(
                            dev.lomicontrol.terminal.SandboxPolicy.off(work), List.of()))) {
                Terminal terminal = terminals.start("bash", work, 200, 50);
                terminal.grantLease("bench");
                awaitReady(terminal);
                screenKind = screenKind(terminal);
                note("warm-up");
                rawPass(warmUp, work);
                lomiPass(terminal, warmUp);
                for (int round = 1; round <= options.rounds(); round++) {
                    raw.add(rawPass(producer, work));
                    note(String.format(
                            Locale.ROOT,
                            "round %d raw  %.1f MB/s",
                            round,
                            raw.get(raw.size() - 1).megabytesPerSecond()));
                    lomi.add(lomiPass(terminal, producer));
                    note(String.format(
                            Locale.ROOT,
                            "round %d lomi %.1f MB/s",
                            round,
                            lomi.get(lomi.size() - 1).megabytesPerSecond()));
                }
                idleReaderMillis = idleReaderCpuMillis(terminal);
            }
            String report = "# Terminal throughput benchmark\n\n" + busy + facts(started, options.repo(), screenKind)
                    + report(raw, lomi, fileBytes, repeats, idleReaderMillis);
            System.out.println(report);
            Files.createDirectories(options.resultsDir());
            String stamp = started.format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
            Path out = options.resultsDir().resolve("terminal-" + stamp + ".md");
            Files.writeString(out, report);
            note("report written to " + out);
        } finally {
            deleteTree(work);
        }
    }

    /** The same producer through a bare pty4j process, read and discarded on this thread. */
    static Pass rawPass(String producer, Path cwd) throws Exception {
        Map<String, String> environment = new HashMap<>(System.getenv());
        environment.put("TERM", "xterm-256color");
        long cpuBefore = THREADS.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        PtyProcess process = new PtyProcessBuilder(new String[] {"bash", "-c", producer})
                .setEnvironment(environment)
                .setDirectory(cwd.toString())
                .setInitialColumns(200)
                .setInitialRows(50)
                .start();
        long bytes = 0;
        byte[] buffer = new byte[READ_BUFFER];
        try (InputStream in = process.getInputStream()) {
            for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
                bytes += n;
            }
        } catch (IOException e) {
            // EIO at the end of the output
        }
        process.waitFor(30, TimeUnit.SECONDS);
        long nanos = System.nanoTime() - start;
        return new Pass(bytes, nanos, THREADS.getCurrentThreadCpuTime() - cpuBefore);
    }

    /** The producer as a command run in a live terminal: timed from the send to the OSC 133 D. */
    static Pass lomiPass(Terminal terminal, String producer) throws Exception {
        long reader = readerThreadId(terminal);
        long cpuBefore = THREADS.getThreadCpuTime(reader);
        long bytesBefore = terminal.streamSequence();
        long start = System.nanoTime();
        CommandRun run = terminal.run(terminal.lease().orElseThrow().id(), producer);
        RunOutcome outcome = run.outcome().get(10, TimeUnit.MINUTES);
        long nanos = System.nanoTime() - start;
        if (!(outcome instanceof RunOutcome.Exited exited) || exited.code() != 0) {
            throw new IllegalStateException("the producer did not succeed: " + outcome);
        }
        long bytes = terminal.streamSequence() - bytesBefore;
        long cpu = THREADS.getThreadCpuTime(reader) - cpuBefore;
        awaitReady(terminal);
        return new Pass(bytes, nanos, cpu);
    }

    static double idleReaderCpuMillis(Terminal terminal) throws InterruptedException {
        long reader = readerThreadId(terminal);
        long before = THREADS.getThreadCpuTime(reader);
        Thread.sleep(2000);
        return (THREADS.getThreadCpuTime(reader) - before) / 1e6;
    }

    private static long readerThreadId(Terminal terminal) {
        String name = "lomi-terminal-" + terminal.id().substring(0, 8);
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no reader thread " + name))
                .getId();
    }

    private static void awaitReady(Terminal terminal) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (terminal.prompt() != PromptState.READY) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the prompt did not become ready: " + terminal.prompt());
            }
            terminal.awaitText(terminal.textEnd(), java.time.Duration.ofMillis(50));
        }
    }

    /** "real" when the snapshot shows what the shell printed, else "placeholder". */
    private static String screenKind(Terminal terminal) throws Exception {
        CommandRun run = terminal.run(terminal.lease().orElseThrow().id(), "echo screen-probe-$((6*7))");
        run.outcome().get(30, TimeUnit.SECONDS);
        awaitReady(terminal);
        boolean real = terminal.screen().lines().stream().anyMatch(line -> line.contains("screen-probe-42"));
        return real
                ? "real (the snapshot shows the shell's output)"
                : "**placeholder** (the snapshot stays empty; its feed cost is not measured)";
    }

    /** About 10 MB of mixed terminal output, deterministic. */
    static long writeData(Path file) throws IOException {
        Random random = new Random(7);
        StringBuilder out = new StringBuilder();
        String[] words = {
            "request", "handled", "cache", "miss", "retry", "ok", "user", "zażółć", "gęślą", "jaźń", "€", "😀", "done"
        };
        int line = 0;
        while (out.length() < 10_000_000) {
            int kind = line++ % 5;
            if (kind == 1) {
                out.append("\u001b[32m2026-11-30 12:00:").append(line % 60).append(" INFO\u001b[0m ");
            } else if (kind == 3) {
                out.append("\u001b[1;31mERROR\u001b[0m \u001b[38;5;208m")
                        .append(line)
                        .append("\u001b[0m ");
            }
            for (int w = 0; w < 12; w++) {
                out.append(words[random.nextInt(kind == 4 ? words.length : 7)]).append(' ');
            }
            out.append(Long.toHexString(random.nextLong())).append('\n');
        }
        byte[] bytes = out.toString().getBytes(StandardCharsets.UTF_8);
        Files.write(file, bytes);
        return bytes.length;
    }

    static String report(List<Pass> raw, List<Pass> lomi, long fileBytes, int repeats, double idleReaderMillis) {
        double rawMedian =
                median(raw.stream().mapToDouble(Pass::megabytesPerSecond).toArray());
        double lomiMedian =
                median(lomi.stream().mapToDouble(Pass::megabytesPerSecond).toArray());
        double[] paired = new double[raw.size()];
        for (int i = 0; i < paired.length; i++) {
            paired[i] = lomi.get(i).megabytesPerSecond() / raw.get(i).megabytesPerSecond();
        }
        double ratio = lomiMedian / rawMedian;
        StringBuilder out = new StringBuilder();
        out.append("Producer: `cat` of a ")
                .append(fmt(fileBytes / 1e6, 1))
                .append(" MB generated file × ")
                .append(repeats)
                .append(
                        " (log lines, SGR colours, UTF-8 letters and emoji), through a PTY (the line discipline adds CR before LF). ")
                .append(
                        "Rounds interleave raw and lomi after one warm-up pair. MB = 10^6 bytes read from the PTY master.\n\n");
        out.append("| phase | MB/s per round | median MB/s | consumer CPU ms/MB (median) |\n|---|---|---|---|\n");
        phaseRow(out, "raw pty4j read loop (read + discard)", raw, rawMedian);
        phaseRow(out, "lomi Terminal (reader, rings, normalizer, OSC 133, screen)", lomi, lomiMedian);
        out.append("\n");
        out.append("- **lomi / raw (medians): ")
                .append(fmt(ratio, 2))
                .append("×** — goal ≥ ")
                .append(GOAL)
                .append("×: ")
                .append(ratio >= GOAL ? "met" : "**not met**")
                .append("\n");
        out.append("- paired ratio per round: ")
                .append(Arrays.toString(Arrays.stream(paired)
                        .map(r -> Math.round(r * 100) / 100.0)
                        .toArray()))
                .append("\n");
        out.append("- bytes per pass: ")
                .append(raw.isEmpty() ? "?" : fmt(raw.get(0).bytes() / 1e6, 1))
                .append(" MB raw, ")
                .append(lomi.isEmpty() ? "?" : fmt(lomi.get(0).bytes() / 1e6, 1))
                .append(" MB lomi (the latter includes the echoed command and prompt)\n");
        out.append("- idle terminal: reader thread CPU over 2 s = ")
                .append(fmt(idleReaderMillis, 2))
                .append(" ms\n");
        out.append("- peak RSS of the benchmark JVM (VmHWM): ")
                .append(peakRss())
                .append("\n");
        return out.toString();
    }

    // ------------------------------------------------------------------ machine facts

    static String facts(ZonedDateTime started, Path repo, String screenKind) {
        StringBuilder out = new StringBuilder("| fact | value |\n|---|---|\n");
        fact(out, "date", started.format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        fact(out, "nproc", Runtime.getRuntime().availableProcessors() + "");
        fact(out, "cpu", firstMatching(Path.of("/proc/cpuinfo"), "model name").replaceFirst("^[^:]*:\\s*", ""));
        fact(out, "kernel", firstLine(run("uname", "-srm")));
        fact(out, "JVM", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        fact(out, "bash", firstLine(run("bash", "--version")));
        String commit = firstLine(run("git", "-C", repo.toString(), "rev-parse", "--short", "HEAD"));
        boolean dirty = !run(
                        "git",
                        "-C",
                        repo.toString(),
                        "status",
                        "--porcelain",
                        "--",
                        "src/main/java/dev/lomicontrol/terminal")
                .isBlank();
        fact(
                out,
                "code measured",
                (commit.isBlank() ? "no git commit" : "git " + commit)
                        + (dirty ? " + uncommitted changes in the terminal package" : ""));
        fact(out, "screen emulator", screenKind);
        return out.append('\n').toString();
    }

    private static void fact(StringBuilder out, String name, String value) {
        out.append("| ")
                .append(name)
                .append(" | ")
                .append(value.isBlank() ? "?" : value.replace("|", "\\|"))
                .append(" |\n");
    }

    /** busy and total jiffies of all CPUs, and this process's own, from /proc. */
    private static long[] machineCpu() {
        try {
            String[] cpu =
                    Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long total = 0;
            long idle = 0;
            for (int i = 1; i < cpu.length && i <= 8; i++) {
                long ticks = Long.parseLong(cpu[i]);
                total += ticks;
                if (i == 4 || i == 5) {
                    idle += ticks;
                }
            }
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
            long self = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            return new long[] {total - idle, total, self};
        } catch (IOException | RuntimeException e) {
            return new long[] {0, 0, 0};
        }
    }

    /** Share of all CPUs that processes other than this JVM used between two samples, in percent. */
    private static double othersPercent(long[] before, long[] after) {
        long total = after[1] - before[1];
        return total <= 0 ? -1 : Math.max(0, 100.0 * ((after[0] - before[0]) - (after[2] - before[2])) / total);
    }

    /** A warning when other processes keep the CPUs busy just before the run (sampled for 1 s). */
    private static String busyWarning() throws InterruptedException {
        long[] before = machineCpu();
        Thread.sleep(1000);
        double others = othersPercent(before, machineCpu());
        return others > 15
                ? "**WARNING: other processes used " + fmt(others, 0)
                        + "% of all CPUs just before the run; rerun on an idle"
                        + " machine for figures to publish.**\n\n"
                : "";
    }

    private static String firstMatching(Path file, String prefix) {
        try {
            return Files.readAllLines(file).stream()
                    .filter(l -> l.startsWith(prefix))
                    .findFirst()
                    .orElse("?");
        } catch (IOException e) {
            return "?";
        }
    }

    private static String peakRss() {
        try {
            return Files.readAllLines(Path.of("/proc/self/status")).stream()
                    .filter(l -> l.startsWith("VmHWM:"))
                    .map(l -> l.substring(6).trim())
                    .findFirst()
                    .orElse("?");
        } catch (IOException e) {
            return "?";
        }
    }

    private static String list(List<Pass> passes) {
        return String.join(
                ", ", passes.stream().map(p -> fmt(p.megabytesPerSecond(), 1)).toList());
    }

    /** One row of the phase table: the rate of each round, their median, and the median CPU per MB. */
    private static void phaseRow(StringBuilder out, String phase, List<Pass> passes, double medianRate) {
        out.append("| ")
                .append(phase)
                .append(" | ")
                .append(list(passes))
                .append(" | ")
                .append(fmt(medianRate, 1))
                .append(" | ")
                .append(fmt(
                        median(passes.stream()
                                .mapToDouble(Pass::cpuMillisPerMegabyte)
                                .toArray()),
                        2))
                .append(" |\n");
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static Options parse(String[] args) {
        Path repo =
                Path.of(System.getProperty("bench.repo", ".")).toAbsolutePath().normalize();
        Path workDir = repo.resolve("target/bench");
        Path results = repo.resolve("bench/results");
        int megabytes = 200;
        int rounds = 3;
        for (String arg : args) {
            if (arg.startsWith("--mb=")) {
                megabytes = Integer.parseInt(arg.substring(5));
            } else if (arg.startsWith("--rounds=")) {
                rounds = Integer.parseInt(arg.substring(9));
            } else if (arg.startsWith("--results=")) {
                results = Path.of(arg.substring(10)).toAbsolutePath().normalize();
            } else if (arg.startsWith("--")) {
                System.out.println(
                        "usage: TerminalBenchmark [workDir] [--mb=200] [--rounds=3] [--results=bench/results]");
                System.exit(2);
            } else {
                workDir = Path.of(arg).toAbsolutePath().normalize();
            }
        }
        return new Options(repo, workDir, results, megabytes, Math.max(1, rounds));
    }
}
