package dev.lomicontrol.proof.crash;

import dev.lomicontrol.proof.crash.CrashJudge.Verdict;
import dev.lomicontrol.testing.BrokerChildProcess;
import dev.lomicontrol.testing.BrokerRestart;
import dev.lomicontrol.testing.McpHelperProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The broker crash suite (issue 8): a real broker, the real helper and the scripted client on one
 * data directory; each round the client drives file creates and terminal appends while the broker
 * is SIGKILLed at a seeded random moment and started again on the same data directory. After every
 * restart the client recovers by the rules and the judge compares its history with the receipts
 * and the effects on disk. Runs from {@link BrokerCrashSuiteTests} (short) and {@code bench/crash.sh}.
 */
final class CrashSuite {

    static final String CREATED = "created";
    static final String EFFECTS_LOG = "effects.log";
    private static final Duration RECONNECT = Duration.ofSeconds(90);
    /** A partial report goes to stderr this often, so a long run that is cut short still has its figures. */
    private static final int PROGRESS_EVERY = 10;

    /**
     * Rounds, the seed of the kill moments, the longest kill delay after the work starts, where to
     * work, and {@code waitMs} (issue 20): 0 polls as before; more sends every work item and every
     * poll with that wait, so waiting calls are in flight when the broker is killed.
     */
    record Settings(int rounds, long seed, int maxKillDelayMillis, Path workDir, int waitMs) {

        Settings(int rounds, long seed, int maxKillDelayMillis, Path workDir) {
            this(rounds, seed, maxKillDelayMillis, workDir, 0);
        }

        /** Work items per round, so that all rounds stay inside the ledger's 4096 receipts (two setup receipts a round). */
        int itemsPerRound() {
            return Math.max(2, Math.min(16, 3900 / rounds - 3));
        }
    }

    /** The figures of one suite run; {@link #line()} is the one-line report. */
    record Report(
            Settings settings,
            int kills,
            List<Integer> exitCodes,
            int sends,
            int retries,
            int reads,
            int setupOperations,
            Verdict verdict,
            int recoveredByBroker,
            int leftRuntimeDirectories,
            String purge,
            String ledgerCheck,
            Duration elapsed,
            int waitedOn,
            int waitingCut) {

        String line() {
            Verdict v = verdict;
            return String.join(
                    ", ",
                    List.of(
                            "broker crash suite: seed " + settings.seed()
                                    + (settings.waitMs() > 0 ? ", waitMs " + settings.waitMs() : ""),
                            "rounds " + kills + " of " + settings.rounds(),
                            "SIGKILLs " + kills + " (exit codes "
                                    + exitCodes.stream().distinct().toList() + ")",
                            "calls " + (sends + retries + setupOperations + reads) + " (" + sends + " work sends, "
                                    + retries + " identical retries, " + setupOperations + " setup operations, " + reads
                                    + " reads)",
                            "acknowledged operations " + v.acknowledged(),
                            "answered running and then waited on (waitMs) " + waitedOn,
                            "waiting calls (waitMs) the kill cut off unanswered " + waitingCut,
                            "effects per key max " + v.maxEffectsPerKey() + " (must be <= 1)",
                            "receipts per key max " + v.maxReceiptsPerKey() + " (must be <= 1)",
                            "acknowledged operations missing after restart " + v.acknowledgedMissing() + " (must be 0)",
                            "rows left unsettled " + v.unsettledRows() + " (must be 0)",
                            "rows the restarted brokers marked outcome_unknown " + recoveredByBroker,
                            "work items outcome_unknown in the ledger " + v.ledgerUnknown(),
                            "what the client learned " + v.clientKnowledge(),
                            "left unknown to the client " + v.clientUnknown(),
                            "recovery answers " + v.recoveryAnswers(),
                            "staging files (.lomi-*) killed creates left in the project " + v.stagingLeft(),
                            "runtime directories broker runs left in their temp dir " + leftRuntimeDirectories,
                            "purge after the rounds: " + purge,
                            "ledger check after the last restart and the purge: " + ledgerCheck.replace('\n', ' '),
                            "violations " + v.violations().size(),
                            String.format("%.0f s", elapsed.toMillis() / 1000.0)));
        }
    }

