package dev.lomicontrol.bench;

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
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The ledger benchmark ({@code bash bench/ledger.sh}): a plain {@code main}, not a test.
 *
 * <p>Measures, in one run on one disk, a raw sqlite-jdbc anchor (WAL, synchronous=FULL, one INSERT
 * per committed {@code BEGIN IMMEDIATE} transaction, one thread) against {@link Ledger#reserve}
 * from one thread and from 1/4/16/32 client threads. Every measured round uses a fresh store
 * directory and at most {@value #MAX_OPS} reservations (the product's receipt cap is 4096 per
 * store). After a warm-up, the phases are interleaved round by round (so a drifting disk hurts
 * them all alike) and the median round is reported.
 *
 * <p>Usage: {@code LedgerBenchmark [workDir] [--ops=N] [--rounds=N] [--levels=1,4,16,32]
 * [--results=dir]}. Logs of the ledger go to stderr; the table goes to stdout and to
 * {@code bench/results/ledger-<timestamp>.md}.
 */
public final class LedgerBenchmark {

    private static final int MAX_OPS = 4000;
    private static final double SERIAL_GOAL = 0.9;
    private static final double CONCURRENT_GOAL = 4.0;
    private static final int GOAL_LEVEL = 32;

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final ProjectId PROJECT = new ProjectId("p");
    private static final ToolName TOOL = new ToolName("lomi_files_mutate");

    private LedgerBenchmark() {}

    /** One measured round. */
    record Round(long ops, long nanos, long commits, long p50Nanos, long p99Nanos) {
        double rate() {
            return ops * 1e9 / nanos;
        }

        double perCommit() {
            return commits == 0 ? 0 : (double) ops / commits;
        }
    }

    /** All rounds of one phase. */
    static final class Phase {
        final String name;
        final int threads;
        final List<Round> rounds = new ArrayList<>();

        Phase(String name, int threads) {
            this.name = name;
            this.threads = threads;
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
    }

    record Options(Path repo, Path workDir, Path resultsDir, int ops, int rounds, int[] levels) {}

    public static void main(String[] args) throws Exception {
        configureLogging();
        Options options = parse(args);
        ZonedDateTime started = ZonedDateTime.now();
        String stamp = started.format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Path work = options.workDir().resolve("run-" + stamp);
        Files.createDirectories(work);

        StringBuilder md = new StringBuilder();
        md.append("## Ledger benchmark ").append(started.format(DateTimeFormatter.ISO_OFFSET_DATE_TIME)).append("\n\n");
        md.append(facts(work, started)).append('\n');
        md.append("Method: ").append(options.ops()).append(" operations per round, a fresh store/file per round, ")
                .append(options.rounds()).append(" measured rounds per phase after one warm-up round of each kind,")
                .append(" phases interleaved round by round; the median round is reported.\n\n");
        System.out.print(md);
        System.out.flush();

        // warm-up (JIT, page cache, sqlite native library); not reported
        note("warm-up ...");
        raw(work.resolve("warmup-raw"), options.ops());
        ledger(work.resolve("warmup-serial"), 0, options.ops());
        ledger(work.resolve("warmup-c" + GOAL_LEVEL), GOAL_LEVEL, options.ops());

        Phase raw = new Phase("raw sqlite-jdbc (1 INSERT per txn)", 1);
        Phase serial = new Phase("ledger serial reserve", 1);
        List<Phase> concurrent = new ArrayList<>();
        for (int level : options.levels()) {
            concurrent.add(new Phase("ledger concurrent reserve", level));
        }
        for (int round = 1; round <= options.rounds(); round++) {
            note("round " + round + "/" + options.rounds() + " ...");
            raw.rounds.add(raw(work.resolve("raw-" + round), options.ops()));
            serial.rounds.add(ledger(work.resolve("serial-" + round), 0, options.ops()));
            for (Phase phase : concurrent) {
                phase.rounds.add(ledger(work.resolve("c" + phase.threads + "-" + round), phase.threads, options.ops()));
            }
        }
        deleteTree(work);

        String report = report(raw, serial, concurrent);
        System.out.print(report);
        System.out.flush();
        md.append(report);

        Files.createDirectories(options.resultsDir());
        Path out = options.resultsDir().resolve("ledger-" + stamp + ".md");
        Files.writeString(out, md.toString(), StandardCharsets.UTF_8);
        System.out.println();
        System.out.println("written: " + options.repo().relativize(out.toAbsolutePath().normalize()));
    }

    // ------------------------------------------------------------------ phases

    /** The anchor: one thread, one small INSERT per {@code BEGIN IMMEDIATE ... COMMIT}, WAL + synchronous=FULL. */
    static Round raw(Path dir, int ops) throws SQLException, IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve("raw.sqlite3");
        byte[] payload = new byte[32];
        new SecureRandom().nextBytes(payload);
        long[] latencies = new long[ops];
        long nanos;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA journal_mode=WAL");
                s.execute("PRAGMA synchronous=FULL");
                expect(s, "journal_mode", "wal");
                expect(s, "synchronous", "2");
                s.execute("CREATE TABLE anchor (id INTEGER PRIMARY KEY, k TEXT NOT NULL, v BLOB NOT NULL)");
            }
            try (Statement tx = c.createStatement(); PreparedStatement insert = c.prepareStatement("INSERT INTO anchor (k, v) VALUES (?, ?)")) {
                long start = System.nanoTime();
                for (int i = 0; i < ops; i++) {
                    long t0 = System.nanoTime();
                    tx.execute("BEGIN IMMEDIATE");
                    insert.setString(1, "k-" + i);
                    insert.setBytes(2, payload);
                    insert.executeUpdate();
                    tx.execute("COMMIT");
                    latencies[i] = System.nanoTime() - t0;
                }
                nanos = System.nanoTime() - start;
            }
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM anchor")) {
                rs.next();
                if (rs.getLong(1) != ops) {
                    throw new IllegalStateException("raw anchor wrote " + rs.getLong(1) + " rows, expected " + ops);
                }
            }
        }
        deleteTree(dir);
        Arrays.sort(latencies);
        return new Round(ops, nanos, ops, percentile(latencies, 0.50), percentile(latencies, 0.99));
    }

    /**
     * {@code threads == 0}: the calling thread reserves {@code ops} times (serial). Otherwise that
     * many client threads, each with its own session and retry epoch, split {@code ops} between
     * them and start together.
     */
    static Round ledger(Path store, int threads, int ops) throws Exception {
        SecureRandom random = new SecureRandom();
        int clients = Math.max(1, threads);
        long[] latencies = new long[ops];
        long nanos;
        long commits;
        try (Ledger ledger = Ledger.open(store, LedgerProperties.defaults(), Clock.systemUTC(), random)) {
            ReserveRequest[][] work = new ReserveRequest[clients][];
            int[] offsets = new int[clients];
            int next = 0;
            for (int t = 0; t < clients; t++) {
                SessionId session = SessionId.random(random);
                RetryEpoch epoch = ledger.issueEpoch(session);
                int count = ops / clients + (t < ops % clients ? 1 : 0);
                work[t] = new ReserveRequest[count];
                offsets[t] = next;
                for (int i = 0; i < count; i++) {
                    int n = next + i;
                    work[t][i] = new ReserveRequest(session, epoch.id(), PROJECT, TOOL, new RequestKey("k-" + n), input(n),
                            new Target("ws", "res", "", "rev"));
                }
                next += count;
            }
            long commitsBefore = ledger.maintenance().status().commits();
            if (threads == 0) {
                long start = System.nanoTime();
                reserveAll(ledger, work[0], latencies, 0);
                nanos = System.nanoTime() - start;
            } else {
                CountDownLatch ready = new CountDownLatch(clients);
                CountDownLatch go = new CountDownLatch(1);
                AtomicReference<Throwable> failure = new AtomicReference<>();
                List<Thread> workers = new ArrayList<>();
                for (int t = 0; t < clients; t++) {
                    ReserveRequest[] mine = work[t];
                    int offset = offsets[t];
                    Thread worker = new Thread(() -> {
                        ready.countDown();
                        try {
                            go.await();
                            reserveAll(ledger, mine, latencies, offset);
                        } catch (Throwable e) {
                            failure.compareAndSet(null, e);
                        }
                    }, "bench-client-" + t);
                    workers.add(worker);
                    worker.start();
                }
                if (!ready.await(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("client threads did not start");
                }
                long start = System.nanoTime();
                go.countDown();
                for (Thread worker : workers) {
                    worker.join();
                }
                nanos = System.nanoTime() - start;
                if (failure.get() != null) {
                    throw new IllegalStateException("a client failed", failure.get());
                }
            }
            LedgerStatus status = ledger.maintenance().status();
            commits = status.commits() - commitsBefore;
            if (status.receipts() != ops) {
                throw new IllegalStateException("the ledger holds " + status.receipts() + " receipts, expected " + ops);
            }
        }
        deleteTree(store);
        Arrays.sort(latencies);
        return new Round(ops, nanos, commits, percentile(latencies, 0.50), percentile(latencies, 0.99));
    }

    private static void reserveAll(Ledger ledger, ReserveRequest[] requests, long[] latencies, int offset) {
        for (int i = 0; i < requests.length; i++) {
            long t0 = System.nanoTime();
            Reservation result = ledger.reserve(requests[i]);
            latencies[offset + i] = System.nanoTime() - t0;
            if (!(result instanceof Reservation.Reserved)) {
                throw new IllegalStateException("expected Reserved for " + requests[i].requestKey() + ", got " + result);
            }
        }
    }

    private static JsonNode input(int n) {
        return JSON.readTree("{\"path\":\"src/file-" + n + ".txt\",\"mode\":\"replace\",\"content\":\"hello world " + n + "\"}");
    }

    // ------------------------------------------------------------------ report

    static String report(Phase raw, Phase serial, List<Phase> concurrent) {
        double anchor = raw.median().rate();
        StringBuilder out = new StringBuilder();
        out.append("| phase | clients | ops/round | median ops/s | min–max ops/s | × raw serial | reservations/commit | p50 ms | p99 ms |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        row(out, raw, anchor);
        row(out, serial, anchor);
        for (Phase phase : concurrent) {
            row(out, phase, anchor);
        }
        out.append('\n');
        double serialRatio = serial.median().rate() / anchor;
        out.append(goal("ledger serial ≥ " + fmt(SERIAL_GOAL, 1) + "× raw serial", serialRatio, SERIAL_GOAL));
        concurrent.stream().filter(p -> p.threads == GOAL_LEVEL).findFirst().ifPresentOrElse(
                p -> out.append(goal("ledger " + GOAL_LEVEL + " clients ≥ " + fmt(CONCURRENT_GOAL, 0) + "× raw serial",
                        p.median().rate() / anchor, CONCURRENT_GOAL)),
                () -> out.append("- goal: ledger ").append(GOAL_LEVEL).append(" clients — not measured (level not selected)\n"));
        out.append('\n');
        out.append("Rounds (ops/s, in order): raw ").append(list(raw)).append("; serial ").append(list(serial));
        for (Phase phase : concurrent) {
            out.append("; c").append(phase.threads).append(' ').append(list(phase));
        }
        out.append('\n');
        return out.toString();
    }

    private static void row(StringBuilder out, Phase phase, double anchor) {
        Round median = phase.median();
        out.append("| ").append(phase.name)
                .append(" | ").append(phase.threads)
                .append(" | ").append(median.ops())
                .append(" | ").append(fmt(median.rate(), 0))
                .append(" | ").append(fmt(phase.min(), 0)).append("–").append(fmt(phase.max(), 0))
                .append(" | ").append(fmt(median.rate() / anchor, 2)).append("×")
                .append(" | ").append(fmt(median.perCommit(), 2))
                .append(" | ").append(fmt(median.p50Nanos() / 1e6, 2))
                .append(" | ").append(fmt(median.p99Nanos() / 1e6, 2))
                .append(" |\n");
    }

    private static String goal(String what, double actual, double wanted) {
        return "- goal: " + what + ": measured " + fmt(actual, 2) + "× → " + (actual >= wanted ? "PASS" : "MISS") + "\n";
    }

    private static String list(Phase phase) {
        return phase.rounds.stream().map(r -> fmt(r.rate(), 0)).reduce((a, b) -> a + ", " + b).orElse("");
    }

    private static String fmt(double value, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    private static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int index = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    // ------------------------------------------------------------------ machine facts

    static String facts(Path dir, ZonedDateTime started) {
        StringBuilder out = new StringBuilder();
        out.append("| fact | value |\n|---|---|\n");
        fact(out, "date", started.format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        fact(out, "nproc", firstLine(run("nproc")) + " (JVM sees " + Runtime.getRuntime().availableProcessors() + ")");
        fact(out, "cpu", cpuModel());
        fact(out, "kernel", firstLine(run("uname", "-srm")));
        fact(out, "JVM", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + " (" + System.getProperty("java.vendor") + ")");
        fact(out, "SQLite", sqliteVersion());
        fact(out, "bench dir", dir.toAbsolutePath().normalize().toString());
        fact(out, "filesystem (df -T)", lastLine(run("df", "-T", dir.toString())).replaceAll("\\s+", " "));
        fact(out, "filesystem (stat -f)", firstLine(run("stat", "-f", "-c", "%T, block %S", dir.toString())));
        fact(out, "mount", firstLine(run("findmnt", "-n", "-o", "SOURCE,FSTYPE,OPTIONS", "-T", dir.toString())));
        return out.toString();
    }

    private static void fact(StringBuilder out, String name, String value) {
        out.append("| ").append(name).append(" | ").append(value.isBlank() ? "?" : value.replace("|", "\\|")).append(" |\n");
    }

    private static String cpuModel() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            return lines.filter(l -> l.startsWith("model name")).findFirst().map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("?");
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

    private static String run(String... command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0 ? text.strip() : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    private static String firstLine(String text) {
        int nl = text.indexOf('\n');
        return nl < 0 ? text : text.substring(0, nl);
    }

    private static String lastLine(String text) {
        int nl = text.lastIndexOf('\n');
        return nl < 0 ? text : text.substring(nl + 1);
    }

    // ------------------------------------------------------------------ plumbing

    private static Options parse(String[] args) {
        Path repo = Path.of(System.getProperty("bench.repo", ".")).toAbsolutePath().normalize();
        Path workDir = repo.resolve("target/bench");
        Path results = repo.resolve("bench/results");
        int ops = 2000;
        int rounds = 3;
        int[] levels = {1, 4, 16, 32};
        for (String arg : args) {
            if (arg.startsWith("--ops=")) {
                ops = Integer.parseInt(arg.substring(6));
            } else if (arg.startsWith("--rounds=")) {
                rounds = Integer.parseInt(arg.substring(9));
            } else if (arg.startsWith("--levels=")) {
                levels = Arrays.stream(arg.substring(9).split(",")).map(String::trim).mapToInt(Integer::parseInt).toArray();
            } else if (arg.startsWith("--results=")) {
                results = Path.of(arg.substring(10)).toAbsolutePath().normalize();
            } else if (arg.equals("-h") || arg.equals("--help")) {
                System.out.println("usage: LedgerBenchmark [workDir] [--ops=2000] [--rounds=3] [--levels=1,4,16,32] [--results=bench/results]");
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
        if (rounds < 1) {
            throw new IllegalArgumentException("--rounds must be at least 1");
        }
        return new Options(repo, workDir, results, ops, rounds, levels);
    }

    private static void expect(Statement s, String pragma, String expected) throws SQLException {
        try (ResultSet rs = s.executeQuery("PRAGMA " + pragma)) {
            String actual = rs.next() ? rs.getString(1) : null;
            if (!expected.equalsIgnoreCase(actual)) {
                throw new IllegalStateException("PRAGMA " + pragma + " did not take: expected " + expected + ", read back " + actual);
            }
        }
    }

    /**
     * Plain logback (no Spring Boot here) would log to stdout; point it at the product's stderr-only
     * configuration and keep it at WARN so the table stays readable. {@code -Dbench.log=INFO} for more.
     */
    private static void configureLogging() {
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "logback-spring.xml");
        }
        org.slf4j.Logger root = org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        if (root instanceof ch.qos.logback.classic.Logger) {
            ((ch.qos.logback.classic.Logger) root).setLevel(ch.qos.logback.classic.Level.toLevel(System.getProperty("bench.log", "WARN")));
        }
    }

    private static void note(String text) {
        System.err.println("[bench] " + text);
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
