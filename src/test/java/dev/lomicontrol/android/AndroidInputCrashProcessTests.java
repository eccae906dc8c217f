package dev.lomicontrol.android;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.proof.crash.LedgerRows;
import dev.lomicontrol.testing.BrokerChildProcess;
import dev.lomicontrol.testing.BrokerRestart;
import dev.lomicontrol.testing.Eventually;
import dev.lomicontrol.testing.McpHelperProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Issue 42's crash round for Android input: the broker (a child JVM) SIGKILLed at a seeded random
 * moment while the agent, through the real {@code --mcp} helper, sends taps under its input lease,
 * each to a {@link FakeAdbd} behind Debian's real adb server that takes a moment to answer, so that
 * an input is often in flight at the kill; the broker is started again on the same data directory.
 * The agent follows the rules: an unanswered or unknown input is re-sent only as it was (same lease,
 * {@code inputSequence}, event, generation and retryEpoch) and read back by its key; new work goes
 * under a new lease. The judge is what the device recorded: each tap (its own x, y) arrived at most
 * once, an acknowledged one exactly once, a refused one never. It proves our bookkeeping across a
 * broker crash against the real adb, not Android behaviour. Rounds {@code
 * -Dlomi.crash.android.rounds} (3), seed {@code -Dlomi.crash.android.seed}.
 */
class AndroidInputCrashProcessTests {

    /** How long the device takes over one {@code input} command (a slow device: inputs are in flight at the kill). */
    private static final long INPUT_MILLIS = 150;

    private static final int TAPS_PER_ROUND = 12;

    @TempDir
    Path temp;

    private final List<Sent> sent = new ArrayList<>();
    private final Map<String, Integer> recovery = new TreeMap<>();
    /** The input receipts in the ledger by state/effect, as the last judge saw them. */
    private final Map<String, Integer> ledger = new TreeMap<>();

    private final List<Integer> exits = new ArrayList<>();
    private int runs;
    private UserSdk sdk;

    /** One tap the agent sent: its request as frozen, and what it learned. */
    private static final class Sent {
        final int x;
        final int y;
        final ObjectNode request;
        final String key;
        String answer = "";
        boolean acknowledged;
        boolean succeeded;
        boolean unknown;
        boolean neverSent;

        Sent(int x, int y, ObjectNode request, String key) {
            this.x = x;
            this.y = y;
            this.request = request;
            this.key = key;
        }

        @Override
        public String toString() {
            return "tap " + x + "," + y + " (" + key + ": " + answer + ")";
        }
    }

    @Test
    void anAndroidInputInFlightWhenTheBrokerIsKilledIsNeverSentTwice() throws Exception {
        int rounds = Integer.getInteger("lomi.crash.android.rounds", 3);
        long seed = Long.getLong("lomi.crash.android.seed", System.nanoTime());
        Random random = new Random(seed);
        PrivateAdbServer server = PrivateAdbServer.start(temp.resolve("adb"));
        sdk = UserSdk.in(temp, server);
        Path project = Files.createDirectories(temp.resolve("project")).toRealPath();
        BrokerChildProcess broker = startBroker();
        try (FakeAdbd device = slow(FakeAdbd.open());
                McpHelperProcess helper = McpHelperProcess.pinnedTo(broker, temp.resolve("helper.err"))
                        .start()) {
            broker.console().mergingStderr().ok("project", "add", project.toString());
            HelperAgent agent =
                    HelperAgent.paired(broker, helper, List.of(device.serial()), List.of("com.example.app"));
            server.connect(device, DeviceState.DEVICE);
            String deviceId = agent.one(device.serial() + " (").path("deviceId").asString();
            // one panel for every round: opened before the first kill, it shows the device after each restart
            String panelId = opened(agent, deviceId);
            for (int round = 1; round <= rounds; round++) {
                HelperAgent now = agent;
                String generation = Eventually.await(
                        "the device listed online at a generation",
                        Duration.ofSeconds(30),
                        () -> now.one(device.serial() + " (").path("generation").asString(""),
                        g -> !g.isEmpty());
                Target target = new Target(agent.workspace, panelId, deviceId, generation);
                String lease = claimed(agent, target);
                int before = sent.size();
                BrokerRestart restart = BrokerRestart.after(
                        broker, random.nextInt((int) (TAPS_PER_ROUND * INPUT_MILLIS)), this::startBroker);
                try {
                    drive(agent, target, lease, round, restart.killed());
                } finally {
                    broker = restart.next().get(3, TimeUnit.MINUTES);
                }
                exits.add(restart.exitCode());
                agent = agent.reconnected(broker);
                recover(agent, sent.subList(before, sent.size()));
                judge(device, LedgerRows.read(temp.resolve("data")), "round " + round + " (seed " + seed + ")");
            }
            System.err.println(report(seed, rounds, device));
            assertThat(exits)
                    .as("every round SIGKILLed the broker")
                    .hasSize(rounds)
                    .containsOnly(137);
            assertThat(sent.stream().filter(s -> s.succeeded))
                    .as("taps were acknowledged at all")
                    .isNotEmpty();
        } finally {
            broker.stop();
            server.run("disconnect");
            server.close();
        }
    }

