package dev.lomicontrol.android;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.Eventually;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The AVD that {@link AndroidHelperFlowProcessTests} has the broker child boot: a stand-in SDK
 * {@code emulator} ({@link StandInEmulator}) at {@code <sdk>/emulator/emulator} of the {@link UserSdk},
 * which the broker finds through {@code ANDROID_HOME} and starts in its own process group. Its device
 * registers with the same private adb server as {@code emulator-N}; its console takes only the token in
 * that adb's HOME (the broker's HOME has none), so a kill it obeyed came through the real
 * {@code adb emu kill}. The agent's steps on it: open and start, a snapshot and a tap, stop, and calls
 * with the ended generation. {@link #close} kills what is left of its process group, so a failed run
 * leaves nothing running. Our processes and bookkeeping through the real adb, not the SDK's emulator.
 */
final class HelperFlowEmulator implements AutoCloseable {

    static final String TOKEN = "flow-token-7d1e";
    static final int X = 200;
    static final int Y = 410;

    private final String avd;
    private final Path dir;
    private String panelId = "";
    private String deviceId = "";
    private String generation = "";
    private String serial = "";
    private String leaseId = "";
    private boolean ended;

    private HelperFlowEmulator(String avd, Path dir) {
        this.avd = avd;
        this.dir = dir;
    }

    /** Writes the stand-in emulator into {@code sdk} (it boots 300 ms after it starts) and the console token into adb's HOME. */
    static HelperFlowEmulator installed(UserSdk sdk, String avd) throws IOException {
        Path dir = Files.createDirectories(sdk.root().resolveSibling("standin"));
        Path emulator = Files.createDirectories(sdk.root().resolve("emulator")).resolve("emulator");
        Files.writeString(emulator, StandInEmulator.script(dir, "normal", 300, TOKEN), StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(emulator, PosixFilePermissions.fromString("rwx------"));
        Files.writeString(sdk.server().home().resolve(".emulator_console_auth_token"), TOKEN + "\n");
        return new HelperFlowEmulator(avd, dir);
    }

    /**
     * A panel opened on the AVD (that starts nothing), then lomi_android_start: it answers at once and
     * settles succeeded with a generation; the list shows the AVD as {@code emulator-N} with that
     * generation under the same device id, and the emulator got {@code -avd NAME -port N}.
     */
    void started(HelperAgent agent) throws Exception {
        deviceId = agent.one(avd + " (").path("deviceId").asString();
        panelId = agent.opened(deviceId, "open-avd");
        assertThat(dir.resolve("starts")).as("opening starts no emulator").doesNotExist();

        JsonNode start = lifecycle(agent, "lomi_android_start", "start");
        assertThat(start.at("/data/state").asString()).as("%s", start).isIn("running", "succeeded");
        JsonNode booted = agent.settled(start.at("/data/operationId").asString());
        assertThat(booted.path("state").asString()).as("%s", booted).isEqualTo("succeeded");
        assertThat(booted.at("/result/ready").asBoolean()).as("%s", booted).isTrue();
        generation = booted.at("/result/generation").asString();
        assertThat(generation).as("a boot mints a generation").isNotBlank();

        JsonNode listed = agent.one(avd + " (");
        assertThat(listed.path("name").asString()).matches(avd + " \\(emulator-\\d+, adb: device\\)");
        assertThat(listed.path("generation").asString()).isEqualTo(generation);
        assertThat(listed.path("deviceId").asString())
                .as("the AVD keeps its id")
                .isEqualTo(deviceId);
        serial = listed.path("name").asString().replaceAll(".*\\((emulator-\\d+),.*", "$1");
        assertThat(Files.readAllLines(dir.resolve("argv")))
                .containsSubsequence("-avd", avd)
                .containsSubsequence("-port", serial.substring("emulator-".length()));
        assertThat(Files.readAllLines(dir.resolve("starts"))).as("one boot").hasSize(1);
    }

    /** A snapshot of the emulator's screen (the password absent); its input lease approved in the console; a tap, retried, answered by one operation. */
    void observedAndTapped(HelperAgent agent) throws Exception {
        JsonNode snapshot = agent.ok("lomi_android_snapshot", target(agent));
        assertThat(snapshot.toString()).doesNotContain("hunter2").contains("alice@example.com");

        String lease = agent.leased(target(agent), "claim-avd");

        JsonNode sent = agent.ok("lomi_android_input", tap(agent, lease, 1));
        assertThat(sent.at("/data/state").asString()).as("%s", sent).isEqualTo("succeeded");
        assertThat(agent.ok("lomi_android_input", tap(agent, lease, 1)).at("/data/operationId"))
                .as("a retry answers the earlier send")
                .isEqualTo(sent.at("/data/operationId"));
        leaseId = lease;
    }

    /** lomi_android_start or lomi_android_stop on the panel's device at the current revision. */
    private JsonNode lifecycle(HelperAgent agent, String tool, String key) throws Exception {
        return agent.ok(
                tool,
                target(
                        agent,
                        "expectedRevision",
                        agent.revision(),
                        "retryEpoch",
                        agent.epoch,
                        "requestKey",
                        agent.key(key)));
    }

    /**
     * lomi_android_stop: the console saw the token and {@code kill} (through {@code adb emu kill}),
     * the process group is gone, its device had seen exactly one tap; then calls with the ended
     * generation answer STALE_GENERATION, and the AVD is listed as not running again.
     */
    void stopped(HelperAgent agent) throws Exception {
        JsonNode stopped = lifecycle(agent, "lomi_android_stop", "stop");
        assertThat(stopped.at("/data/state").asString()).as("%s", stopped).isEqualTo("succeeded");
        assertThat(stopped.at("/data/result/stopped").asBoolean())
                .as("%s", stopped)
                .isTrue();
        assertThat(dir.resolve("console"))
                .as(
                        "the stand-in was ended by its console's kill (it writes the console's lines then), not by a signal")
                .exists();
        assertThat(Files.readAllLines(dir.resolve("console")))
                .as("the console obeyed the token only adb's HOME holds")
                .containsSubsequence("auth " + TOKEN, "kill");
        assertThat(Files.readAllLines(dir.resolve("device")).stream()
                        .filter(line -> line.startsWith("input "))
                        .toList())
                .as("the retried tap reached the emulator's device once")
                .containsExactly("input tap " + X + " " + Y);
        awaitGone(pid("leader.pid"));
        awaitGone(pid("child.pid"));
        ended = true;

        assertThat(agent.refused("lomi_android_snapshot", target(agent))).isEqualTo("STALE_GENERATION");
        assertThat(agent.refused("lomi_android_input", tap(agent, leaseId, 2))).isEqualTo("STALE_GENERATION");
        Eventually.await(
                avd + " listed as not running",
                Duration.ofSeconds(20),
                Duration.ofMillis(100),
                () -> agent.one(avd + " (").path("name").asString(),
                name -> name.equals(avd + " (AVD, not running)"),
                String::valueOf);
    }

    private Object[] tap(HelperAgent agent, String lease, long sequence) {
        JsonNode event = JsonNodeFactory.instance
                .objectNode()
                .put("type", "tap")
                .put("x", X)
                .put("y", Y);
        return target(
                agent,
                "leaseId",
                lease,
                "inputSequence",
                Long.toString(sequence),
                "event",
                event,
                "retryEpoch",
                agent.epoch);
    }

    /** The AVD panel's target (workspace, panel, device, and its generation once booted) followed by {@code more} pairs. */
    private Object[] target(HelperAgent agent, Object... more) {
        Object[] pairs = {"workspaceId", agent.workspace, "panelId", panelId, "deviceId", deviceId};
        Object[] all = new Object[pairs.length + more.length + (generation.isEmpty() ? 0 : 2)];
        System.arraycopy(pairs, 0, all, 0, pairs.length);
        int at = pairs.length;
        if (!generation.isEmpty()) {
            all[at++] = "generation";
            all[at++] = generation;
        }
        System.arraycopy(more, 0, all, at, more.length);
        return all;
    }

    private long pid(String file) throws IOException {
        return Long.parseLong(Files.readString(dir.resolve(file)).strip());
    }

    private static void awaitGone(long pid) {
        Eventually.await(
                "process " + pid + " ends",
                Duration.ofSeconds(15),
                Duration.ofMillis(50),
                () -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
                alive -> !alive,
                String::valueOf);
    }

    /** Unless a stop was seen to end them: kills what is left of the stand-in's process group and its child, and waits until they are gone. */
    @Override
    public void close() throws IOException {
        if (ended || !Files.exists(dir.resolve("leader.pid"))) {
            return;
        }
        long leader = pid("leader.pid");
        ProcessGroup.signal(leader, "KILL");
        if (Files.exists(dir.resolve("child.pid"))) {
            long child = pid("child.pid");
            ProcessHandle.of(child).ifPresent(ProcessHandle::destroyForcibly);
            awaitGone(child);
        }
        awaitGone(leader);
    }
}
