package dev.lomicontrol.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.BrokerChildProcess;
import dev.lomicontrol.testing.McpHelperProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Issue 44's acceptance with real components: one broker (child JVM) and 32 (or 9) real MCP helpers (child
 * JVMs) over the real socket, pairing and mutual TLS. Under failsafe ({@code ./mvnw verify}): each test starts
 * dozens of JVMs.
 */
class ManyAgentsIT {

    static final int AGENTS = 32;
    static final int READS = 30;
    static final int WAIT_MS = 3000;

    @TempDir
    Path temp;

    final List<McpHelperProcess> helpers = new ArrayList<>();
    final ExecutorService pool = Executors.newFixedThreadPool(AGENTS);

    @AfterEach
    void stopHelpers() throws InterruptedException {
        pool.shutdownNow();
        for (McpHelperProcess helper : helpers) {
            helper.kill();
        }
    }

    /**
     * 32 agents at the default cap, YOLO on: all connect, and while half of them wait in a {@code waitMs} call the
     * other half read a file 30 times (then the other way round): no call fails, and the waiting calls hold no
     * capacity the reading ones need (the first read answers while every wait is still open).
     */
    @Test
    void thirtyTwoAgentsAtTheDefaultCapAllConnectAndWorkWhileHalfOfThemWait() throws Exception {
        Path project = project();
        try (BrokerChildProcess broker = broker(List.of()).withProjectAndYolo(project)) {
            startHelpers(broker, AGENTS);
            all(helpers, helper -> helper.awaitPhase("connected"));
            List<String> workspaces = all(helpers, ManyAgentsIT::workspaceOf);
            List<String> cursors = new ArrayList<>();
            for (int i = 0; i < AGENTS; i++) {
                cursors.add(ok(helpers.get(i), "lomi_events_read", "{\"workspaceId\":\"" + workspaces.get(i) + "\"}")
                        .at("/data/nextCursor")
                        .toString()); // as sent (a Decimal is a JSON string or number)
            }
            for (int half = 0; half < 2; half++) {
                int waiting = half * AGENTS / 2;
                int reading = AGENTS / 2 - waiting;
                List<String> waits = new ArrayList<>();
                long waitsSent = System.nanoTime();
                for (int i = waiting; i < waiting + AGENTS / 2; i++) {
                    waits.add(helpers.get(i)
                            .sendToolCall(
                                    "wait-" + half,
                                    "lomi_events_read",
                                    "{\"workspaceId\":\"" + workspaces.get(i) + "\",\"cursor\":" + cursors.get(i)
                                            + ",\"waitMs\":" + WAIT_MS + "}"));
                }
                List<Future<Long>> reads = new ArrayList<>();
                for (int i = reading; i < reading + AGENTS / 2; i++) {
                    McpHelperProcess helper = helpers.get(i);
                    String workspace = workspaces.get(i);
                    reads.add(pool.submit(() -> readLoop(helper, workspace)));
                }
                long firstRead = Long.MAX_VALUE;
                for (Future<Long> read : reads) {
                    firstRead = Math.min(firstRead, read.get());
                }
                long firstWaitAnswer = Long.MAX_VALUE;
                for (int i = 0; i < waits.size(); i++) {
                    JsonNode answer = helpers.get(waiting + i).response(waits.get(i));
                    firstWaitAnswer = Math.min(firstWaitAnswer, System.nanoTime());
                    assertThat(answer.at("/result/isError").asBoolean(true))
                            .as("the wait of helper %d: %s", waiting + i, answer)
                            .isFalse();
                    assertThat(answer.at("/result/structuredContent/data/events")
                                    .size())
                            .isZero();
                }
                assertThat(Duration.ofNanos(firstWaitAnswer - waitsSent))
                        .as("the waits really waited")
                        .isGreaterThanOrEqualTo(Duration.ofMillis(WAIT_MS - 500));
                assertThat(firstRead)
                        .as("a read answered while all %d waits were open", AGENTS / 2)
                        .isLessThan(firstWaitAnswer);
            }
            assertThat(broker.logText()).doesNotContain("broker_full");
        }
    }

