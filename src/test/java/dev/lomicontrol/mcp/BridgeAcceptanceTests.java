package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.Eventually;
import dev.lomicontrol.testing.McpHelperProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Seed 004 end to end: the real helper (child JVM) reaches a misbehaving broker through real
 * discovery, enrollment and pinned TLS, and a call that may have run is never sent twice.
 */
class BridgeAcceptanceTests {

    static final String MUTATING = "lomi_operation_cancel";
    static final String MUTATING_ARGS = "{\"operationId\":\"0123456789abcdef0123456789abcdef01234567\"}";
    static final String READ = "lomi_workspace_list";
    static final long CALL_TIMEOUT_MS = 5_000;

    @TempDir
    Path temp;

    MisbehavingBroker broker;
    McpHelperProcess helper;

    @BeforeEach
    void startBrokerAndHelper() throws Exception {
        broker = new MisbehavingBroker(temp.resolve("store"));
        helper = McpHelperProcess.launch(temp.resolve("helper.err"))
                .args(List.of("--discovery-file", broker.discoveryFile.toString(), "--discovery-key", broker.keyHex))
                .properties(Map.of(
                        "lomi.mcp.call-timeout-ms", Long.toString(CALL_TIMEOUT_MS), "lomi.mcp.label-grace-ms", "5000"))
                .start();
        helper.initialize("2025-11-25");
        helper.awaitPhase("connected");
    }

    @AfterEach
    void stop() throws Exception {
        System.err.println("helper stderr:\n" + Files.readString(helper.stderr()));
        helper.close();
        broker.close();
    }

    @Test
    void theHelperPairsThroughRealDiscoveryWithItsClientsName() throws Exception {
        assertThat(broker.labels).containsExactly("lomi-control mcp (process-test 1.0)");
        assertThat(helper.callTool(1, READ, "{}")
                        .at("/result/structuredContent/data/attempt")
                        .asInt())
                .isEqualTo(1);
    }

    @Test
    void aMutatingCallWhoseAnswerWasLostReachesTheBrokerExactlyOnceAndItsOutcomeIsUnknown() throws Exception {
        broker.script(MUTATING, MisbehavingBroker.Action.DROP, MisbehavingBroker.Action.DROP);

        JsonNode response = helper.callTool(7, MUTATING, MUTATING_ARGS);

        assertOutcomeUnknown(response, 7);
        helper.awaitPhase("connected"); // reconnected: a late resend would have happened by now
        assertThat(broker.enrollments.get()).isEqualTo(2);
        assertThat(broker.received(MUTATING)).isEqualTo(1);
    }

    @Test
    void aMutatingCallThatOutlastsTheTimeoutRunsOnceWhilePingStillAnswers() throws Exception {
        long started = sendHangingMutation("slow");
        JsonNode ping = helper.request(8, "ping", null);
        JsonNode status = helper.callTool(9, "lomi_status", "{}");
        JsonNode response = helper.response("\"slow\"");
        long waitedMs = msSince(started);

        assertThat(ping.has("result")).isTrue();
        assertThat(status.at("/result/isError").asBoolean(true)).isFalse();
        assertOutcomeUnknown(response, "slow");
        assertThat(waitedMs).isBetween(CALL_TIMEOUT_MS - 500, CALL_TIMEOUT_MS + 15_000);
        helper.awaitPhase("connected");
        assertThat(broker.received(MUTATING)).isEqualTo(1);
    }

    @Test
    void whileTwoCallsWaitForTheBrokerTheNextLinesAreStillReadAndAnswered() throws Exception {
        // the thread that reads a forwarded call sends it itself and hands the reading of stdin on:
        // with two calls waiting (one held by the broker, one behind it for the connection), a third
        // thread must be reading
        long started = sendHangingMutation("held");
        helper.sendToolCall("behind", READ, "{}");
        JsonNode ping = helper.request(12, "ping", null);
        long pingMs = msSince(started);
        JsonNode list = helper.request(13, "tools/list", null);
        JsonNode held = helper.response("\"held\"");
        JsonNode behind = helper.response("\"behind\"");

        assertThat(ping.has("result")).isTrue();
        assertThat(list.at("/result/tools").size()).isPositive();
        // "still answered" means before the held call's timeout ended its wait, not a speed mark
        assertThat(pingMs).isLessThan(CALL_TIMEOUT_MS);
        assertOutcomeUnknown(held, "held");
        assertThat(behind.has("result"))
                .as("the call behind it is answered too: %s", behind)
                .isTrue();
        assertThat(broker.received(MUTATING)).isEqualTo(1);
    }

