package dev.lomicontrol.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash test with purges in the mix (issue 19): a child JVM runs agents whose sessions end
 * every 40 operations while its maintenance thread exports and purges after each ended session, and is
 * SIGKILLed at seeded random moments around a purge, round after round on one store. After every
 * kill the store opens, {@code ledger check} is ok, no receipt is half-deleted (each kept receipt
 * has its whole history, ending in its state), every acknowledged receipt is either still there or
 * in an export with its whole history, and no effect ran twice. Rounds {@code
 * -Dlomi.crash.purge.rounds} (default 8), seed {@code -Dlomi.crash.purge.seed}.
 */
class LedgerPurgeCrashTests {

    @TempDir
    Path temp;

    @Test
    void aPurgeInterruptedBySigkillLeavesTheStoreConsistentAndEveryPurgedReceiptInAnExport() throws Exception {
        CrashRounds crash = CrashRounds.of("purge crash test", "lomi.crash.purge", 8);
        Random random = crash.random();
        Path store = temp.resolve("agent-control");
        Path effects = Files.createFile(temp.resolve("effects.log"));
        Path exports = Files.createDirectories(temp.resolve("exports"));
        Map<String, String> acked = new HashMap<>();
        int killedMidPurge = 0;
        long purgedRows = 0;
        for (int round = 1; round <= crash.rounds(); round++) {
            List<String> lines = runAndKill(store, effects, exports, round, random.nextInt(150));
            String lastMaintenance = "";
            for (String line : lines) {
                String[] parts = line.split(" ");
                if (parts[0].equals("ack")) {
                    acked.put(parts[1], parts[2]);
                } else if (parts[0].equals("purging") || parts[0].equals("exported")) {
                    lastMaintenance = parts[0];
                } else if (parts[0].equals("purged")) {
                    lastMaintenance = parts[0];
                    purgedRows += Long.parseLong(parts[1]);
                }
            }
            killedMidPurge += lastMaintenance.equals("purging") ? 1 : 0;
            verifyAfterKill(store, effects, exports, acked, "round " + round + " seed " + crash.seed());
        }
        System.err.printf(
                "purge crash test: %d rounds, %d SIGKILLs after a purge began and before it reported back, %d acknowledged receipts,"
                        + " %d receipts purged by reported purges, store consistent after every kill%n",
                crash.rounds(), killedMidPurge, acked.size(), purgedRows);
        assertThat(purgedRows).as("purges deleted rows at all").isPositive();
    }

    /** Starts the workload, waits for its third purge to begin, then kills it {@code delayMillis} later. */
    private List<String> runAndKill(Path store, Path effects, Path exports, int round, int delayMillis)
            throws Exception {
        KilledWorkload workload = KilledWorkload.start(
                PurgeWorkload.class,
                List.of(store.toString(), effects.toString(), exports.toString(), Integer.toString(round), "3"));
        await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(5))
                .until(() -> !workload.isAlive() || count(workload, "purging") >= 3);
        assertThat(workload.isAlive())
                .as("the workload runs (round " + round + ")")
                .isTrue();
        // a seeded moment after the third purge started: inside it, or in the work and export that follow
        return workload.killAfter(delayMillis);
    }

    private static long count(KilledWorkload workload, String word) {
        return workload.lines().stream().filter(l -> l.equals(word)).count();
    }

    private void verifyAfterKill(Path store, Path effects, Path exports, Map<String, String> acked, String context)
            throws Exception {
        Map<String, Integer> effectCount = new HashMap<>();
        for (String line : Files.readAllLines(effects, StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                effectCount.merge(line.strip(), 1, Integer::sum);
            }
        }
        byte[] effectsBefore = Files.readAllBytes(effects);
        try (Ledger ledger = WorkloadSteps.open(store, new SecureRandom())) {
            assertThat(ledger.maintenance().check())
                    .as(context + ": ledger check")
                    .isEqualTo("ok");
            Path db = store.resolve("control.sqlite3");
            assertThat(scalar(
                            db,
                            "SELECT count(*) FROM operation o WHERE NOT EXISTS (SELECT 1 FROM operation_history h WHERE h.operation_id = o.id"
                                    + " AND h.state = 'queued') OR (SELECT h.state FROM operation_history h WHERE h.operation_id = o.id ORDER BY h.seq DESC LIMIT 1)"
                                    + " IS NOT o.state"))
                    .as(context + ": receipts with part of their history missing")
                    .isZero();
            Map<String, String> kept = keyToId(db);
            Map<String, String> exported = exportedSettled(exports);
            acked.forEach((key, id) -> assertThat(kept.containsValue(id) || exported.containsKey(id))
                    .as(context + ": acknowledged " + key + " is kept or was exported whole before its purge")
                    .isTrue());
            effectCount.forEach((key, n) -> assertThat(n)
                    .as(context + ": effect of " + key + " ran at most once")
                    .isLessThanOrEqualTo(1));
        }
        assertThat(Files.readAllBytes(effects))
                .as(context + ": reopening dispatched nothing")
                .isEqualTo(effectsBefore);
    }

    private static Map<String, String> keyToId(Path db) throws SQLException {
        Map<String, String> out = new HashMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT request_key, id FROM operation")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getString(2));
            }
        }
        return out;
    }

    /** Receipts the exports hold settled with their whole history (queued first, their state last): id → state. */
    private static Map<String, String> exportedSettled(Path exports) throws Exception {
        Map<String, String> out = new HashMap<>();
        try (Stream<Path> files = Files.list(exports)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".sqlite3")).toList()) {
                try (Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + file + "?mode=ro");
                        Statement s = c.createStatement();
                        ResultSet rs = s.executeQuery(
                                "SELECT o.id, o.state FROM operation o WHERE o.state IN ('succeeded', 'failed', 'cancelled', 'outcome_unknown')"
                                        + " AND EXISTS (SELECT 1 FROM operation_history h WHERE h.operation_id = o.id AND h.state = 'queued')"
                                        + " AND (SELECT h.state FROM operation_history h WHERE h.operation_id = o.id ORDER BY h.seq DESC LIMIT 1) = o.state")) {
                    while (rs.next()) {
                        out.put(rs.getString(1), rs.getString(2));
                    }
                } catch (SQLException e) {
                    // an export the kill interrupted is incomplete; the purge never used it (it was not recorded)
                }
            }
        }
        return out;
    }

    private static long scalar(Path db, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            return rs.getLong(1);
        }
    }
}
