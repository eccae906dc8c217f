package dev.lomicontrol.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.Eventually;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A child JVM reserves, dispatches and completes operations on a real store and is killed with
 * SIGKILL at random moments, round after round on the same store. After every kill the store must
 * open, every acknowledged reservation must exist, nothing may be left unfinished (it is
 * outcome_unknown), no effect may have run twice, and reopening must dispatch nothing.
 * Rounds: {@code -Dlomi.crash.rounds} (default 20), seed: {@code -Dlomi.crash.seed}.
 */
class LedgerCrashRecoveryTests {

    @TempDir
    Path temp;

    @Test
    void sigkilledWriterLosesNoAcknowledgedReservationAndNeverReplays() throws Exception {
        CrashRounds crash = CrashRounds.of("crash test", "lomi.crash", 20);
        Random random = crash.random();
        Path store = temp.resolve("agent-control");
        Path effects = temp.resolve("effects.log");
        Files.createFile(effects);
        Map<String, String> acked = new HashMap<>();
        Set<String> done = new HashSet<>();
        long unknownNow = 0;
        for (int round = 1; round <= crash.rounds(); round++) {
            List<String> lines = runAndKill(store, effects, round, 50 + random.nextInt(950));
            for (String line : lines) {
                String[] parts = line.split(" ");
                if (parts[0].equals("ack")) {
                    acked.put(parts[1], parts[2]);
                } else if (parts[0].equals("done")) {
                    done.add(parts[1]);
                }
            }
            unknownNow = verifyAfterRestart(store, effects, acked, done, "round " + round + " seed " + crash.seed());
        }
        System.err.println("crash test: " + crash.rounds() + " rounds, " + acked.size() + " acknowledged reservations, "
                + done.size() + " acknowledged completions, " + unknownNow + " rows outcome_unknown at the end");
        assertThat(acked).isNotEmpty();
    }

    private List<String> runAndKill(Path store, Path effects, int round, int killAfterMillis)
            throws IOException, InterruptedException {
        KilledWorkload workload = KilledWorkload.start(
                CrashWorkload.class, List.of(store.toString(), effects.toString(), Integer.toString(round), "4"));
        Eventually.until("workload started (round " + round + ")", Duration.ofSeconds(60), () -> {
            if (!workload.isAlive() && !ready(workload)) {
                throw new AssertionError(
                        "the workload exited " + workload.exitValue() + " before it was ready (round " + round + ")");
            }
            return ready(workload);
        });
        return workload.killAfter(killAfterMillis);
    }

    private static boolean ready(KilledWorkload workload) {
        return workload.lines().stream().anyMatch(l -> l.startsWith("ready "));
    }

    /**
     * Opens the store after a kill; when it will not open, keeps a copy of every file of it (database,
     * WAL, wal-index) under {@code target/crash-kept/} before failing, so the state is there to study.
     */
    private static Ledger openOrKeep(Path store, String context) throws IOException {
        try {
            return WorkloadSteps.open(store, new SecureRandom());
        } catch (RuntimeException e) {
            Path kept = Files.createDirectories(
                    Path.of("target", "crash-kept", context.replace(' ', '-') + "-" + System.nanoTime()));
            try (var files = Files.list(store)) {
                for (Path file : files.toList()) {
                    Files.copy(
                            file, kept.resolve(file.getFileName()), java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
            throw new AssertionError(
                    context + ": the store did not open after the kill; its files are kept in " + kept.toAbsolutePath(),
                    e);
        }
    }

    /** Reopens the store and checks every promise; returns how many rows are outcome_unknown. */
    private long verifyAfterRestart(
            Path store, Path effects, Map<String, String> acked, Set<String> done, String context) throws IOException {
        Map<String, Integer> effectCount = new HashMap<>();
        for (String line : Files.readAllLines(effects, StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                effectCount.merge(line.strip(), 1, Integer::sum);
            }
        }
        byte[] effectsBefore = Files.readAllBytes(effects);
        try (Ledger ledger = openOrKeep(store, context)) {
            Map<String, Operation> byKey = new HashMap<>();
            for (Operation operation : ledger.maintenance().operations(Optional.empty(), 1_000_000)) {
                assertThat(byKey.put(operation.requestKey().value(), operation))
                        .as(context + ": one receipt per key")
                        .isNull();
            }
            acked.forEach((key, id) -> {
                assertThat(byKey)
                        .as(context + ": acknowledged " + key + " exists")
                        .containsKey(key);
                assertThat(byKey.get(key).id().value()).isEqualTo(id);
            });
            long unknown = 0;
            for (Operation operation : byKey.values()) {
                String key = operation.requestKey().value();
                int ran = effectCount.getOrDefault(key, 0);
                assertThat(operation.state().isTerminal())
                        .as(context + ": " + key + " is settled")
                        .isTrue();
                assertThat(ran)
                        .as(context + ": effect of " + key + " ran at most once")
                        .isLessThanOrEqualTo(1);
                if (operation.state() == OperationState.SUCCEEDED) {
                    assertThat(ran).as(context + ": succeeded " + key + " ran").isEqualTo(1);
                }
                if (done.contains(key)) {
                    assertThat(operation.state())
                            .as(context + ": acknowledged completion of " + key)
                            .isEqualTo(OperationState.SUCCEEDED);
                }
                if (operation.state() == OperationState.OUTCOME_UNKNOWN) {
                    assertThat(operation.effect()).isEqualTo(EffectState.UNKNOWN);
                    unknown++;
                }
            }
            effectCount
                    .keySet()
                    .forEach(key -> assertThat(byKey)
                            .as(context + ": effect " + key + " was reserved first")
                            .containsKey(key));
            assertThat(ledger.maintenance().check()).isEqualTo("ok");
            assertThat(Files.readAllBytes(effects))
                    .as(context + ": reopening dispatched nothing")
                    .isEqualTo(effectsBefore);
            return unknown;
        }
    }
}
