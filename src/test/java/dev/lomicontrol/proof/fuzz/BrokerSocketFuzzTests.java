package dev.lomicontrol.proof.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.discovery.DiscoveryFile;
import dev.lomicontrol.discovery.DiscoveryRecord;
import dev.lomicontrol.testing.Eventually;
import dev.lomicontrol.testing.McpHelperProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The fuzz suite against the real broker's control socket ({@code serve} in a child JVM, YOLO on):
 * seeded hostile connections ({@link HostileFrames}) before and after mutual TLS, while one
 * well-behaved helper session lists workspaces every {@value #GOOD_CALL_EVERY} frames. The broker
 * never dies, ends every bad connection promptly, answers every well-formed call, and the good
 * session keeps working on the one connection it paired on. Size: {@code -Dlomi.fuzz.frames}
 * (default: a tenth of {@code -Dlomi.fuzz.messages}, so 150 in CI); replay with
 * {@code -Dlomi.fuzz.seed}. Prints one {@code FUZZ} line, and one per kind of connection.
 */
class BrokerSocketFuzzTests {

    static final int GOOD_CALL_EVERY = 200;

    @TempDir
    Path temp;

    final FuzzSettings settings = FuzzSettings.fromSystemProperties();

    @Test
    void hostileFramesBeforeAndAfterTlsNeverKillTheBrokerNorDisturbAnotherSession() throws Exception {
        long frames = Long.getLong("lomi.fuzz.frames", Math.max(1, settings.messages() / 10));
        FuzzBroker broker = FuzzBroker.shared();
        try (McpHelperProcess helper = HelperFuzzRun.helper(
                temp.resolve("helper.err"), broker.helperArgs(), Map.of("lomi.mcp.label-grace-ms", "0"))) {
            HelperFuzzRun good = new HelperFuzzRun(helper);
            List<HostileLines.Tool> tools = good.open();
            assertThat(listWorkspaces(good, true).path("status").asString())
                    .as("the good session pairs")
                    .isEqualTo("ok");
            DiscoveryRecord record = DiscoveryFile.verify(broker.discoveryFile(), broker.key);
            Random random = new Random(settings.seed());
            HostileFrames.Tally tally = new HostileFrames.Tally();
            HostileFrames hostile = new HostileFrames(
                    random, record, tools, new MutatedArguments(random, List.of(broker.project.toString())), tally);
            long goodCalls = 0;
            long nextGoodCall = GOOD_CALL_EVERY;
            long started = System.nanoTime();

            while (tally.frames < frames && tally.failures.size() < 20) {
                hostile.connection();
                if (!broker.isAlive()) {
                    tally.fail("the broker died after " + tally.frames + " frames");
                    break;
                }
                if (tally.frames >= nextGoodCall) {
                    nextGoodCall += GOOD_CALL_EVERY;
                    goodCalls++;
                    JsonNode listed = listWorkspaces(good, false);
                    if (!listed.path("status").asString().equals("ok")) {
                        tally.fail("the good session failed after " + tally.frames + " frames: " + listed);
                    }
                }
            }
            goodCalls++;
            JsonNode last = listWorkspaces(good, false);

            long goodConnections = helper.brokerConnections();
            System.out.printf(
                    "FUZZ broker frames=%d connections=%d beforeTls=%d afterTls=%d callsAnswered=%d closedAsExpected=%d goodSessionCalls=%d "
                            + "goodSessionConnections=%d failures=%d seed=%d seconds=%.1f%n",
                    tally.frames,
                    tally.connections,
                    tally.beforeTls,
                    tally.afterTls,
                    tally.callsAnswered,
                    tally.closedAsExpected,
                    goodCalls,
                    goodConnections,
                    tally.failures.size() + good.audit.failureCount(),
                    settings.seed(),
                    (System.nanoTime() - started) / 1e9);
            tally.kinds.forEach((kind, totals) -> System.out.printf(
                    "FUZZ broker kind=\"%s\" connections=%d meanMs=%.1f%n",
                    kind, totals[0], totals[1] / 1e6 / totals[0]));
            assertThat(broker.isAlive()).as("the broker is alive").isTrue();
            assertThat(last.path("status").asString())
                    .as("the good session still works: " + last)
                    .isEqualTo("ok");
            assertThat(goodConnections)
                    .as("the good session kept its one connection (never dropped, never paired again)")
                    .isEqualTo(1);
            assertThat(tally.failures)
                    .as("replay with -Dlomi.fuzz.seed=" + settings.seed() + " -Dlomi.fuzz.frames=" + frames)
                    .isEmpty();
            assertThat(good.audit.failures()).isEmpty();
        }
    }

    /** lomi_workspace_list through the good helper; the first call waits for the YOLO pairing. */
    private static JsonNode listWorkspaces(HelperFuzzRun good, boolean awaitPairing) throws Exception {
        String list = "{\"name\":\"lomi_workspace_list\",\"arguments\":{}}";
        if (!awaitPairing) {
            return good.call("tools/call", list).at("/result/structuredContent");
        }
        return Eventually.await(
                "the good helper pairs with the YOLO broker",
                HelperFuzzRun.WAIT,
                Duration.ofMillis(100),
                () -> good.call("tools/call", list).at("/result/structuredContent"),
                listed -> listed.path("status").asString().equals("ok"),
                JsonNode::toString);
    }
}