    @Test
    void aReadWhoseAnswerWasLostIsSentAgainAndAnswered() throws Exception {
        broker.script(READ, MisbehavingBroker.Action.DROP);

        JsonNode result = helper.callTool(10, READ, "{}").get("result");

        assertThat(result.get("isError").asBoolean()).isFalse();
        assertThat(result.at("/structuredContent/data/attempt").asInt()).isEqualTo(2);
        assertThat(broker.received(READ)).isEqualTo(2);
        assertThat(broker.enrollments.get()).isEqualTo(2);
    }

    @Test
    void aReadWhoseAnswerWasLostWhileTheNewConnectionAwaitsApprovalSaysPairingRequiredAtOnce() throws Exception {
        broker.script(READ, MisbehavingBroker.Action.DROP);
        broker.approve = false;
        long started = System.nanoTime();

        JsonNode result = helper.callTool(14, READ, "{}").get("result");

        assertThat(result.get("isError").asBoolean()).isTrue();
        assertThat(result.at("/structuredContent/code").asString()).isEqualTo("PAIRING_REQUIRED");
        assertThat(result.at("/structuredContent/message").asString())
                .contains("can simply be repeated")
                .contains("pairing approve pairing-2");
        // "at once" means: not after waiting out the call timeout; the bound is that timeout, not a speed mark
        assertThat(msSince(started)).isLessThan(CALL_TIMEOUT_MS);
        assertThat(broker.received(READ)).isEqualTo(1);
    }

    @Test
    void aMutatingCallThatProvablyNeverReachedTheBrokerIsSentOnceAfterReconnecting() throws Exception {
        long sockets = unixSockets(helper.process().pid());
        broker.dropIdleSessions();
        // the call below is "provably never sent" only once the helper has seen the close: its idle connection
        // check (BrokerClient.noticeClose, once a second) then releases the socket
        Eventually.until(
                "the helper closed its end of the dropped connection",
                Duration.ofSeconds(30),
                () -> unixSockets(helper.process().pid()) < sockets);

        JsonNode result = helper.callTool(11, MUTATING, MUTATING_ARGS).get("result");

        assertThat(result.get("isError").asBoolean()).isFalse();
        assertThat(broker.received(MUTATING)).isEqualTo(1);
        assertThat(broker.enrollments.get()).isEqualTo(2);
    }

    @Test
    void oversizedMessagesArePayloadTooLargeWithoutAReconnectAndTheSessionKeepsWorking() throws Exception {
        JsonNode bigArguments = helper.callTool(12, READ, "{\"cursor\":\"" + "c".repeat(70_000) + "\"}")
                .get("result");
        byte[] line = new byte[9 * 1024 * 1024];
        Arrays.fill(line, (byte) ' ');
        line[line.length - 1] = '\n';
        helper.send(line);
        JsonNode bigLine = helper.response("null");
        JsonNode after = helper.callTool(13, READ, "{}").get("result");

        assertThat(bigArguments.get("isError").asBoolean()).isTrue();
        assertThat(bigArguments.at("/structuredContent/code").asString()).isEqualTo("PAYLOAD_TOO_LARGE");
        assertThat(bigArguments.at("/structuredContent/message").asString()).contains("payload too large");
        assertThat(bigLine.at("/error/message").asString()).contains("payload too large");
        assertThat(after.get("isError").asBoolean()).isFalse();
        assertThat(broker.received(READ))
                .as("only the normal call reached the broker")
                .isEqualTo(1);
        assertThat(broker.enrollments.get()).as("no reconnect").isEqualTo(1);
        assertThat(Files.readString(helper.stderr())).doesNotContain("sending it once more");
    }

    private static void assertOutcomeUnknown(JsonNode response, Object id) {
        assertThat(response.at("/error/code").asInt()).as(response.toString()).isEqualTo(-32603);
        String idJson = id instanceof String ? "\"" + id + "\"" : id.toString();
        assertThat(response.at("/error/message").asString())
                .startsWith("outcome unknown:")
                .contains("request " + idJson);
        assertThat(response.at("/error/data/requestId").toString()).isEqualTo(idJson);
        assertThat(response.at("/error/data/outcome").asString()).isEqualTo("unknown");
    }

    /** The Unix-domain (and other) sockets a process holds open, from {@code /proc/PID/fd}. */
    private static long unixSockets(long pid) throws java.io.IOException {
        try (java.util.stream.Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return fds.filter(fd -> {
                        try {
                            return Files.readSymbolicLink(fd).toString().startsWith("socket:");
                        } catch (java.io.IOException gone) {
                            return false;
                        }
                    })
                    .count();
        }
    }

    /** Makes the broker hold the mutating call, sends it under {@code id}; when it was sent (nanoTime). */
    private long sendHangingMutation(String id) throws Exception {
        broker.script(MUTATING, MisbehavingBroker.Action.HANG);
        long started = System.nanoTime();
        helper.sendToolCall(id, MUTATING, MUTATING_ARGS);
        return started;
    }

    private static long msSince(long started) {
        return (System.nanoTime() - started) / 1_000_000;
    }
}
