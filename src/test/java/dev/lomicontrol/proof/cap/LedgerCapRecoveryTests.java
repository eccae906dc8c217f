package dev.lomicontrol.proof.cap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lomicontrol.testing.BrokerChildProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Issue 19 end to end: a full ledger works again the same day. The real headless broker in a child
 * JVM, the real MCP helper per agent, the real console ({@code lomi-control console …}, a child
 * JVM each), one real SQLite store in WAL with synchronous=FULL.
 *
 * <p>The route to the cap: an earlier broker run's history is written through the real Ledger API
 * into the broker's data directory before it starts ({@link EarlierRun}: 32 threads share the
 * group-commit writer, a few seconds instead of ~100 s through one helper, which sends one call at a
 * time). Everything the issue is about goes through the real helper and broker: the receipts that
 * cross 80 %, 95 % and the cap, the refusal, the disconnect, export, purge, the new connection's
 * work and the retry with the old epoch. Both kinds of dead epoch are freed: an earlier run's and a
 * disconnected agent's.
 */
class LedgerCapRecoveryTests {

    static final int CAP = 4096;
    /**
     * Settled receipts of the earlier run (plus one left running): past 80 % (3277) and below 95 %
     * (3892), so the broker starts with the 80 % warning and the helper's own calls cross 95 % and the
     * cap. (Seeding below 80 % works too and crosses every threshold live, but costs ~600 more
     * helper round trips — a minute on a busy machine.)
     */
    static final int SEEDED = 3880;

    @TempDir
    Path temp;

    Path data;
    Path project;
    Path log;
    BrokerChildProcess broker;
    final List<CapAgent> agents = new ArrayList<>();

    @BeforeEach
    void directories() throws Exception {
        data = Files.createDirectories(temp.resolve("data"));
        project = Files.createDirectories(temp.resolve("project"));
        Files.createDirectories(project.resolve(CapAgent.CREATED));
        log = temp.resolve("broker.err");
    }

    @AfterEach
    void stop() throws Exception {
        for (CapAgent agent : agents) {
            agent.close();
        }
        if (broker != null) {
            broker.stop();
        }
    }

