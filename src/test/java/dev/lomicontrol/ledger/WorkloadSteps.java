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
import tools.jackson.databind.json.JsonMapper;

/**
 * The steps the child-JVM workloads of the crash tests ({@link CrashWorkload}, {@link PurgeWorkload})
 * share: the store opened without caps in the way, and one operation's life, each step reported on
 * stdout (one line, flushed) only after it returned.
 */
final class WorkloadSteps {

    private static final Object OUT = new Object();

    private final PrintStream out =
            new PrintStream(new FileOutputStream(java.io.FileDescriptor.out), false, StandardCharsets.UTF_8);
    private final JsonMapper json = JsonMapper.builder().build();

    /** The ledger at {@code store} with caps no workload reaches. */
    static Ledger open(Path store, SecureRandom random) {
        return Ledger.open(
                store, LedgerProperties.defaults().withCaps(1_000_000, 1_000_000), Clock.systemUTC(), random);
    }

    /** One line on stdout, whole and flushed, whichever thread writes. */
    void report(String line) {
        synchronized (OUT) {
            out.println(line);
            out.flush();
        }
    }

    /** Reserves {@code key} (input {@code {"path": path}}), reports {@code ack key id}, and begins it. */
    Operation reserveAndBegin(Ledger ledger, SessionId session, RetryEpoch epoch, String key, String path) {
        ReserveRequest request = new ReserveRequest(
                session,
                epoch.id(),
                new ProjectId("p"),
                new ToolName("lomi_files_mutate"),
                new RequestKey(key),
                json.readTree("{\"path\":\"" + path + "\"}"),
                new Target("ws", key, "", ""));
        Operation operation = ((Reservation.Reserved) ledger.reserve(request)).operation();
        report("ack " + key + " " + operation.id());
        if (!(ledger.begin(operation.id()) instanceof TransitionResult.Moved)) {
            throw new IllegalStateException("begin refused for " + key);
        }
        return operation;
    }

    /** The fake effect: {@code key} appended to the effects file as one line. */
    static void effect(FileOutputStream effectLog, String key) throws IOException {
        effectLog.write((key + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** Settles the operation succeeded with its whole effect and reports {@code done key}. */
    void succeed(Ledger ledger, Operation operation, String key) {
        ledger.transition(
                operation.id(), OperationState.SUCCEEDED, EffectState.COMPLETE, Optional.of("{}"), Optional.empty());
        report("done " + key);
    }
}
