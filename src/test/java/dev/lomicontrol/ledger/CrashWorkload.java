package dev.lomicontrol.ledger;

import dev.lomicontrol.core.SessionId;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Child-JVM workload for the crash tests: several threads reserve, begin, perform a fake effect
 * (one line appended to the effects file) and complete operations until the parent kills the
 * process with SIGKILL. Every step is reported on stdout only after it returned.
 *
 * <p>args: storeDir effectsFile round threads
 */
public final class CrashWorkload {

    public static void main(String[] args) throws Exception {
        Path store = Path.of(args[0]);
        Path effects = Path.of(args[1]);
        String round = args[2];
        int threads = Integer.parseInt(args[3]);
        SecureRandom random = new SecureRandom();
        Ledger ledger = WorkloadSteps.open(store, random);
        SessionId session = SessionId.random(random);
        RetryEpoch epoch = ledger.issueEpoch(session);
        WorkloadSteps steps = new WorkloadSteps();
        steps.report("ready " + ledger.instance());
        AtomicInteger counter = new AtomicInteger();
        for (int t = 0; t < threads; t++) {
            Thread worker =
                    new Thread(() -> work(ledger, session, epoch, effects, round, counter, steps), "workload-" + t);
            worker.start();
        }
        Thread.currentThread().join();
    }

    private static void work(
            Ledger ledger,
            SessionId session,
            RetryEpoch epoch,
            Path effects,
            String round,
            AtomicInteger counter,
            WorkloadSteps steps) {
        try (FileOutputStream effectLog = new FileOutputStream(effects.toFile(), true)) {
            while (true) {
                String key = "r" + round + "-" + counter.incrementAndGet();
                Operation operation = steps.reserveAndBegin(ledger, session, epoch, key, key + ".txt");
                WorkloadSteps.effect(effectLog, key);
                steps.report("ran " + key);
                steps.succeed(ledger, operation, key);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