    @Test
    void aLedgerFullOfReceiptsWorksAgainAfterTheAgentDisconnectsAndTheAdminExportsAndPurges() throws Exception {
        EarlierRun.Seeded earlier = EarlierRun.seed(data, SEEDED, 1, 0);
        startBroker();
        assertThat(Files.readString(log)).contains("3881 of 4096 receipts in use (80 % or more)");
        CapAgent a = agent("a");
        a.connect();
        assertThat(a.status().path("ledgerWarning").asString())
                .as("lomi_status after the broker's answers")
                .contains(
                        "3881 of 4096 receipts (80 % or more)", "new work may soon be refused with RESOURCE_EXHAUSTED");

        long t0 = System.nanoTime();
        List<ObjectNode> sent = new ArrayList<>();
        int live = CAP - SEEDED - 1;
        for (int i = 0; i < live; i++) {
            ObjectNode request = a.createRequest(String.format("a-%04d", i));
            sent.add(request);
            JsonNode done = a.create(request);
            assertThat(done.path("data").path("state").asString())
                    .as("create %d: %s", i, done)
                    .isEqualTo("succeeded");
            int inStore = SEEDED + 1 + i + 1;
            if (inStore == 3892) {
                assertThat(a.status().path("ledgerWarning").asString())
                        .contains("3892 of 4096 receipts (95 % or more)");
            }
        }
        double fillSeconds = (System.nanoTime() - t0) / 1e9;

        JsonNode refused = a.create(a.createRequest("a-refused"));
        assertThat(refused.path("code").asString()).isEqualTo("RESOURCE_EXHAUSTED");
        assertThat(refused.path("message").asString())
                .contains(
                        "receipts are full (4096 of cap 4096)",
                        "new work is refused",
                        "3880 receipts and 30 retry epochs of ended connections or earlier broker runs can be freed now",
                        "1 outcome_unknown receipts need the admin's finding",
                        "1 live sessions hold " + live + " receipts",
                        "lomi-control console ledger status",
                        "session revoke <id> --confirm",
                        "ledger export <file>",
                        "ledger purge --expired --confirm");
        assertThat(refused.path("ledgerWarning").asString()).contains("4096 of 4096 receipts (at the cap)");
        assertThat(a.status().path("ledgerWarning").asString()).contains("new work is refused");
        String sessionA = sessionOf(a.epoch);
        assertThat(console("status")).contains("receipts 4096 / 4096", "AT CAP: new work is refused");
        assertThat(console("ledger status"))
                .contains("4096 / 4096  AT CAP")
                .containsSubsequence(
                        "1. ledger operations --state outcome_unknown",
                        "frees 1 receipts",
                        "2. session revoke " + sessionA + " --confirm",
                        "frees " + live + " receipts and 1 retry epochs",
                        "3. ledger export <file>",
                        "4. ledger purge --expired --confirm   frees 3880 receipts and 30 retry epochs now");
        assertThat(Files.readString(log))
                .contains("4096 of 4096 receipts in use (at the cap)", "3892 of 4096 receipts in use (95 % or more)");

        a.close();
        awaitEnded(a.epoch);
        Path export = temp.resolve("export-1.sqlite3");
        console("ledger", "export", export.toString());
        Map<String, Map<String, String>> before = StoreRows.operations(StoreRows.store(data));
        Map<String, List<Map<String, String>>> historyBefore = StoreRows.history(StoreRows.store(data));
        String purged = console("ledger", "purge", "--expired", "--confirm");
        assertThat(purged)
                .contains("purged " + (CAP - 1) + " operations", "kept 1 outcome_unknown receipts without a finding");
        assertExportHoldsWhatWasPurged(export, before, historyBefore, CAP - 1);

        CapAgent b = agent("b");
        b.connect();
        JsonNode fresh = b.create(b.createRequest("b-0000"));
        assertThat(fresh.path("data").path("state").asString())
                .as("a new connection's work: %s", fresh)
                .isEqualTo("succeeded");
        assertThat(b.status().path("ledgerWarning").isNull())
                .as("below 80 % again")
                .isTrue();

        JsonNode replay = b.call("lomi_files_mutate", sent.get(0));
        assertThat(replay.path("code").asString())
                .as("the old epoch: %s", replay)
                .isEqualTo("RETRY_WINDOW_EXPIRED");
        assertThat(StoreRows.count(
                        StoreRows.store(data), "SELECT count(*) FROM operation WHERE request_key = 'a-0000'"))
                .as("no second receipt")
                .isZero();
        try (Stream<Path> files = Files.list(project.resolve(CapAgent.CREATED))) {
            assertThat(files.count())
                    .as("one file per acknowledged create, none twice")
                    .isEqualTo(live + 1);
        }

        String unknown = earlier.leftRunning().get(0);
        console(
                "ledger",
                "reconcile",
                unknown,
                "--resolution",
                "failed",
                "--note",
                "seeded earlier run: nothing was dispatched for real");
        console("ledger", "export", temp.resolve("export-2.sqlite3").toString());
        assertThat(console("ledger", "purge", "--expired", "--confirm"))
                .contains("purged 1 operations, 4 history rows");
        assertThat(console("ledger", "check")).contains("integrity: ok");
        System.err.printf(
                "receipt cap: seeded %d earlier-run receipts, %d creates through the helper in %.1f s (%.1f ms each), purged %d then 1%n",
                SEEDED + 1, live, fillSeconds, fillSeconds * 1000 / live, CAP - 1);
    }

    @Test
    void aLedgerFullOfEpochsTakesANewConnectionAgainAndALiveSessionsRowsWaitForItsRevocation() throws Exception {
        EarlierRun.seed(data, 0, 0, CAP - 2);
        startBroker();
        assertThat(Files.readString(log)).contains("4094 of 4096 retry epochs in use (95 % or more)");
        CapAgent a = agent("a");
        a.connect();
        List<ObjectNode> sent = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            sent.add(a.createRequest("a-" + i));
            assertThat(a.create(sent.get(i)).path("data").path("state").asString())
                    .isEqualTo("succeeded");
        }
        CapAgent b = agent("b");
        assertThat(CapAgent.isOk(b.connect())).as("the 4096th epoch").isTrue();
        CapAgent c = agent("c");

        JsonNode refused = c.connect();
        assertThat(refused.path("code").asString()).isEqualTo("RESOURCE_EXHAUSTED");
        assertThat(refused.path("message").asString())
                .contains(
                        "retry epochs are full (4096 of cap 4096)",
                        "a new connection's retry epoch (lomi_connect)",
                        "0 receipts and 4094 retry epochs of ended connections or earlier broker runs can be freed now",
                        "ledger export <file>",
                        "ledger purge --expired --confirm",
                        "call lomi_connect again");

