package dev.lomicontrol.bench;

import static dev.lomicontrol.bench.Bench.configureLogging;
import static dev.lomicontrol.bench.Bench.deleteTree;
import static dev.lomicontrol.bench.Bench.firstLine;
import static dev.lomicontrol.bench.Bench.fmt;
import static dev.lomicontrol.bench.Bench.note;
import static dev.lomicontrol.bench.Bench.run;

import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.core.ToolName;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.LedgerProperties;
import dev.lomicontrol.ledger.LedgerStatus;
import dev.lomicontrol.ledger.Reservation;
import dev.lomicontrol.ledger.ReserveRequest;
import dev.lomicontrol.ledger.RetryEpoch;
import dev.lomicontrol.ledger.Target;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The ledger benchmark ({@code bash bench/ledger.sh}): a plain {@code main}, not a test.
 *
 * <p>Measures, in one run on one disk, a raw sqlite-jdbc anchor (WAL, synchronous=FULL, one small
 * INSERT per committed {@code BEGIN IMMEDIATE} transaction, one thread) against
 * {@link Ledger#reserve} from one thread (serial) and from 1/4/16/32 client threads.
 *
 * <p>Method. A round opens a fresh store (or raw file) for every phase, then runs the phases
 * <em>interleaved in slices</em>: slice 1 of every phase, then slice 2 of every phase (starting
 * with the next phase each time), … until every phase has done {@code --ops} operations (at most
 * {@value #MAX_OPS}; the product's receipt cap is 4096 per store). A phase's rate is its
 * operations divided by the sum of its slice times. Interleaving matters on shared or throttled
 * disks, whose fsync latency drifts by several times over a few seconds: every phase then sees
 * the same disk. Warm-up rounds of the same size are not reported: by default they repeat until
 * one spends under 5 % of its wall time in JIT compilation (at most 8; {@code --warmup=N} runs
 * exactly N), so the measured rounds time the ledger rather than the compilers (with one warm-up
 * round of 1,000 operations, as until 2026-12-05, C2 still compiled for ~2.5 s of them). Of the
 * measured rounds the median is reported. Bytes written per operation come from {@code /proc/self/io} (write_bytes, counted
 * when pages are dirtied), also per slice.
 *
 * <p>Usage: {@code LedgerBenchmark [workDir] [--ops=2000] [--rounds=3] [--slices=4]
 * [--levels=1,4,16,32] [--warmup=settled|1..8] [--results=dir]}. Ledger logs and progress go to stderr; the report goes
 * to stdout and to {@code bench/results/ledger-<timestamp>.md}.
 */
public final class LedgerBenchmark {

    private static final int MAX_OPS = 4000;
    private static final double SERIAL_GOAL = 0.9;
    private static final double CONCURRENT_GOAL = 4.0;
    private static final int GOAL_LEVEL = 32;

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final ProjectId PROJECT = new ProjectId("p");
    private static final ToolName TOOL = new ToolName("lomi_files_mutate");
    private static final Target TARGET = new Target("ws", "res", "", "rev");
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final com.sun.management.OperatingSystemMXBean PROCESS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private LedgerBenchmark() {}

    /** {@code warmups} 0 = until settled (at most {@link #MAX_WARMUPS} rounds), otherwise exactly that many. */
    record Options(
            Path repo, Path workDir, Path resultsDir, int ops, int rounds, int slices, int[] levels, int warmups) {}

    /** Warm-up rounds stop once one spent less than this share of its wall time compiling. */
    private static final double SETTLED_JIT_SHARE = 0.05;

    private static final int MAX_WARMUPS = 8;

    /** One phase's result in one round. */
    record Round(
            long ops,
            long nanos,
            long commits,
            long writtenBytes,
            long writerCpuNanos,
            long callersCpuNanos,
            long processCpuNanos,
            long p50Nanos,
            long p99Nanos) {
        double rate() {
            return ops * 1e9 / nanos;
        }

        double perCommit() {
            return commits == 0 ? 0 : (double) ops / commits;
        }
    }

    /** What one phase measures: opened fresh each round, then driven slice by slice. */
    interface Subject extends AutoCloseable {
        /** Runs operations {@code [from, to)} of this round and returns the elapsed nanoseconds. */
        long run(int from, int to) throws Exception;

        /** Latency of each operation, indexed like the operations. */
        long[] latencies();

        /**
         * CPU time (user + system) used so far by the ledger's writer thread (0 for the raw loop).
         * It commits the items of callers that arrive while the connection is busy; a caller alone
         * commits its own item on its own thread (ADR 0016), counted in {@link #callersCpuNanos}.
         */
        long writerCpuNanos();

        /**
         * CPU time used so far by the threads that call: the raw loop's own thread, the benchmark's
         * thread in the serial phase, the client threads. With {@link #writerCpuNanos} it is what
         * the operations themselves cost; unlike the rates it hardly depends on the disk or on
         * other load, so it shows where the time goes.
         */
        long callersCpuNanos();

        /** Durable commits so far. */
        long commits() throws Exception;

        @Override
        void close() throws Exception;
    }

    /** A phase: its label and, per measured round, a result. */
    static final class Phase {
        final String name;
        final int clients;
        final List<Round> rounds = new ArrayList<>();

        Phase(String name, int clients) {
            this.name = name;
            this.clients = clients;
        }

        Round median() {
            List<Round> sorted = new ArrayList<>(rounds);
            sorted.sort(Comparator.comparingDouble(Round::rate));
            return sorted.get(sorted.size() / 2);
        }

        double min() {
            return rounds.stream().mapToDouble(Round::rate).min().orElse(0);
        }

        double max() {
            return rounds.stream().mapToDouble(Round::rate).max().orElse(0);
        }

        /** Median over rounds of (this phase's rate / the anchor's rate in the same round). */
        double pairedRatio(Phase anchor) {
            double[] ratios = new double[rounds.size()];
            for (int i = 0; i < ratios.length; i++) {
                ratios[i] = rounds.get(i).rate() / anchor.rounds.get(i).rate();
            }
            Arrays.sort(ratios);
            return ratios[ratios.length / 2];
        }
    }

    public static void main(String[] args) throws Exception {
        configureLogging();
        Options options = parse(args);
        ZonedDateTime started = ZonedDateTime.now();
        String stamp = started.format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Path work = options.workDir().resolve("run-" + stamp);
        Files.createDirectories(work);

        StringBuilder md = new StringBuilder();
        md.append("## Ledger benchmark ").append(stamp).append("\n\n");
        md.append(facts(work, started, options.repo())).append('\n');
        md.append("Method: every phase ")
                .append(options.ops())
                .append(" operations per round on a fresh store/file;")
                .append(" phases interleaved in ")
                .append(options.slices())
                .append(" slices per round (same disk conditions for all);")
                .append(
                        options.warmups() == 0
                                ? " warm-up rounds of the same size until one spends < 5 % of its time in JIT"
                                        + " compilation (at most " + MAX_WARMUPS + "), then "
                                : " " + options.warmups() + " warm-up round(s) of the same size, then ")
                .append(options.rounds())
                .append(" measured rounds; median round reported.")
                .append(" Raw anchor: sqlite-jdbc, WAL + synchronous=FULL (read back), one 1-row INSERT per")
                .append(" BEGIN IMMEDIATE…COMMIT, one thread.\n\n");
        String busy = busyWarning();
        md.append(busy);
        System.out.print(md);
        System.out.flush();

        List<Phase> phases = new ArrayList<>();
        Phase raw = new Phase("raw sqlite-jdbc, 1 INSERT/txn", 1);
        Phase serial = new Phase("ledger reserve, serial", 1);
        phases.add(raw);
        phases.add(serial);
        for (int level : options.levels()) {
            phases.add(new Phase("ledger reserve, concurrent", level));
        }

        CpuSample cpuAtStart = CpuSample.now();
        List<String> warmups = new ArrayList<>();
        for (int w = 1; w <= (options.warmups() == 0 ? MAX_WARMUPS : options.warmups()); w++) {
            note("warm-up round " + w + " ...");
            long jitBefore = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
            long wallBefore = System.nanoTime();
            round(work.resolve("warmup-" + w), phases, options.ops(), options.slices());
            long jit = ManagementFactory.getCompilationMXBean().getTotalCompilationTime() - jitBefore;
            long wall = (System.nanoTime() - wallBefore) / 1_000_000;
            warmups.add(jit + " ms JIT in " + wall + " ms");
            if (options.warmups() == 0 && jit < SETTLED_JIT_SHARE * wall) {
                break;
            }
        }
        long jitAtStart = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
        for (int r = 1; r <= options.rounds(); r++) {
            note("round " + r + "/" + options.rounds() + " ...");
            List<Round> results = round(work.resolve("round-" + r), phases, options.ops(), options.slices());
            for (int p = 0; p < phases.size(); p++) {
                phases.get(p).rounds.add(results.get(p));
            }
        }
        long jitMillis = ManagementFactory.getCompilationMXBean().getTotalCompilationTime() - jitAtStart;
        deleteTree(work);

        CpuSample cpuAtEnd = CpuSample.now();
        String report = report(
                        raw,
                        serial,
                        phases.subList(2, phases.size()),
                        cpuAtStart.othersPercent(cpuAtEnd),
                        cpuAtStart.stealPercent(cpuAtEnd))
                + "- JIT compilation during the measured rounds (in the whole-process CPU column): " + jitMillis
                + " ms; warm-up rounds before them: " + String.join(", ", warmups) + "\n";
        System.out.print(report);
        md.append(report);
        Files.createDirectories(options.resultsDir());
        Path out = options.resultsDir().resolve("ledger-" + stamp + ".md");
        Files.writeString(out, md.toString(), StandardCharsets.UTF_8);
        System.out.println();
        System.out.println("written: " + out);
    }

    // ------------------------------------------------------------------ one round

    /** Opens a fresh subject per phase under {@code dir}, runs them interleaved, closes and deletes them. */
    static List<Round> round(Path dir, List<Phase> phases, int ops, int slices) throws Exception {
        List<Subject> subjects = new ArrayList<>();
        List<Round> results = new ArrayList<>();
        try {
            for (int p = 0; p < phases.size(); p++) {
                Path place = dir.resolve("phase-" + p);
                subjects.add(
                        p == 0
                                ? new Raw(place, ops)
                                : new LedgerSubject(place, p == 1 ? 0 : phases.get(p).clients, ops, slices));
            }
            long[] commitsBefore = new long[subjects.size()];
            for (int p = 0; p < subjects.size(); p++) {
                commitsBefore[p] = subjects.get(p).commits();
            }
            long[] nanos = new long[subjects.size()];
            long[] written = new long[subjects.size()];
            long[] writerBefore = new long[subjects.size()];
            long[] callersBefore = new long[subjects.size()];
            long[] processCpu = new long[subjects.size()];
            for (int p = 0; p < subjects.size(); p++) {
                writerBefore[p] = subjects.get(p).writerCpuNanos();
                callersBefore[p] = subjects.get(p).callersCpuNanos();
            }
            for (int s = 0; s < slices; s++) {
                int from = (int) ((long) ops * s / slices);
                int to = (int) ((long) ops * (s + 1) / slices);
                for (int k = 0; k < subjects.size(); k++) {
                    int p = (s + k) % subjects.size();
                    long bytes = writeBytes();
                    long cpu = PROCESS.getProcessCpuTime();
                    nanos[p] += subjects.get(p).run(from, to);
                    processCpu[p] += PROCESS.getProcessCpuTime() - cpu;
                    written[p] += writeBytes() - bytes;
                }
            }
            for (int p = 0; p < subjects.size(); p++) {
                long[] latencies = subjects.get(p).latencies().clone();
                Arrays.sort(latencies);
                results.add(new Round(
                        ops,
                        nanos[p],
                        subjects.get(p).commits() - commitsBefore[p],
                        written[p],
                        subjects.get(p).writerCpuNanos() - writerBefore[p],
                        subjects.get(p).callersCpuNanos() - callersBefore[p],
                        processCpu[p],
                        percentile(latencies, 0.50),
                        percentile(latencies, 0.99)));
            }
        } catch (Exception e) {
            closeAll(subjects, e);
            deleteTree(dir);
            throw e;
        }
        Exception failure = closeAll(subjects, null);
        deleteTree(dir);
        if (failure != null) {
            throw failure;
        }
        return results;
    }

    /** Closes every subject; the first failure is returned (or added to {@code pending} as suppressed). */
    private static Exception closeAll(List<Subject> subjects, Exception pending) {
        Exception first = pending;
        for (Subject subject : subjects) {
            try {
                subject.close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        return pending == null ? first : null;
    }

    /** The anchor: one thread, one small INSERT per {@code BEGIN IMMEDIATE ... COMMIT}, WAL + synchronous=FULL. */
    static final class Raw implements Subject {
        private final Connection connection;
        private final Statement transaction;
        private final PreparedStatement insert;
        private final byte[] payload = new byte[32];
        private final long[] latencies;
        private long commits;
        private long cpuNanos;

        Raw(Path dir, int ops) throws SQLException, IOException {
            Files.createDirectories(dir);
            new SecureRandom().nextBytes(payload);
            latencies = new long[ops];
            connection = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("raw.sqlite3"));
            try (Statement s = connection.createStatement()) {
                s.execute("PRAGMA journal_mode=WAL");
                s.execute("PRAGMA synchronous=FULL");
                expect(s, "journal_mode", "wal");
                expect(s, "synchronous", "2");
                s.execute("CREATE TABLE anchor (id INTEGER PRIMARY KEY, k TEXT NOT NULL, v BLOB NOT NULL)");
            }
            transaction = connection.createStatement();
            insert = connection.prepareStatement("INSERT INTO anchor (k, v) VALUES (?, ?)");
        }

        @Override
        public long run(int from, int to) throws SQLException {
            long cpu = THREADS.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            for (int i = from; i < to; i++) {
                long t0 = System.nanoTime();
                transaction.execute("BEGIN IMMEDIATE");
                insert.setString(1, "k-" + i);
                insert.setBytes(2, payload);
                insert.executeUpdate();
                transaction.execute("COMMIT");
                latencies[i] = System.nanoTime() - t0;
                commits++;
            }
            long elapsed = System.nanoTime() - start;
            cpuNanos += THREADS.getCurrentThreadCpuTime() - cpu;
            return elapsed;
        }

        @Override
        public long writerCpuNanos() {
            return 0;
        }

        @Override
        public long callersCpuNanos() {
            return cpuNanos;
        }

        @Override
        public long[] latencies() {
            return latencies;
        }

        @Override
        public long commits() {
            return commits;
        }

        @Override
        public void close() throws SQLException {
            try (Statement s = connection.createStatement();
                    ResultSet rs = s.executeQuery("SELECT count(*) FROM anchor")) {
                rs.next();
                if (rs.getLong(1) != commits) {
                    throw new IllegalStateException("raw anchor holds " + rs.getLong(1) + " rows, expected " + commits);
                }
            } finally {
                insert.close();
                transaction.close();
                connection.close();
            }
        }
    }

    /**
     * A fresh ledger. {@code clients == 0}: the benchmark's own thread reserves (serial). Otherwise
     * that many client threads, each with its own session and retry epoch, share every slice
     * evenly and are released together.
     */
    static final class LedgerSubject implements Subject {
        private final Ledger ledger;
        private final ReserveRequest[] requests;
        private final long[] latencies;
        private final int clients;
        private final List<Thread> threads = new ArrayList<>();
        private final CyclicBarrier start;
        private final CyclicBarrier end;
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final long writerThreadId;
        private final AtomicLong callersCpu = new AtomicLong();
        private volatile int sliceFrom;
        private volatile int sliceTo;

        LedgerSubject(Path store, int clients, int ops, int slices) {
            SecureRandom random = new SecureRandom();
            this.clients = clients;
            Set<Thread> before = Thread.getAllStackTraces().keySet();
            this.ledger = Ledger.open(store, LedgerProperties.defaults(), Clock.systemUTC(), random);
            // the writer thread this ledger just started (by name: "ledger-writer"), to read its CPU time
            this.writerThreadId = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().equals("ledger-writer") && !before.contains(t))
                    .mapToLong(Thread::getId)
                    .findFirst()
                    .orElse(-1);
            this.latencies = new long[ops];
            this.requests = new ReserveRequest[ops];
            int sessions = Math.max(1, clients);
            RetryEpoch[] epochs = new RetryEpoch[sessions];
            for (int t = 0; t < sessions; t++) {
                epochs[t] = ledger.issueEpoch(SessionId.random(random));
            }
            // operation i belongs to client (i mod clients): every slice is split evenly
            for (int i = 0; i < ops; i++) {
                RetryEpoch epoch = epochs[i % sessions];
                requests[i] = new ReserveRequest(
                        epoch.session(), epoch.id(), PROJECT, TOOL, new RequestKey("k-" + i), input(i), TARGET);
            }
            this.start = new CyclicBarrier(sessions + 1);
            this.end = new CyclicBarrier(sessions + 1);
            if (clients > 0) {
                for (int t = 0; t < clients; t++) {
                    int me = t;
                    Thread thread = new Thread(() -> client(me, slices), "bench-client-" + t);
                    thread.setDaemon(true);
                    threads.add(thread);
                    thread.start();
                }
            }
        }

        private void client(int me, int slices) {
            for (int s = 0; s < slices; s++) {
                try {
                    start.await(5, TimeUnit.MINUTES);
                } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
                    failure.compareAndSet(null, e);
                    return;
                }
                long cpu = THREADS.getCurrentThreadCpuTime();
                try {
                    int first = sliceFrom + Math.floorMod(me - sliceFrom, clients);
                    for (int i = first; i < sliceTo; i += clients) {
                        reserve(i);
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
                callersCpu.addAndGet(THREADS.getCurrentThreadCpuTime() - cpu);
                try {
                    end.await(5, TimeUnit.MINUTES);
                } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
                    failure.compareAndSet(null, e);
                    return;
                }
            }
        }

        private void reserve(int i) {
            long t0 = System.nanoTime();
            Reservation result = ledger.reserve(requests[i]);
            latencies[i] = System.nanoTime() - t0;
            if (!(result instanceof Reservation.Reserved)) {
                throw new IllegalStateException(
                        "expected Reserved for " + requests[i].requestKey() + ", got " + result);
            }
        }

        @Override
        public long run(int from, int to) throws Exception {
            if (clients == 0) {
                long cpu = THREADS.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                for (int i = from; i < to; i++) {
                    reserve(i);
                }
                long elapsed = System.nanoTime() - t0;
                callersCpu.addAndGet(THREADS.getCurrentThreadCpuTime() - cpu);
                return elapsed;
            }
            sliceFrom = from;
            sliceTo = to;
            long t0 = System.nanoTime();
            start.await(5, TimeUnit.MINUTES);
            end.await(5, TimeUnit.MINUTES);
            long elapsed = System.nanoTime() - t0;
            if (failure.get() != null) {
                throw new IllegalStateException("a benchmark client failed", failure.get());
            }
            return elapsed;
        }

        @Override
        public long[] latencies() {
            return latencies;
        }

        @Override
        public long commits() {
            return ledger.maintenance().status().commits();
        }

        @Override
        public long writerCpuNanos() {
            return writerThreadId < 0 ? 0 : Math.max(0, THREADS.getThreadCpuTime(writerThreadId));
        }

        @Override
        public long callersCpuNanos() {
            return callersCpu.get();
        }

        @Override
        public void close() throws InterruptedException {
            try {
                start.reset(); // releases clients still waiting if a slice failed; harmless otherwise
                end.reset();
                for (Thread thread : threads) {
                    thread.join(TimeUnit.SECONDS.toMillis(10));
                }
                LedgerStatus status = ledger.maintenance().status();
                if (failure.get() == null && status.receipts() != requests.length) {
                    throw new IllegalStateException(
                            "the ledger holds " + status.receipts() + " receipts, expected " + requests.length);
                }
            } finally {
                ledger.close();
            }
        }
    }

    private static JsonNode input(int n) {
        return JSON.readTree(
                "{\"path\":\"src/file-" + n + ".txt\",\"mode\":\"replace\",\"content\":\"hello world " + n + "\"}");
    }

    // ------------------------------------------------------------------ report

    static String report(
            Phase raw, Phase serial, List<Phase> concurrent, double othersCpuPercent, double stealPercent) {
        double anchor = raw.median().rate();
        StringBuilder out = new StringBuilder();
        out.append(
                        "| phase | clients | ops/round | median ops/s | min–max ops/s | × raw serial (medians) | × raw serial (paired) |")
                .append(" ops/commit | KiB written/op | CPU µs/op: writer thread | writer + callers | whole process |")
                .append(" p50 ms | p99 ms |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        row(out, raw, raw, anchor);
        row(out, serial, raw, anchor);
        for (Phase phase : concurrent) {
            row(out, phase, raw, anchor);
        }
        out.append('\n');
        out.append(goal("ledger serial ≥ " + fmt(SERIAL_GOAL, 1) + "× raw serial", serial, raw, SERIAL_GOAL));
        concurrent.stream()
                .filter(p -> p.clients == GOAL_LEVEL)
                .findFirst()
                .ifPresentOrElse(
                        p -> out.append(goal(
                                "ledger " + GOAL_LEVEL + " clients ≥ " + fmt(CONCURRENT_GOAL, 0) + "× raw serial",
                                p,
                                raw,
                                CONCURRENT_GOAL)),
                        () -> out.append("- goal: ledger ")
                                .append(GOAL_LEVEL)
                                .append(" clients — not measured (level not selected)\n"));
        out.append("- other processes' CPU use during the run: ")
                .append(othersCpuPercent < 0 ? "?" : fmt(othersCpuPercent, 0) + "% of all CPUs")
                .append(stealPercent > 0.5 ? "; steal (hypervisor) " + fmt(stealPercent, 0) + "%" : "")
                .append(
                        othersCpuPercent > 15 || stealPercent > 15
                                ? " — **the machine was not idle; treat these figures with care**"
                                : "")
                .append("; load average at end: ")
                .append(loadAverage())
                .append('\n');
        out.append('\n');
        out.append("Rounds, ops/s in round order: raw ")
                .append(list(raw))
                .append("; serial ")
                .append(list(serial));
        for (Phase phase : concurrent) {
            out.append("; ").append(phase.clients).append(" clients ").append(list(phase));
        }
        out.append('\n');
        return out.toString();
    }

    private static void row(StringBuilder out, Phase phase, Phase raw, double anchor) {
        Round median = phase.median();
        out.append("| ")
                .append(phase.name)
                .append(" | ")
                .append(phase.clients)
                .append(" | ")
                .append(median.ops())
                .append(" | ")
                .append(fmt(median.rate(), 0))
                .append(" | ")
                .append(fmt(phase.min(), 0))
                .append("–")
                .append(fmt(phase.max(), 0))
                .append(" | ")
                .append(fmt(median.rate() / anchor, 2))
                .append("×")
                .append(" | ")
                .append(fmt(phase.pairedRatio(raw), 2))
                .append("×")
                .append(" | ")
                .append(fmt(median.perCommit(), 1))
                .append(" | ")
                .append(fmt(median.writtenBytes() / 1024.0 / median.ops(), 1))
                .append(" | ")
                .append(fmt(median.writerCpuNanos() / 1e3 / median.ops(), 0))
                .append(" | ")
                .append(fmt((median.writerCpuNanos() + median.callersCpuNanos()) / 1e3 / median.ops(), 0))
                .append(" | ")
                .append(fmt(median.processCpuNanos() / 1e3 / median.ops(), 0))
                .append(" | ")
                .append(fmt(median.p50Nanos() / 1e6, 2))
                .append(" | ")
                .append(fmt(median.p99Nanos() / 1e6, 2))
                .append(" |\n");
    }

    private static String goal(String what, Phase phase, Phase raw, double wanted) {
        double ratio = phase.median().rate() / raw.median().rate();
        return "- goal: " + what + ": " + fmt(ratio, 2) + "× (paired " + fmt(phase.pairedRatio(raw), 2) + "×) → "
                + (ratio >= wanted ? "PASS" : "MISS") + "\n";
    }

    private static String list(Phase phase) {
        return phase.rounds.stream()
                .map(r -> fmt(r.rate(), 0))
                .reduce((a, b) -> a + ", " + b)
                .orElse("");
    }

    private static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int index = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    /** Bytes this process caused to be written to storage so far (Linux), or 0 where unknown. */
    private static long writeBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
                if (line.startsWith("write_bytes:")) {
                    return Long.parseLong(line.substring(12).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or not readable: the column shows 0
        }
        return 0;
    }

    // ------------------------------------------------------------------ machine facts

    static String facts(Path dir, ZonedDateTime started, Path repo) {
        StringBuilder out = new StringBuilder();
        out.append("| fact | value |\n|---|---|\n");
        fact(out, "date", started.format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        fact(
                out,
                "nproc",
                firstLine(run("nproc")) + " (JVM sees " + Runtime.getRuntime().availableProcessors() + ")");
        fact(out, "cpu", cpuModel());
        fact(out, "kernel", firstLine(run("uname", "-srm")));
        fact(
                out,
                "JVM",
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " ("
                        + System.getProperty("java.vendor") + ")");
        fact(out, "SQLite", sqliteVersion());
        fact(out, "code measured", codeState(repo));
        fact(out, "bench dir", dir.toAbsolutePath().normalize().toString());
        fact(
                out,
                "filesystem (df -T)",
                lastLine(run("df", "-T", dir.toString())).replaceAll("\\s+", " "));
        fact(out, "filesystem (stat -f)", firstLine(run("stat", "-f", "-c", "%T, block %S", dir.toString())));
        fact(out, "load average (1/5/15 min) at start", loadAverage());
        fact(
                out,
                "mount",
                firstLine(run("findmnt", "-n", "-o", "SOURCE,FSTYPE,OPTIONS", "-T", dir.toString()))
                        .replaceAll("\\s+", " "));
        return out.toString();
    }

    /** The first three fields of /proc/loadavg: other work on a 2-core machine skews every rate. */
    static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    /**
     * CPU time of the whole machine and of this process, in clock ticks, from /proc (Linux): every
     * rate here is CPU-sensitive on a small machine, so the report says how much CPU other
     * processes took while it ran.
     */
    record CpuSample(long machineBusy, long machineTotal, long self, long steal) {
        static CpuSample now() {
            try {
                String[] cpu =
                        Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
                long total = 0;
                long idle = 0;
                long steal = cpu.length > 8 ? Long.parseLong(cpu[8]) : 0;
                for (int i = 1; i < cpu.length && i <= 8; i++) {
                    long ticks = Long.parseLong(cpu[i]);
                    total += ticks;
                    if (i == 4 || i == 5) { // idle, iowait
                        idle += ticks;
                    }
                }
                String stat = Files.readString(Path.of("/proc/self/stat"));
                String[] fields =
                        stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
                long self = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
                return new CpuSample(total - idle - steal, total, self, steal);
            } catch (IOException | RuntimeException e) {
                return new CpuSample(0, 0, 0, 0);
            }
        }

        /** Share of all CPUs the hypervisor gave to others (steal) between {@code this} and {@code later}, in percent. */
        double stealPercent(CpuSample later) {
            long total = later.machineTotal - machineTotal;
            return total <= 0 ? -1 : 100.0 * (later.steal - steal) / total;
        }

        /** Share of all CPUs that other processes used between {@code this} and {@code later}, in percent (-1 if unknown). */
        double othersPercent(CpuSample later) {
            long total = later.machineTotal - machineTotal;
            if (total <= 0) {
                return -1;
            }
            long others = (later.machineBusy - machineBusy) - (later.self - self);
            return Math.max(0, 100.0 * others / total);
        }
    }

    /** A warning when other processes already keep the CPUs busy (sampled for one second). */
    static String busyWarning() throws InterruptedException {
        CpuSample before = CpuSample.now();
        Thread.sleep(1000);
        double others = before.othersPercent(CpuSample.now());
        if (others > 15) {
            return "**WARNING: other processes used " + fmt(others, 0)
                    + "% of all CPUs just before the run; every rate here is"
                    + " CPU-sensitive: rerun on an idle machine for figures to publish.**\n\n";
        }
        return "";
    }

    private static void fact(StringBuilder out, String name, String value) {
        out.append("| ")
                .append(name)
                .append(" | ")
                .append(value.isBlank() ? "?" : value.replace("|", "\\|"))
                .append(" |\n");
    }

    /** The commit, whether main code differs from it, and a digest of the ledger's sources and migrations. */
    private static String codeState(Path repo) {
        String commit = firstLine(run("git", "-C", repo.toString(), "rev-parse", "--short", "HEAD"));
        boolean dirty = !run("git", "-C", repo.toString(), "status", "--porcelain", "--", "src/main", "db", "pom.xml")
                .isBlank();
        String digest = "?";
        try (Stream<Path> files = Stream.concat(
                Files.walk(repo.resolve("src/main/java/dev/lomicontrol/ledger")),
                Files.walk(repo.resolve("db/migration")))) {
            java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
            for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                sha.update(repo.relativize(file).toString().getBytes(StandardCharsets.UTF_8));
                sha.update(Files.readAllBytes(file));
            }
            digest = java.util.HexFormat.of().formatHex(sha.digest()).substring(0, 12);
        } catch (IOException | java.security.NoSuchAlgorithmException | UncheckedIOException e) {
            // leave "?"
        }
        return (commit.isBlank()
                        ? "no git commit"
                        : "git " + commit + (dirty ? " + uncommitted changes in src/main, db or pom.xml" : ""))
                + "; ledger sources + migrations sha256 " + digest;
    }

    private static String cpuModel() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            return lines.filter(l -> l.startsWith("model name"))
                    .findFirst()
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .orElse("?");
        } catch (IOException | UncheckedIOException e) {
            return "?";
        }
    }

    private static String sqliteVersion() {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT sqlite_version()")) {
            rs.next();
            return rs.getString(1) + " (sqlite-jdbc " + c.getMetaData().getDriverVersion() + ")";
        } catch (SQLException e) {
            return "? (" + e.getMessage() + ")";
        }
    }

    private static String lastLine(String text) {
        int nl = text.lastIndexOf('\n');
        return nl < 0 ? text : text.substring(nl + 1);
    }

    // ------------------------------------------------------------------ plumbing

    private static Options parse(String[] args) {
        Path repo =
                Path.of(System.getProperty("bench.repo", ".")).toAbsolutePath().normalize();
        Path workDir = repo.resolve("target/bench");
        Path results = repo.resolve("bench/results");
        int ops = 2000;
        int rounds = 3;
        int slices = 4;
        int[] levels = {1, 4, 16, 32};
        int warmups = 0;
        for (String arg : args) {
            if (arg.startsWith("--ops=")) {
                ops = Integer.parseInt(arg.substring(6));
            } else if (arg.startsWith("--rounds=")) {
                rounds = Integer.parseInt(arg.substring(9));
            } else if (arg.startsWith("--slices=")) {
                slices = Integer.parseInt(arg.substring(9));
            } else if (arg.startsWith("--levels=")) {
                levels = Arrays.stream(arg.substring(9).split(","))
                        .map(String::trim)
                        .mapToInt(Integer::parseInt)
                        .toArray();
            } else if (arg.startsWith("--warmup=")) {
                String value = arg.substring(9);
                warmups = value.equals("settled") ? 0 : Integer.parseInt(value);
                if (warmups < 0 || warmups > MAX_WARMUPS) {
                    throw new IllegalArgumentException("--warmup must be settled or 1.." + MAX_WARMUPS);
                }
            } else if (arg.startsWith("--results=")) {
                results = Path.of(arg.substring(10)).toAbsolutePath().normalize();
            } else if (arg.equals("-h") || arg.equals("--help")) {
                System.out.println(
                        "usage: LedgerBenchmark [workDir] [--ops=2000] [--rounds=3] [--slices=4] [--levels=1,4,16,32] [--warmup=settled|1..8] [--results=bench/results]");
                System.exit(0);
            } else if (arg.startsWith("--")) {
                throw new IllegalArgumentException("unknown option " + arg);
            } else {
                workDir = Path.of(arg).toAbsolutePath().normalize();
            }
        }
        if (ops < 1 || ops > MAX_OPS) {
            throw new IllegalArgumentException("--ops must be 1.." + MAX_OPS + " (the receipt cap is 4096 per store)");
        }
        if (rounds < 1 || slices < 1 || slices > ops) {
            throw new IllegalArgumentException("--rounds must be ≥ 1 and --slices 1..ops");
        }
        if (Arrays.stream(levels).anyMatch(l -> l < 1)) {
            throw new IllegalArgumentException("--levels must be positive");
        }
        return new Options(repo, workDir, results, ops, rounds, slices, levels, warmups);
    }

    private static void expect(Statement s, String pragma, String expected) throws SQLException {
        try (ResultSet rs = s.executeQuery("PRAGMA " + pragma)) {
            String actual = rs.next() ? rs.getString(1) : null;
            if (!expected.equalsIgnoreCase(actual)) {
                throw new IllegalStateException(
                        "PRAGMA " + pragma + " did not take: expected " + expected + ", read back " + actual);
            }
        }
    }
}