    private static final Pattern RECOVERED = Pattern.compile("(\\d+) unfinished operations marked outcome_unknown");

    private final Settings settings;
    private final Path data;
    private final Path project;
    private final Path home;
    private final Path tmp;
    private final List<Integer> exits = new ArrayList<>();
    private BrokerChildProcess broker;
    private int runs;
    private int recovered;
    private String purged = "not yet";
    private long started;

    CrashSuite(Settings settings) {
        this.settings = settings;
        this.data = settings.workDir().resolve("data");
        this.project = settings.workDir().resolve("project");
        this.home = settings.workDir().resolve("empty-home");
        this.tmp = settings.workDir().resolve("broker-tmp");
    }

    Report run() throws Exception {
        started = System.nanoTime();
        Files.createDirectories(project.resolve(CREATED));
        Files.createDirectories(home);
        Files.createDirectories(tmp);
        broker = startBroker();
        try {
            broker.withProjectAndYolo(project.toRealPath());
            CrashClient client;
            try (McpHelperProcess helper = McpHelperProcess.startPinned(
                    data.resolve("agent-control/discovery.json"),
                    broker.discoveryKey(),
                    settings.workDir().resolve("helper.err"),
                    "crash-suite")) {
                client = new CrashClient(helper, settings.waitMs());
                Random random = new Random(settings.seed());
                boolean kept = true;
                for (int round = 1; round <= settings.rounds() && kept; round++) {
                    kept = round(round, helper, client, random.nextInt(settings.maxKillDelayMillis() + 1));
                }
                if (!helper.foreignLines().isEmpty()) {
                    throw new AssertionError("the helper wrote non-JSON-RPC lines to stdout: " + helper.foreignLines());
                }
            }
            Verdict verdict = CrashJudge.judge(client.items(), LedgerRows.read(data), CrashJudge.disk(project));
            purged = purgeEarlierRuns();
            String check = BrokerChildProcess.console(data)
                    .in(settings.workDir())
                    .mergingStderr()
                    .ok("ledger", "check")
                    .strip();
            broker.stop();
            return report(client, verdict, check);
        } finally {
            broker.stop();
        }
    }

    /**
     * One round: set up (not under fire), work while the broker is SIGKILLed after {@code killDelayMillis}
     * and restarted, reconnect, recover by the rules, judge. False when the judge found a broken promise.
     */
    private boolean round(int round, McpHelperProcess helper, CrashClient client, int killDelayMillis)
            throws Exception {
        long t0 = System.nanoTime();
        client.awaitBroker(RECONNECT);
        client.setUp(round);
        int before = client.items().size();
        long t1 = System.nanoTime();
        BrokerRestart restart = BrokerRestart.after(broker, killDelayMillis, this::startBroker);
        try {
            client.drive(round, settings.itemsPerRound(), restart.killed()::get);
        } finally {
            broker = restart.next().get(3, TimeUnit.MINUTES);
        }
        long t2 = System.nanoTime();
        exits.add(restart.exitCode());
        recovered += Integer.parseInt(broker.await(RECOVERED)); // this run's recovery, its own log line
        client.awaitBroker(RECONNECT);
        long t3 = System.nanoTime();
        List<WorkItem> open = client.items().subList(before, client.items().size()).stream()
                .filter(item -> item.uncertain() || item.knowledge == WorkItem.Knowledge.NOT_SENT)
                .toList();
        client.recover(open);
        Verdict verdict = CrashJudge.judge(client.items(), LedgerRows.read(data), CrashJudge.disk(project));
        System.err.printf(
                "round %d: kill at %d ms, %d items, %d open; setup %d ms, work and restart %d ms, reconnect %d ms, recovery and check %d ms%n",
                round,
                killDelayMillis,
                client.items().size() - before,
                open.size(),
                millis(t0, t1),
                millis(t1, t2),
                millis(t2, t3),
                millis(t3, System.nanoTime()));
        if (round % PROGRESS_EVERY == 0) {
            System.err.println(
                    "so far: " + report(client, verdict, "runs at the end").line());
        }
        if (!verdict.violations().isEmpty() || verdict.unsettledRows() > 0) {
            System.err.println(
                    "round " + round + " (seed " + settings.seed() + ") broke a promise: " + verdict.violations());
            return false;
        }
        return true;
    }

