package dev.lomicontrol.proof.cap;

import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.core.ToolName;
import dev.lomicontrol.ledger.EffectState;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.LedgerProperties;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.ledger.OperationState;
import dev.lomicontrol.ledger.Reservation;
import dev.lomicontrol.ledger.ReserveRequest;
import dev.lomicontrol.ledger.RetryEpoch;
import dev.lomicontrol.ledger.Target;
import dev.lomicontrol.ledger.TransitionResult;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import tools.jackson.databind.json.JsonMapper;

/**
 * The fast part of a fill: an earlier broker run's history written through the real {@link Ledger}
 * API (reserve → running → succeeded, each a durable WAL commit with synchronous=FULL) into the
 * broker's own data directory before the broker starts. Filling 4096 receipts through the helper
 * costs about 32 ms a call (133 s, issue 19) because the helper sends one call at a time; here 32
 * threads share the group-commit writer. The rows are exactly what an earlier run leaves: settled
 * receipts of epochs of another instance.
 */
final class EarlierRun {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int SESSION_RECEIPTS = 128;

    private EarlierRun() {}

    /** What was seeded: receipt ids (settled) and the ids of operations left running (outcome_unknown at the broker's start). */
    record Seeded(List<String> settled, List<String> leftRunning, int epochs) {}

    /**
     * Seeds {@code receipts} succeeded receipts (128 per session, one epoch each), {@code running}
     * operations left running, and {@code extraEpochs} epochs of connections that made no calls.
     */
    static Seeded seed(Path data, int receipts, int running, int extraEpochs) throws Exception {
        SecureRandom random = new SecureRandom();
        LedgerProperties properties = LedgerProperties.defaults();
        try (Ledger ledger = Ledger.open(data.resolve("agent-control"), properties, Clock.systemUTC(), random)) {
            ExecutorService pool = Executors.newFixedThreadPool(32);
            try {
                List<Future<RetryEpoch>> epochs = new ArrayList<>();
                int sessions = (receipts + running + SESSION_RECEIPTS - 1) / SESSION_RECEIPTS + extraEpochs;
                for (int i = 0; i < sessions; i++) {
                    epochs.add(pool.submit(() -> ledger.issueEpoch(SessionId.random(random))));
                }
                List<RetryEpoch> issued = new ArrayList<>();
                for (Future<RetryEpoch> epoch : epochs) {
                    issued.add(epoch.get());
                }
                List<Future<String>> settled = new ArrayList<>();
                for (int i = 0; i < receipts; i++) {
                    RetryEpoch epoch = issued.get(i / SESSION_RECEIPTS);
                    String key = "earlier-" + i;
                    settled.add(pool.submit(() -> run(ledger, epoch, key, true)));
                }
                List<String> leftRunning = new ArrayList<>();
                for (int i = 0; i < running; i++) {
                    leftRunning.add(
                            run(ledger, issued.get((receipts + i) / SESSION_RECEIPTS), "earlier-running-" + i, false));
                }
                List<String> ids = new ArrayList<>();
                for (Future<String> id : settled) {
                    ids.add(id.get());
                }
                return new Seeded(ids, leftRunning, sessions);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    private static String run(Ledger ledger, RetryEpoch epoch, String key, boolean finish) {
        Reservation reservation = ledger.reserve(new ReserveRequest(
                epoch.session(),
                epoch.id(),
                new ProjectId("earlier-run"),
                new ToolName("lomi_files_mutate"),
                new RequestKey(key),
                JSON.readTree("{\"relativePath\":\"" + key + "\"}"),
                new Target("ws-earlier", "file:" + key, "", "")));
        Operation operation = ((Reservation.Reserved) reservation).operation();
        if (!(ledger.begin(operation.id()) instanceof TransitionResult.Moved)) {
            throw new IllegalStateException("begin refused for " + key);
        }
        if (finish
                && !(ledger.transition(
                                operation.id(),
                                OperationState.SUCCEEDED,
                                EffectState.COMPLETE,
                                Optional.of("{}"),
                                Optional.empty())
                        instanceof TransitionResult.Moved)) {
            throw new IllegalStateException("completion refused for " + key);
        }
        return operation.id().value();
    }
}
