package dev.lomicontrol.ledger;

import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.core.ToolName;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.json.JsonMapper;

/**
 * Child-JVM workload for the crash tests: several threads reserve, begin, perform a fake effect
 * (one line appended to the effects file) and complete operations until the parent kills the
 * process with SIGKILL. Every step is reported on stdout only after it returned.
 *
 * <p>args: storeDir effectsFile round threads
 */
public final class CrashWorkload {

    private static final Object OUT = new Object();

    public static void main(String[] args) throws Exception {
        Path store = Path.of(args[0]);
        Path effects = Path.of(args[1]);
        String round = args[2];
        int threads = Integer.parseInt(args[3]);
        SecureRandom random = new SecureRandom();
        Ledger ledger = Ledger.open(
                store, LedgerProperties.defaults().withCaps(1_000_000, 1_000_000), Clock.systemUTC(), random);
        SessionId session = SessionId.random(random);
        RetryEpoch epoch = ledger.issueEpoch(session);
        PrintStream out =
                new PrintStream(new FileOutputStream(java.io.FileDescriptor.out), false, StandardCharsets.UTF_8);
        report(out, "ready " + ledger.instance());
        AtomicInteger counter = new AtomicInteger();
        for (int t = 0; t < threads; t++) {
            Thread worker =
                    new Thread(() -> work(ledger, session, epoch, effects, round, counter, out), "workload-" + t);
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
            PrintStream out) {
        JsonMapper json = JsonMapper.builder().build();
        try (FileOutputStream effectLog = new FileOutputStream(effects.toFile(), true)) {
            while (true) {
                String key = "r" + round + "-" + counter.incrementAndGet();
                ReserveRequest request = new ReserveRequest(
                        session,
                        epoch.id(),
                        new ProjectId("p"),
                        new ToolName("lomi_files_mutate"),
                        new RequestKey(key),
                        json.readTree("{\"path\":\"" + key + ".txt\"}"),
                        new Target("ws", key, "", ""));
                Reservation reservation = ledger.reserve(request);
                Operation operation = ((Reservation.Reserved) reservation).operation();
                report(out, "ack " + key + " " + operation.id());
                if (!(ledger.begin(operation.id()) instanceof TransitionResult.Moved)) {
                    throw new IllegalStateException("begin refused for " + key);
                }
                effectLog.write((key + "\n").getBytes(StandardCharsets.UTF_8));
                report(out, "ran " + key);
                ledger.transition(
                        operation.id(),
                        OperationState.SUCCEEDED,
                        EffectState.COMPLETE,
                        Optional.of("{}"),
                        Optional.empty());
                report(out, "done " + key);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void report(PrintStream out, String line) {
        synchronized (OUT) {
            out.println(line);
            out.flush();
        }
    }
}