        console("ledger", "export", temp.resolve("export-1.sqlite3").toString());
        String sessionA = sessionOf(a.epoch);
        String first = console("ledger", "purge", "--expired", "--confirm");
        assertThat(first)
                .contains(
                        "purged 0 operations, 0 history rows, 4094 retry epochs",
                        "kept 3 receipts and 1 retry epochs of live session " + sessionA,
                        "'session revoke " + sessionA + " --confirm'",
                        "kept 0 receipts and 1 retry epochs of live session " + sessionOf(b.epoch));
        assertThat(CapAgent.isOk(c.connect()))
                .as("a new connection after the purge")
                .isTrue();

        console("session", "revoke", sessionA, "--confirm");
        awaitEnded(a.epoch);
        Path export = temp.resolve("export-2.sqlite3");
        console("ledger", "export", export.toString());
        Map<String, Map<String, String>> before = StoreRows.operations(StoreRows.store(data));
        Map<String, List<Map<String, String>>> historyBefore = StoreRows.history(StoreRows.store(data));
        assertThat(console("ledger", "purge", "--expired", "--confirm"))
                .contains("purged 3 operations, 9 history rows, 1 retry epochs");
        assertExportHoldsWhatWasPurged(export, before, historyBefore, 3);
        assertThat(c.call("lomi_files_mutate", sent.get(0)).path("code").asString())
                .as("A's epoch from another connection")
                .isEqualTo("RETRY_WINDOW_EXPIRED");
        assertThat(StoreRows.count(StoreRows.store(data), "SELECT count(*) FROM retry_epoch"))
                .as("B's and C's")
                .isEqualTo(2);
    }

    /** Every receipt that the purge removed is in the export with the same columns and the same history rows. */
    private void assertExportHoldsWhatWasPurged(
            Path export,
            Map<String, Map<String, String>> before,
            Map<String, List<Map<String, String>>> historyBefore,
            int expected)
            throws Exception {
        Set<String> after = StoreRows.operations(StoreRows.store(data)).keySet();
        Set<String> purged = new HashSet<>(before.keySet());
        purged.removeAll(after);
        assertThat(purged).hasSize(expected);
        Map<String, Map<String, String>> exported = StoreRows.operations(export);
        Map<String, List<Map<String, String>>> exportedHistory = StoreRows.history(export);
        for (String id : purged) {
            assertThat(exported.get(id)).as("receipt %s in the export", id).isEqualTo(before.get(id));
            assertThat(exportedHistory.get(id))
                    .as("history of %s in the export", id)
                    .isNotEmpty()
                    .isEqualTo(historyBefore.get(id));
            assertThat(StoreRows.count(
                            StoreRows.store(data),
                            "SELECT count(*) FROM operation_history WHERE operation_id = '" + id + "'"))
                    .as("no history row of %s left", id)
                    .isZero();
        }
    }

    private void startBroker() throws Exception {
        Path home = Files.createDirectories(temp.resolve("home"));
        Path tmp = Files.createDirectories(temp.resolve("broker-tmp"));
        broker = BrokerChildProcess.on(data).log(log).home(home).tmpdir(tmp).start();
        broker.withProjectAndYolo(project.toRealPath());
    }

    private CapAgent agent(String name) throws Exception {
        CapAgent agent = CapAgent.start(data, broker.discoveryKey(), temp.resolve("helper-" + name + ".err"));
        agents.add(agent);
        return agent;
    }

    private String console(String... args) throws Exception {
        String[] words = args.length == 1 ? args[0].split(" ") : args;
        return BrokerChildProcess.console(data).in(temp).mergingStderr().ok(words);
    }

    private String sessionOf(String epoch) throws Exception {
        return StoreRows.rows(StoreRows.store(data), "SELECT session_id FROM retry_epoch WHERE id = '" + epoch + "'")
                .get(0)
                .get("session_id");
    }

    /** The broker settles an ended session's work in the background; its epoch is marked ended then. */
    private void awaitEnded(String epoch) {
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> StoreRows.count(
                                StoreRows.store(data),
                                "SELECT count(*) FROM retry_epoch WHERE id = '" + epoch + "' AND ended_at IS NOT NULL")
                        == 1);
    }
}
