package dev.lomicontrol.ledger;

import dev.lomicontrol.core.SessionId;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Optional;

/**
 * Child-JVM workload for the purge crash test: agent threads run operations to completion (one
 * effect line each) under sessions that end every 40 operations, while a maintenance thread
 * exports and purges after every ended session, until the parent SIGKILLs the process. Every step is reported
 * on stdout only after it returned.
 *
 * <p>args: storeDir effectsFile exportsDir round agents
 */
public final class PurgeWorkload {

    private static final int SESSION_OPERATIONS = 40;
    private static final java.util.concurrent.Semaphore ENDED = new java.util.concurrent.Semaphore(0);
    private static final WorkloadSteps STEPS = new WorkloadSteps();

    public static void main(String[] args) throws Exception {
        Path store = Path.of(args[0]);
        Path effects = Path.of(args[1]);
        Path exports = Path.of(args[2]);
        String round = args[3];
        int agents = Integer.parseInt(args[4]);
        SecureRandom random = new SecureRandom();
        Ledger ledger = WorkloadSteps.open(store, random);
        report("ready " + ledger.instance());
        for (int a = 0; a < agents; a++) {
            String agent = "r" + round + "a" + a;
            new Thread(() -> agent(ledger, random, effects, agent), "agent-" + a).start();
        }
        for (int n = 1; ; n++) {
            // each purge has something to delete: at least one session ended since the last one
            ENDED.acquire();
            ENDED.drainPermits();
            Path file = exports.resolve("r" + round + "-" + n + ".sqlite3");
            ledger.maintenance().export(file);
            report("exported " + file);
            report("purging");
            PurgeResult purged = ledger.maintenance().purge(Optional.empty(), true);
            report("purged " + purged.operations() + " " + purged.historyRows() + " " + purged.epochs());
        }
    }

    private static void agent(Ledger ledger, SecureRandom random, Path effects, String agent) {
        try (FileOutputStream effectLog = new FileOutputStream(effects.toFile(), true)) {
            for (int s = 0; ; s++) {
                SessionId session = SessionId.random(random);
                RetryEpoch epoch = ledger.issueEpoch(session);
                for (int i = 0; i < SESSION_OPERATIONS; i++) {
                    String key = agent + "s" + s + "-" + i;
                    Operation operation = STEPS.reserveAndBegin(ledger, session, epoch, key, key);
                    WorkloadSteps.effect(effectLog, key);
                    STEPS.succeed(ledger, operation, key);
                }
                ledger.settleLost(session, "the agent disconnected");
                report("ended " + session);
                ENDED.release();
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void report(String line) {
        STEPS.report(line);
    }
}
