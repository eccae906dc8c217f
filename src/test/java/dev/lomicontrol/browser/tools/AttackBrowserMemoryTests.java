package dev.lomicontrol.browser.tools;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.decisions.PendingDecision;
import dev.lomicontrol.testing.Agent;
import dev.lomicontrol.testing.TestSite;
import dev.lomicontrol.tools.HostNeed;
import dev.lomicontrol.tools.HostQualification;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Security review 2026-12-06, N3: a page on an approved origin (a real Chromium, a real HTTP server
 * on 127.0.0.1) logs one 60 MiB console message, or a burst of thousands of log events. The broker
 * reads neither into its heap: the 60 MiB message is skipped unread (a log entry says so), the
 * burst is bounded by the event queue (the entries it drops are counted), and the page's snapshot
 * and a non-browser tool answer afterwards. Figures go to the test's output.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AttackBrowserMemoryTests {

    @TempDir
    static Path temp;

    BrokerCallsFixture broker;
    TestSite site;
    Agent agent;
    final java.util.List<String> opened = new java.util.concurrent.CopyOnWriteArrayList<>();

    @BeforeAll
    void start() throws Exception {
        assertThat(HostQualification.reason(HostNeed.BROWSER))
                .as("the browser tests need Chromium: apt-get install -y chromium-headless-shell")
                .isEmpty();
        broker = new BrokerCallsFixture(temp);
        site = new TestSite();
        agent = Agent.on(broker, "web");
        Files.writeString(agent.project().root().resolve("notes.txt"), "still here\n");
        JsonNode waiting = open(site.url("/"));
        PendingDecision decision = broker.decisions.list().stream()
                .filter(d -> d.tool().equals("lomi_browser_open"))
                .findFirst()
                .orElseThrow();
        broker.decisions.decide(decision.operationId(), true);
        JsonNode first =
                broker.settled(agent.session(), waiting.path("operationId").asString(), Duration.ofSeconds(20));
        assertThat(first.path("state").asString()).as("%s", first).isEqualTo("succeeded");
        opened.add(first.path("result").path("browserGeneration").asString());
    }

    @AfterEach
    void closePages() {
        opened.stream().skip(1).forEach(broker.browsers::close); // the first keeps the connection's browser alive
    }

    @AfterAll
    void stop() {
        broker.close();
        site.close();
    }

    @Test
    void aSixtyMebibyteConsoleMessageIsSkippedUnreadAndEveryToolStillAnswers() {
        long[] threads = connectionThreads();
        long allocatedBefore = allocated(threads);
        long heapBefore = usedAfterGc();
        Peak peak = Peak.start();

        JsonNode page = page("/bomb.html");
        assertThat(wait(page, "logged once")).isTrue();
        JsonNode console = await().atMost(Duration.ofSeconds(20))
                .until(
                        () -> broker.ok(agent.session(), "lomi_browser_logs", read(page, "logKind", "console")),
                        logs -> logs.path("entries").toString().contains("was not kept"));

        long allocated = allocated(threads) - allocatedBefore;
        long peakUsed = peak.stop();
        long heapAfter = usedAfterGc();
        System.out.printf(
                "N3 60 MiB log: allocated by the connection's threads %d bytes; heap used after GC %d -> %d bytes;"
                        + " peak used %d bytes; log entry %s%n",
                allocated, heapBefore, heapAfter, peakUsed, console.path("entries"));
        JsonNode entry = console.path("entries").get(0);
        assertThat(entry.path("message").asString())
                .as("the entry says what was not kept, and nothing of the 60 MiB")
                .startsWith("[a message of 629")
                .doesNotContain("xxxx");
        assertThat(entry.path("level").asString()).isEqualTo("log");
        assertThat(allocated)
                .as("the broker's reader and event threads never held the 60 MiB message (old code: > 180 MiB)")
                .isLessThan(16L << 20);
        assertThat(heapAfter - heapBefore).as("nothing of it stays").isLessThan(16L << 20);
        everyToolAnswers(page, "logged once");
    }

    @Test
    void aBurstOfLogEventsIsBoundedAndEveryEntryIsKeptOrCounted() {
        long heapBefore = usedAfterGc();
        Peak peak = Peak.start();
        JsonNode page = page("/burst.html");
        assertThat(wait(page, "logged many")).isTrue();
        // 600 + 20000 console messages; each is in the ring, dropped from it, or dropped by the full queue
        JsonNode console = logsAccountingFor(page, "console", 20_600);
        JsonNode errors = logsAccountingFor(page, "javascript_error", 200);
        long peakUsed = peak.stop();
        System.out.printf(
                "N3 burst: console %d kept + %d dropped, errors %d kept + %d dropped; heap used after GC before %d,"
                        + " peak used %d bytes%n",
                console.path("entries").size(),
                console.path("dropped").asLong(),
                errors.path("entries").size(),
                errors.path("dropped").asLong(),
                heapBefore,
                peakUsed);
        assertThat(keptOrDropped(console)).isEqualTo(20_600);
        assertThat(keptOrDropped(errors)).isEqualTo(200);
        everyToolAnswers(page, "logged many");
    }

    // ------------------------------------------------------------------ helpers

    private void everyToolAnswers(JsonNode page, String text) {
        JsonNode snapshot = broker.ok(agent.session(), "lomi_browser_snapshot", read(page, "maxBytes", 65536));
        assertThat(snapshot.toString()).contains(text);
        assertThat(broker.ok(
                                agent.session(),
                                "lomi_files_read",
                                json("workspaceId", agent.workspace(), "relativePath", "notes.txt"))
                        .toString())
                .contains("still here");
    }

    /** The first page of {@code kind} logs (100 at most) that accounts for {@code count} entries, kept or dropped. */
    private JsonNode logsAccountingFor(JsonNode page, String kind, long count) {
        return await().atMost(Duration.ofSeconds(30))
                .until(
                        () -> broker.ok(
                                agent.session(), "lomi_browser_logs", read(page, "logKind", kind, "limit", 100)),
                        logs -> keptOrDropped(logs) >= count);
    }

    /** A logs page's entries plus those it says were dropped. */
    private static long keptOrDropped(JsonNode logs) {
        return logs.path("entries").size() + logs.path("dropped").asLong();
    }

    private JsonNode open(String url) {
        return agent.op(
                "lomi_browser_open",
                "workspaceId",
                agent.workspace(),
                "url",
                url,
                "expectedRevision",
                broker.revision());
    }

    private JsonNode page(String path) {
        JsonNode opened = open(site.url(path));
        assertThat(opened.path("state").asString()).as("%s", opened).isEqualTo("succeeded");
        this.opened.add(opened.path("result").path("browserGeneration").asString());
        return opened.path("result");
    }

    private boolean wait(JsonNode page, String text) {
        ObjectNode condition =
                BrokerCallsFixture.JSON.createObjectNode().put("type", "text").put("text", text);
        return await().atMost(Duration.ofSeconds(40))
                .until(
                        () -> broker.ok(
                                        agent.session(),
                                        "lomi_browser_wait",
                                        read(page, "condition", condition, "timeoutMs", 10_000))
                                .path("matched")
                                .asBoolean(),
                        matched -> matched);
    }

    private String read(JsonNode page, Object... more) {
        ObjectNode node = BrokerCallsFixture.JSON.createObjectNode();
        node.put("workspaceId", agent.workspace());
        node.put("panelId", page.path("panelId").asString());
        node.put("browserGeneration", page.path("browserGeneration").asString());
        BrowserToolsTests.put(node, more);
        return node.toString();
    }

    /** The reader and event threads of the connection's browser. */
    private static long[] connectionThreads() {
        long[] ids = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("lomi-chromium-")
                        && (t.getName().endsWith("-reader") || t.getName().endsWith("-events")))
                .mapToLong(Thread::getId)
                .toArray();
        assertThat(ids).as("the browser's connection threads").isNotEmpty();
        return ids;
    }

    private static long allocated(long[] threads) {
        com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        return Arrays.stream(bean.getThreadAllocatedBytes(threads))
                .filter(n -> n > 0)
                .sum();
    }

    private static long usedAfterGc() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** The most heap in use seen every 10 ms while the attack runs (garbage included: an upper bound). */
    private static final class Peak {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicLong max = new AtomicLong();
        private final Thread thread;

        private Peak() {
            thread = new Thread(
                    () -> {
                        while (running.get()) {
                            max.accumulateAndGet(
                                    ManagementFactory.getMemoryMXBean()
                                            .getHeapMemoryUsage()
                                            .getUsed(),
                                    Math::max);
                            try {
                                Thread.sleep(10); // a sampling period, not synchronisation
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                    },
                    "heap-peak");
            thread.setDaemon(true);
        }

        static Peak start() {
            Peak peak = new Peak();
            peak.thread.start();
            return peak;
        }

        long stop() {
            running.set(false);
            thread.interrupt();
            return max.get();
        }
    }
}