    /**
     * At {@code lomi.control.max-connections=8} the 9th agent is told the broker is full (cap and count), its calls
     * answer RESOURCE_EXHAUSTED naming the setting, the admin sees it in status, the log and session list, and the
     * agent connects within 5 s of the admin revoking a session (the revoked agent queues behind it).
     */
    @Test
    void atCapEightTheNinthAgentIsToldTheBrokerIsFullAndGetsTheSlotARevokeFrees() throws Exception {
        Path project = project();
        try (BrokerChildProcess broker =
                broker(List.of("-Dlomi.control.max-connections=8")).withProjectAndYolo(project)) {
            startHelpers(broker, 8);
            all(helpers, helper -> helper.awaitPhase("connected"));
            startHelpers(broker, 1);
            McpHelperProcess ninth = helpers.get(8);

            JsonNode full = ninth.awaitPhase("broker_full");
            assertThat(full.at("/brokerFull/maxConnections").asInt()).isEqualTo(8);
            assertThat(full.at("/brokerFull/connected").asInt()).isEqualTo(8);
            assertThat(full.at("/brokerFull/setting").asString()).isEqualTo("lomi.control.max-connections");
            assertThat(full.path("detail").asString()).contains("8 of 8 connections are in use");
            JsonNode refused = ninth.call("lomi_workspace_list", McpHelperProcess.JSON.createObjectNode());
            assertThat(refused.at("/result/isError").asBoolean()).isTrue();
            assertThat(refused.at("/result/structuredContent/code").asString()).isEqualTo("RESOURCE_EXHAUSTED");
            assertThat(refused.at("/result/structuredContent/message").asString())
                    .contains("lomi.control.max-connections", "8 of 8");

            assertThat(broker.console().ok("status"))
                    .contains("8 of 8 (lomi.control.max-connections)", "refused with broker_full")
                    .contains("WARNING", "8 of 8 agent connections are in use");
            broker.awaitLog("with broker_full: 8 of 8 connections are in use (lomi.control.max-connections)");
            JsonNode sessions = McpHelperProcess.JSON.readTree(broker.console().ok("session", "list", "--json"));
            assertThat(sessions.path("connections").asInt()).isEqualTo(8);
            assertThat(sessions.path("maxConnections").asInt()).isEqualTo(8);
            assertThat(sessions.path("sessions").size()).isEqualTo(8);

            String victim = sessions.at("/sessions/0/id").asString();
            broker.console().ok("session", "revoke", victim, "--confirm");
            long revoked = System.nanoTime();
            try {
                Awaitility.await("the 9th agent takes the freed slot")
                        .atMost(Duration.ofSeconds(5))
                        .pollInterval(Duration.ofMillis(100))
                        .until(() -> phase(ninth).equals("connected"));
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                throw new AssertionError(
                        "the 9th agent is " + phase(ninth) + "; its stderr:\n" + ninth.stderrTail() + "\nbroker log:\n"
                                + broker.logTail(3000),
                        e);
            }
            System.err.println("issue 44: the 9th agent connected "
                    + Duration.ofNanos(System.nanoTime() - revoked).toMillis() + " ms after the revoke");
            assertThat(ok(ninth, "lomi_workspace_list", "{}")
                            .at("/data/workspaces")
                            .size())
                    .isEqualTo(1);
            Awaitility.await("the revoked agent waits for a slot")
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() ->
                            helpers.stream().anyMatch(helper -> phase(helper).equals("broker_full")));
        }
    }

    /** 32 pairing requests at once with YOLO off: all listed, and {@code pairing approve --all --confirm} connects all. */
    @Test
    void thirtyTwoPairingRequestsAreAllListedAndApproveAllConnectsThem() throws Exception {
        try (BrokerChildProcess broker = broker(List.of())) {
            startHelpers(broker, AGENTS);
            List<String> requests = all(
                    helpers,
                    helper -> helper.awaitPhase("pairing_required")
                            .path("pairingRequestId")
                            .asString());
            JsonNode listed = McpHelperProcess.JSON.readTree(broker.console().ok("pairing", "list", "--json"));
            List<String> ids = new ArrayList<>();
            listed.path("requests")
                    .forEach(request -> ids.add(request.path("id").asString()));
            assertThat(ids).containsExactlyInAnyOrderElementsOf(requests);

            assertThat(broker.console().ok("pairing", "approve", "--all", "--confirm"))
                    .contains("approved " + AGENTS + " of " + AGENTS);
            all(helpers, helper -> helper.awaitPhase("connected"));
            assertThat(broker.console().ok("session", "list"))
                    .contains(AGENTS + " of 256 agent connections in use (" + AGENTS + " live session(s)");
        }
    }

    private BrokerChildProcess broker(List<String> jvmOptions) throws Exception {
        return BrokerChildProcess.on(temp.resolve("data"))
                .log(temp.resolve("broker.err"))
                .emptyHome()
                .jvmOptions(jvmOptions)
                .start();
    }

    private Path project() throws Exception {
        Path project = Files.createDirectories(temp.resolve("project")).toRealPath();
        Files.writeString(project.resolve("notes.txt"), "line\n".repeat(200));
        return project;
    }

    /** Starts {@code count} more helpers at once (their JVMs boot in parallel) and initializes each. */
    private void startHelpers(BrokerChildProcess broker, int count) throws Exception {
        List<McpHelperProcess> started = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            McpHelperProcess helper = McpHelperProcess.pinnedTo(
                            broker, temp.resolve("helper-" + helpers.size() + ".err"))
                    .start();
            helpers.add(helper);
            started.add(helper);
        }
        all(started, helper -> helper.initialize(McpHelperProcess.PROTOCOL, "agent"));
    }

    /** Runs {@code step} for every helper in parallel; answers the results in order, or throws the first failure. */
    private <T> List<T> all(List<McpHelperProcess> fleet, Step<T> step) throws Exception {
        List<Future<T>> futures = new ArrayList<>();
        for (McpHelperProcess helper : fleet) {
            futures.add(pool.submit((Callable<T>) () -> step.run(helper)));
        }
        List<T> results = new ArrayList<>();
        for (Future<T> future : futures) {
            results.add(future.get());
        }
        return results;
    }

    @FunctionalInterface
    interface Step<T> {
        T run(McpHelperProcess helper) throws Exception;
    }

    private static String workspaceOf(McpHelperProcess helper) throws Exception {
        return ok(helper, "lomi_workspace_list", "{}")
                .at("/data/workspaces/0/workspaceId")
                .asString();
    }

    /** {@value #READS} reads of notes.txt, each checked; answers when the first one answered (nanoTime). */
    private static long readLoop(McpHelperProcess helper, String workspace) throws Exception {
        long first = 0;
        for (int read = 0; read < READS; read++) {
            JsonNode data = ok(
                    helper,
                    "lomi_files_read",
                    "{\"workspaceId\":\"" + workspace + "\",\"relativePath\":\"notes.txt\"}");
            assertThat(data.at("/data/text").asString()).startsWith("line\n");
            first = first == 0 ? System.nanoTime() : first;
        }
        return first;
    }

    private static JsonNode ok(McpHelperProcess helper, String tool, String arguments) throws Exception {
        JsonNode answer = helper.call(tool, McpHelperProcess.JSON.readTree(arguments));
        assertThat(answer.at("/result/isError").asBoolean(true))
                .as("%s answered %s", tool, answer)
                .isFalse();
        return answer.at("/result/structuredContent");
    }

    private static String phase(McpHelperProcess helper) {
        try {
            return helper.call("lomi_status", McpHelperProcess.JSON.createObjectNode())
                    .at("/result/structuredContent/data/phase")
                    .asString();
        } catch (Exception e) {
            throw new IllegalStateException("lomi_status failed: " + e, e);
        }
    }
}