    private Report report(CrashClient client, Verdict verdict, String ledgerCheck) throws IOException {
        int setup = (int) client.items().stream()
                .filter(i -> i.kind == WorkItem.Kind.SETUP)
                .count();
        return new Report(
                settings,
                exits.size(),
                List.copyOf(exits),
                client.sends,
                client.retries,
                client.reads,
                setup,
                verdict,
                recovered,
                leftRuntimeDirectories(),
                purged,
                ledgerCheck,
                Duration.ofNanos(System.nanoTime() - started),
                client.waitedOn,
                (int) client.items().stream()
                        .filter(i -> i.request.has("waitMs") && i.knowledge == WorkItem.Knowledge.UNKNOWN_NO_RECEIPT
                                || i.request.has("waitMs")
                                        && !i.recovery.isEmpty()
                                        && i.acknowledged()
                                        && i.lastSeen.equals("running"))
                        .count());
    }

    /**
     * Purges in the mix (issue 19): after the rounds, every receipt of the killed runs is retired (an
     * earlier broker run issued its epoch). Exports, purges (the settled ones go; outcome_unknown
     * ones stay, no finding was recorded), and checks that every purged receipt is in the export;
     * the caller asserts that {@code ledger check} is ok afterwards.
     */
    private String purgeEarlierRuns() throws Exception {
        Path export = settings.workDir().resolve("export.sqlite3");
        BrokerChildProcess.console(data)
                .in(settings.workDir())
                .mergingStderr()
                .ok("ledger", "export", export.toString());
        List<LedgerRows.Row> before = LedgerRows.read(data);
        String purge = BrokerChildProcess.console(data)
                .in(settings.workDir())
                .mergingStderr()
                .ok("ledger", "purge", "--expired", "--confirm")
                .strip();
        List<String> after =
                LedgerRows.read(data).stream().map(LedgerRows.Row::operationId).toList();
        List<String> exported = LedgerRows.readFile(export).stream()
                .map(LedgerRows.Row::operationId)
                .toList();
        long gone =
                before.stream().filter(r -> !after.contains(r.operationId())).count();
        long missing = before.stream()
                .filter(r -> !after.contains(r.operationId()) && !exported.contains(r.operationId()))
                .count();
        if (missing > 0 || gone == 0) {
            throw new AssertionError("purge after the rounds: " + gone + " receipts purged, " + missing
                    + " of them not in the export: " + purge);
        }
        return gone + " of " + before.size() + " receipts purged, all in the export (" + purge.replace('\n', ' ') + ")";
    }

    /** Runtime directories (sockets, shell integration) that broker runs left behind in their temp directory. */
    private int leftRuntimeDirectories() throws IOException {
        try (Stream<Path> entries = Files.list(tmp)) {
            return (int) entries.filter(p -> p.getFileName().toString().startsWith("lomi-control-"))
                    .count();
        }
    }

    private static long millis(long from, long to) {
        return (to - from) / 1_000_000;
    }

    private BrokerChildProcess startBroker() throws Exception {
        Path logs = Files.createDirectories(settings.workDir().resolve("broker-logs"));
        return BrokerChildProcess.on(data)
                .log(logs.resolve(String.format("run-%04d.err", ++runs)))
                .home(home)
                .tmpdir(tmp)
                .start();
    }
}