    private record Target(String workspace, String panel, String device, String generation) {
        ObjectNode json() {
            return McpHelperProcess.JSON
                    .createObjectNode()
                    .put("workspaceId", workspace)
                    .put("panelId", panel)
                    .put("deviceId", device)
                    .put("generation", generation);
        }
    }

    /** Every {@code input} the device runs takes {@link #INPUT_MILLIS}; everything else answers at once. */
    private static FakeAdbd slow(FakeAdbd device) {
        return device.onShell(argv -> {
            if (!argv.isEmpty() && argv.get(0).equals("input")) {
                try {
                    // intentional, not synchronisation (docs/adr/0011): the device's own latency, so inputs are in
                    // flight when the broker is killed
                    Thread.sleep(INPUT_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return FakeAdbd.Answer.out("");
            }
            return FakeAdbd.Answer.fail("/system/bin/sh: " + argv + ": inaccessible or not found\n", 127);
        });
    }

    /** A new Android panel on the device: its id. */
    private static String opened(HelperAgent agent, String deviceId) throws Exception {
        return agent.ok(
                        "lomi_android_open",
                        "workspaceId",
                        agent.workspace,
                        "deviceId",
                        deviceId,
                        "expectedRevision",
                        agent.revision(),
                        "retryEpoch",
                        agent.epoch,
                        "requestKey",
                        agent.key("open"))
                .at("/data/result/panelId")
                .asString();
    }

    /** This run's input lease: claimed and approved in the console (not under fire). */
    private static String claimed(HelperAgent agent, Target target) throws Exception {
        ObjectNode claim = target.json()
                .put("action", "claim")
                .put("expectedRevision", agent.revision())
                .put("retryEpoch", agent.epoch)
                .put("requestKey", agent.key("claim"));
        JsonNode asked = agent.raw("lomi_panel_control", claim).at("/result/structuredContent");
        assertThat(asked.at("/data/state").asString()).as("%s", asked).isEqualTo("awaiting_user");
        JsonNode claimed = agent.decided(asked.at("/data/operationId").asString(), true);
        assertThat(claimed.path("state").asString()).as("%s", claimed).isEqualTo("succeeded");
        return claimed.at("/result/leaseId").asString();
    }

    /** Taps 1.. under {@code lease}, one at a time, until one is not acknowledged or the broker is gone. */
    private void drive(HelperAgent agent, Target target, String lease, int round, AtomicBoolean killed)
            throws Exception {
        for (int sequence = 1; sequence <= TAPS_PER_ROUND && !killed.get(); sequence++) {
            ObjectNode event = McpHelperProcess.JSON
                    .createObjectNode()
                    .put("type", "tap")
                    .put("x", 100 + round)
                    .put("y", sequence);
            ObjectNode request = target.json()
                    .put("leaseId", lease)
                    .put("inputSequence", Integer.toString(sequence))
                    .put("retryEpoch", agent.epoch);
            request.set("event", event);
            Sent tap = new Sent(100 + round, sequence, request, "android-input." + lease + "." + sequence);
            sent.add(tap);
            learn(tap, agent.raw("lomi_android_input", request));
            if (!tap.succeeded) {
                return;
            }
        }
    }

    private static void learn(Sent tap, JsonNode response) {
        if (response.path("error").path("data").path("outcome").asString("").equals("unknown")) {
            tap.unknown = !tap.acknowledged;
            tap.answer = "OUTCOME_UNKNOWN";
            return;
        }
        JsonNode envelope = response.at("/result/structuredContent");
        if (envelope.path("status").asString("").equals("ok")) {
            tap.acknowledged = true;
            tap.answer = "ok:" + envelope.at("/data/state").asString();
            tap.succeeded = envelope.at("/data/state").asString().equals("succeeded");
            tap.unknown = !tap.succeeded;
            return;
        }
        String code = envelope.path("code").asString("");
        assertThat(code)
                .as("%s answered neither an operation nor a code: %s", tap, response)
                .isNotBlank();
        tap.answer = code;
        if (!tap.acknowledged && !tap.unknown) {
            tap.neverSent = true;
        }
    }

    /**
     * The restarted broker is asked about every tap whose end the agent did not see: the identical
     * request again, then its receipt by key under its own retryEpoch. Whatever they answer, nothing
     * is sent under another lease or number.
     */
    private void recover(HelperAgent agent, List<Sent> round) throws Exception {
        for (Sent tap : round) {
            if (tap.succeeded) {
                continue;
            }
            JsonNode again = agent.raw("lomi_android_input", tap.request);
            recovery.merge("same-request:" + word(again), 1, Integer::sum);
            ObjectNode byKey = McpHelperProcess.JSON
                    .createObjectNode()
                    .put("retryEpoch", tap.request.path("retryEpoch").asString())
                    .put("requestKey", tap.key)
                    .put("tool", "lomi_android_input");
            recovery.merge("get-by-key:" + word(agent.raw("lomi_operation_get", byKey)), 1, Integer::sum);
        }
    }

    private static String word(JsonNode response) {
        if (response.has("error")) {
            return "JSON-RPC " + response.at("/error/code").asInt();
        }
        JsonNode envelope = response.at("/result/structuredContent");
        return envelope.path("status").asString("").equals("ok")
                ? "ok:" + envelope.at("/data/state").asString()
                : envelope.path("code").asString();
    }

    /** What the device ran and what the ledger says against what the agent knows. */
    private void judge(FakeAdbd device, List<LedgerRows.Row> rows, String when) {
        Map<String, Integer> taps = taps(device);
        List<String> violations = new ArrayList<>();
        Map<String, List<LedgerRows.Row>> receipts = new TreeMap<>();
        rows.stream()
                .filter(row -> row.tool().equals("lomi_android_input"))
                .forEach(row -> receipts.computeIfAbsent(row.requestKey(), k -> new ArrayList<>())
                        .add(row));
        rows.stream().filter(row -> !row.settled()).forEach(row -> violations.add("a row left unsettled: " + row));
        taps.forEach((xy, n) -> {
            if (n > 1) {
                violations.add("tap " + xy + " reached the device " + n + " times");
            }
            if (sent.stream().noneMatch(s -> (s.x + "," + s.y).equals(xy))) {
                violations.add("tap " + xy + " reached the device and nobody sent it");
            }
        });
        for (Sent tap : sent) {
            int n = taps.getOrDefault(tap.x + "," + tap.y, 0);
            if (tap.succeeded && n != 1) {
                violations.add(tap + " acknowledged succeeded, but the device saw it " + n + " times");
            }
            if (tap.neverSent && n != 0) {
                violations.add(tap + " answered as never run, but the device saw it " + n + " times");
            }
            List<LedgerRows.Row> mine = receipts.getOrDefault(tap.key, List.of());
            if (mine.size() > 1 || n > 0 && mine.isEmpty()) {
                violations.add(tap + " seen " + n + " times by the device, receipts " + mine);
            }
            if (tap.succeeded && !mine.isEmpty() && !mine.get(0).state().equals("succeeded")) {
                violations.add(tap + " acknowledged succeeded, the ledger says " + mine);
            }
            if (tap.unknown && !mine.isEmpty() && !mine.get(0).state().equals("outcome_unknown")) {
                violations.add(tap + " in flight at the kill, the ledger says " + mine);
            }
        }
        assertThat(violations).as("%s: %s", when, sent).isEmpty();
        ledger.clear();
        rows.stream()
                .filter(row -> row.tool().equals("lomi_android_input"))
                .forEach(row -> ledger.merge(row.state() + "/" + row.effect(), 1, Integer::sum));
    }

    private static Map<String, Integer> taps(FakeAdbd device) {
        Map<String, Integer> taps = new TreeMap<>();
        device.shellCommands().stream()
                .filter(argv -> argv.size() == 4 && argv.subList(0, 2).equals(List.of("input", "tap")))
                .forEach(argv -> taps.merge(argv.get(2) + "," + argv.get(3), 1, Integer::sum));
        return taps;
    }

    private String report(long seed, int rounds, FakeAdbd device) {
        return "android input crash rounds: seed " + seed + ", rounds " + rounds + ", SIGKILLs " + exits.size()
                + ", taps sent " + sent.size() + ", delivered " + taps(device).size() + ", acknowledged succeeded "
                + sent.stream().filter(s -> s.succeeded).count() + ", answered outcome_unknown "
                + sent.stream()
                        .filter(s -> s.answer.equals("ok:outcome_unknown"))
                        .count()
                + ", unanswered at the kill "
                + sent.stream().filter(s -> s.answer.equals("OUTCOME_UNKNOWN")).count() + ", never sent "
                + sent.stream().filter(s -> s.neverSent).count() + ", recovery " + recovery
                + ", input receipts in the ledger " + ledger;
    }

    private BrokerChildProcess startBroker() throws Exception {
        return BrokerChildProcess.on(temp.resolve("data"))
                .log(temp.resolve(String.format("broker-%02d.err", ++runs)))
                .emptyHome()
                .environment(sdk::apply)
                .start();
    }
}
