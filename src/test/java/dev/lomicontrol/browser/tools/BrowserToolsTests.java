package dev.lomicontrol.browser.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.decisions.PendingDecision;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.testing.Agent;
import dev.lomicontrol.testing.TestSite;
import dev.lomicontrol.tools.HostNeed;
import dev.lomicontrol.tools.HostQualification;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The browser tools end to end through the broker's dispatcher: a real headless Chromium (one
 * process per connection, over the DevTools pipe), real pages served by a real HTTP server on
 * 127.0.0.1, a real SQLite ledger, and the admin's decisions through the decision board the
 * console's {@code decision approve|reject} uses. One broker, one approved origin and one
 * connection's browser are shared by the class (each test opens its own page).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BrowserToolsTests {

    @TempDir
    static Path temp;

    BrokerCallsFixture broker;
    TestSite site;
    TestSite elsewhere;
    Agent agent;

    @BeforeAll
    void start() {
        assertThat(HostQualification.reason(HostNeed.BROWSER))
                .as("the browser tests need Chromium: apt-get install -y chromium-headless-shell")
                .isEmpty();
        broker = new BrokerCallsFixture(temp);
        site = new TestSite();
        elsewhere = new TestSite();
        agent = Agent.on(broker, "web");
        // the first open of the origin waits for the admin; approving remembers it for the project
        JsonNode waiting = open(agent.session(), agent.epoch(), site.url("/"));
        assertThat(waiting.path("state").asString()).isEqualTo("awaiting_user");
        PendingDecision decision = broker.decisions.list().stream()
                .filter(d -> d.tool().equals("lomi_browser_open"))
                .findFirst()
                .orElseThrow();
        assertThat(decision.plan()).contains("\"origin\":\"" + site.origin() + "\"");
        assertThat(decision.summary()).contains(site.origin());
        broker.decisions.decide(decision.operationId(), true);
        JsonNode opened =
                broker.settled(agent.session(), waiting.path("operationId").asString(), Duration.ofSeconds(20));
        assertThat(opened.path("state").asString()).as("%s", opened).isEqualTo("succeeded");
        assertThat(broker.origins.approved(agent.project().id(), site.origin())).isTrue();
    }

    /** Each test's pages close after it (a connection holds at most 4 live browsers). */
    @org.junit.jupiter.api.AfterEach
    void closePages() {
        opened.forEach(broker.browsers::close);
        opened.clear();
    }

    final java.util.List<String> opened = new java.util.concurrent.CopyOnWriteArrayList<>();

    @AfterAll
    void stop() {
        broker.close();
        site.close();
        elsewhere.close();
    }

    // ------------------------------------------------------------------ the tests

    @Test
    void anApprovedOriginOpensAtOnceWithAGenerationAProfileAndALease() {
        Page page = page();
        assertThat(page.generation).startsWith("brg-");
        assertThat(page.opened.path("profileId").asString()).startsWith("prf-");
        assertThat(page.opened.path("engine").asString()).isEqualTo("chromium");
        assertThat(page.opened.path("networkIsolation").asString()).isEqualTo("none");
        assertThat(page.lease).hasSize(32);
    }

    @Test
    void aRejectedOriginFailsWithScopeDeniedAndIsNotRemembered() {
        JsonNode waiting = open(agent.session(), agent.epoch(), elsewhere.url("/other.html"));
        assertThat(waiting.path("state").asString()).isEqualTo("awaiting_user");
        broker.decisions.decide(new OperationId(waiting.path("operationId").asString()), false);
        JsonNode failed =
                broker.settled(agent.session(), waiting.path("operationId").asString(), Duration.ofSeconds(5));
        assertThat(failed.path("state").asString()).isEqualTo("failed");
        assertThat(failed.path("errorCode").asString()).isEqualTo("SCOPE_DENIED");
        assertThat(broker.origins.approved(agent.project().id(), elsewhere.origin()))
                .isFalse();
        assertThat(elsewhere.requests).isEmpty();
    }

    @Test
    void snapshotFillClickAndWaitForTheChangedText() {
        Page page = page();
        JsonNode snapshot = page.snapshot();
        assertThat(snapshot.path("kind").asString()).isEqualTo("browser_snapshot");
        assertThat(snapshot.path("origin").asString()).isEqualTo(site.origin());
        String name = ref(snapshot, "textbox", "Name");
        JsonNode filled = page.op("lomi_browser_fill", snapshot, "elementRef", name, "text", "Ada Lovelace");
        assertThat(filled.path("state").asString()).as("%s", filled).isEqualTo("succeeded");
        assertThat(filled.path("result").path("valueLength").asLong()).isEqualTo(12);
        assertThat(filled.path("result").path("inputMode").asString()).isEqualTo("synthetic_dom");

        JsonNode again = page.snapshot();
        assertThat(again.toString()).as("form values are omitted").doesNotContain("Ada Lovelace");
        assertThat(element(again, "textbox", "Name").path("valueLength").asLong())
                .isEqualTo(12);
        JsonNode clicked = page.op("lomi_browser_click", again, "elementRef", ref(again, "button", "Greet"));
        assertThat(clicked.path("state").asString()).as("%s", clicked).isEqualTo("succeeded");

        JsonNode waited = broker.ok(
                agent.session(),
                "lomi_browser_wait",
                page.read("condition", cond("text", "text", "Hello, Ada Lovelace")));
        assertThat(waited.path("matched").asBoolean()).isTrue();
        assertThat(waited.path("snapshot").toString()).contains("Hello, Ada Lovelace");
        JsonNode missed = broker.ok(
                agent.session(),
                "lomi_browser_wait",
                page.read("condition", cond("text", "text", "never there"), "timeoutMs", 200));
        assertThat(missed.path("matched").asBoolean()).isFalse();
    }

    @Test
    void eachActionAnswersThePageAfterItSoTheModelNeedsNoSnapshotCall() {
        Page page = page();
        JsonNode atOpen = page.opened.path("snapshot");
        assertThat(atOpen.path("kind").asString()).isEqualTo("browser_snapshot");
        JsonNode filled = page.op(
                "lomi_browser_fill", atOpen, "elementRef", ref(atOpen, "textbox", "Name"), "text", "Ada Lovelace");
        assertThat(filled.path("state").asString()).as("%s", filled).isEqualTo("succeeded");
        JsonNode afterFill = filled.path("result").path("snapshot");
        assertThat(element(afterFill, "textbox", "Name").path("valueLength").asLong())
                .isEqualTo(12);
        assertThat(afterFill.toString()).as("form values are omitted").doesNotContain("Ada Lovelace");

        JsonNode clicked = page.op("lomi_browser_click", afterFill, "elementRef", ref(afterFill, "button", "Greet"));
        assertThat(clicked.path("state").asString()).as("%s", clicked).isEqualTo("succeeded");
        assertThat(clicked.path("result").path("snapshot").toString()).contains("Hello, Ada Lovelace");
        assertThat(page.snapshot().path("snapshotId").asString())
                .as("a snapshot call still answers a snapshot of its own")
                .isNotEqualTo(clicked.path("result")
                        .path("snapshot")
                        .path("snapshotId")
                        .asString());
    }

    @Test
    void theSnapshotAnActionAnswersLeavesTheAgentsOwnSnapshotCurrentUntilItTakesANewOne() {
        Page page = page();
        JsonNode own = page.snapshot();
        JsonNode first = page.op("lomi_browser_click", own, "elementRef", ref(own, "button", "Greet"));
        assertThat(first.path("state").asString()).as("%s", first).isEqualTo("succeeded");
        JsonNode answered = first.path("result").path("snapshot");
        assertThat(answered.path("snapshotId").asString())
                .isNotEqualTo(own.path("snapshotId").asString());
        JsonNode second = page.op("lomi_browser_click", own, "elementRef", ref(own, "button", "Greet"));
        assertThat(second.path("state").asString())
                .as("an agent written for the reference acts on the snapshot it asked for: %s", second)
                .isEqualTo("succeeded");

        JsonNode newer = page.snapshot();
        assertThat(page.refusedOp("lomi_browser_click", own, "elementRef", ref(own, "button", "Greet")))
                .isEqualTo(ErrorCode.STALE_SNAPSHOT);
        assertThat(page.refusedOp("lomi_browser_click", answered, "elementRef", ref(answered, "button", "Greet")))
                .as("a newer snapshot of its own makes the answered ones stale too")
                .isEqualTo(ErrorCode.STALE_SNAPSHOT);
        assertThat(page.op("lomi_browser_click", newer, "elementRef", ref(newer, "button", "Greet"))
                        .path("state")
                        .asString())
                .isEqualTo("succeeded");
    }

    @Test
    void aConnectionWithoutBrowserReadGetsNoSnapshotInItsAnswers() {
        java.util.Set<String> scopes = new java.util.HashSet<>(dev.lomicontrol.pairing.Scopes.all());
        scopes.remove("browser.read");
        Session blind = broker.session(new dev.lomicontrol.pairing.Grant(true, java.util.Set.of(), scopes));
        JsonNode opened = open(blind, broker.connect(blind, agent.project()), site.url("/"));
        assertThat(opened.path("state").asString()).as("%s", opened).isEqualTo("succeeded");
        this.opened.add(opened.path("result").path("browserGeneration").asString());
        assertThat(opened.path("result").path("snapshot").isNull()
                        || opened.path("result").path("snapshot").isMissingNode())
                .as("%s", opened)
                .isTrue();
    }

    @Test
    void aRetriedClickWithTheSameKeyClicksOnce() {
        Page page = page();
        JsonNode snapshot = page.snapshot();
        String greet = ref(snapshot, "button", "Greet");
        int before = site.clicks.get();
        String key = agent.key("click-once");
        JsonNode first = page.opWithKey("lomi_browser_click", key, snapshot, "elementRef", greet);
        JsonNode second = page.opWithKey("lomi_browser_click", key, snapshot, "elementRef", greet);
        assertThat(second.path("operationId").asString())
                .isEqualTo(first.path("operationId").asString());
        await().atMost(Duration.ofSeconds(10)).until(() -> site.clicks.get() == before + 1);
        JsonNode third = page.opWithKey("lomi_browser_click", key, snapshot, "elementRef", greet);
        assertThat(third.path("operationId").asString())
                .isEqualTo(first.path("operationId").asString());
        assertThat(broker.ledger.eventsOf(
                        new OperationId(first.path("operationId").asString())))
                .hasSize(3); // queued, running, succeeded
        JsonNode last = broker.ok(
                agent.session(),
                "lomi_browser_wait",
                page.read("condition", cond("text", "text", "Hello,"), "timeoutMs", 2000));
        assertThat(last.path("matched").asBoolean()).isTrue();
        assertThat(site.clicks.get())
                .as("the page posted /clicked exactly once")
                .isEqualTo(before + 1);
    }

    @Test
    void aKeyReachesTheFocusedElement() {
        Page page = page();
        JsonNode snapshot = page.snapshot();
        JsonNode pressed =
                page.op("lomi_browser_key", snapshot, "elementRef", ref(snapshot, "textbox", "Keys"), "key", "Enter");
        assertThat(pressed.path("state").asString()).as("%s", pressed).isEqualTo("succeeded");
        assertThat(pressed.path("result").path("defaultAction").asBoolean(true)).isFalse();
        JsonNode waited = broker.ok(
                agent.session(), "lomi_browser_wait", page.read("condition", cond("text", "text", "Pressed Enter")));
        assertThat(waited.path("matched").asBoolean()).isTrue();
    }

    @Test
    void scrollMovesTheViewportAndAnswersThePosition() {
        Page page = page();
        JsonNode snapshot = page.snapshot();
        ObjectNode args = page.opArgs("lomi_browser_scroll", agent.key("k"), snapshot);
        args.put("deltaX", 0);
        args.put("deltaY", 600.0);
        JsonNode scrolled =
                broker.calls.call(agent.session(), "lomi_browser_scroll", args).path("data");
        assertThat(scrolled.path("state").asString()).as("%s", scrolled).isEqualTo("succeeded");
        assertThat(scrolled.path("result").path("scrollPosition").path("y").asDouble())
                .isEqualTo(600.0);
    }

    @Test
    void theIframeIsProjectedAndItsButtonWorks() {
        Page page = page();
        JsonNode snapshot = page.snapshot();
        assertThat(snapshot.path("frames").size()).isEqualTo(2);
        JsonNode inner = element(snapshot, "button", "Inner button");
        assertThat(inner.path("frameId").asString())
                .isNotEqualTo(snapshot.path("frameId").asString());
        JsonNode clicked = page.op(
                "lomi_browser_click",
                snapshot,
                "elementRef",
                inner.path("elementRef").asString());
        assertThat(clicked.path("state").asString()).as("%s", clicked).isEqualTo("succeeded");
        JsonNode waited = broker.ok(
                agent.session(),
                "lomi_browser_wait",
                page.read("condition", cond("element", "role", "button", "name", "Inner pressed")));
        assertThat(waited.path("matched").asBoolean())
                .as("the element condition looks into same-origin frames")
                .isTrue();
        assertThat(waited.path("snapshot").toString()).contains("Inner pressed");
    }

    @Test
    void fillingALabelFailsSayingItIsALabelAndWhichFieldToFillInstead() {
        Page page = page();
        JsonNode snapshot = page.snapshot();
        String label = ref(snapshot, "text", "Name");
        JsonNode failed = page.op("lomi_browser_fill", snapshot, "elementRef", label, "text", "Ada");
        assertThat(failed.path("state").asString()).as("%s", failed).isEqualTo("failed");
        assertThat(failed.path("errorCode").asString()).isEqualTo("INVALID_ARGUMENT");
        assertThat(failed.at("/result/message").asString())
                .isEqualTo("ref " + label + " is text of the label \"Name\", not a field that takes text; fill the"
                        + " field it labels instead (in lomi_browser_snapshot, the textbox, searchbox or combobox"
                        + " named \"Name\")");
        assertThat(ref(snapshot, "textbox", "Name"))
                .as("the field the message names")
                .isNotEqualTo(label);
    }

    @Test
    void fillingAButtonFailsSayingWhatItIsAndWhatTakesText() {
        Page page = page();
        JsonNode snapshot = page.snapshot();
        String button = ref(snapshot, "button", "Greet");
        JsonNode failed = page.op("lomi_browser_fill", snapshot, "elementRef", button, "text", "Ada");
        assertThat(failed.at("/result/message").asString())
                .isEqualTo("ref " + button + " is a <button> element, not a field that takes text; fill a textbox,"
                        + " searchbox or combobox ref of the latest lomi_browser_snapshot");
    }

    @Test
    void aStaleRefIsRefusedWithStaleSnapshot() {
        Page page = page();
        JsonNode old = page.snapshot();
        page.snapshot();
        int before = site.clicks.get();
        assertThat(page.refusedOp("lomi_browser_click", old, "elementRef", ref(old, "button", "Greet")))
                .isEqualTo(ErrorCode.STALE_SNAPSHOT);
        assertThat(page.refusedOp("lomi_browser_fill", old, "elementRef", ref(old, "textbox", "Name"), "text", "x"))
                .isEqualTo(ErrorCode.STALE_SNAPSHOT);
        JsonNode navigated = page.durable("lomi_browser_navigate", "leaseId", page.lease, "url", site.url("/"));
        assertThat(navigated.path("state").asString()).isEqualTo("succeeded");
        JsonNode current = page.snapshot();
        assertThat(page.refusedOp("lomi_browser_click", old, "elementRef", ref(current, "button", "Greet")))
                .as("refs of another navigation")
                .isEqualTo(ErrorCode.STALE_SNAPSHOT);
        assertThat(site.clicks.get()).as("nothing was clicked").isEqualTo(before);
    }

    @Test
    void logsKeepConsoleErrorsThrownErrorsAndRejectionsApartWithACursor() {
        Page page = page();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> broker.ok(agent.session(), "lomi_browser_logs", page.read("logKind", "promise_rejection"))
                                .path("entries")
                                .size()
                        == 1);
        JsonNode console = broker.ok(agent.session(), "lomi_browser_logs", page.read("logKind", "console"));
        assertThat(console.path("entries").toString())
                .contains("boom from the page")
                .contains("hello from the log");
        assertThat(console.path("entries").get(0).path("level").asString()).isEqualTo("error");
        JsonNode errors = broker.ok(agent.session(), "lomi_browser_logs", page.read());
        assertThat(errors.path("logKind").asString()).isEqualTo("javascript_error");
        assertThat(errors.path("entries").toString()).contains("thrown later");
        assertThat(errors.path("entries").get(0).path("eventTrusted").asBoolean(false))
                .as("the engine reported it")
                .isTrue();
        assertThat(errors.path("dropped").asLong()).isZero();
        assertThat(console.path("entries").get(0).path("eventTrusted").isNull())
                .as("a console message is no event")
                .isTrue();
        JsonNode rejections =
                broker.ok(agent.session(), "lomi_browser_logs", page.read("logKind", "promise_rejection"));
        assertThat(rejections.path("entries").get(0).path("eventTrusted").asBoolean(false))
                .isTrue();
        JsonNode rest = broker.ok(
                agent.session(),
                "lomi_browser_logs",
                page.read(
                        "logKind",
                        "console",
                        "cursor",
                        console.path("nextCursor").asString()));
        assertThat(rest.path("entries").size()).isZero();
        assertThat(broker.refused(
                        agent.session(),
                        "lomi_browser_logs",
                        page.read("logKind", "console", "cursor", "log.nav-0000000000000000.1")))
                .isEqualTo(ErrorCode.CURSOR_EXPIRED);
    }

    @Test
    void aScreenshotIsAPngArtifactAndItsReadCarriesTheImage() throws Exception {
        Page page = page();
        JsonNode shot = broker.ok(
                agent.session(),
                "lomi_browser_screenshot",
                page.read("navigationId", page.navigation, "maxWidth", 640));
        String png = shot.path(dev.lomicontrol.tools.ImageBlock.FIELD).asString();
        BufferedImage image =
                ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(png)));
        assertThat(image).isNotNull();
        assertThat(image.getWidth()).isEqualTo(640);
        assertThat(image.getHeight()).isGreaterThan(100);
        JsonNode artifact = shot.path("artifact");
        assertThat(artifact.path("mediaType").asString()).isEqualTo("image/png");
        assertThat(artifact.path("sha256").asString())
                .isEqualTo(sha256(Base64.getDecoder().decode(png)));
        JsonNode read = agent.ok(
                "lomi_artifact_read",
                "workspaceId",
                agent.workspace(),
                "artifactId",
                artifact.path("id").asString());
        assertThat(read.path("mediaType").asString()).isEqualTo("image/png");
        assertThat(read.path(dev.lomicontrol.tools.ImageBlock.FIELD).asString()).isEqualTo(png);
        assertThat(read.path("sourceChanged").asBoolean()).isFalse();
    }

    @Test
    void aHiddenBrowserIsNotRenderableUntilItsPanelIsFocused() {
        JsonNode opened = open(agent.session(), agent.epoch(), site.url("/"), "visible", false);
        assertThat(opened.path("state").asString()).as("%s", opened).isEqualTo("succeeded");
        Page page = new Page(agent.session(), agent.epoch(), opened.path("result"));
        int artifactsBefore =
                broker.artifacts.list(agent.session().id().value()).size();
        assertThat(broker.refused(
                        agent.session(), "lomi_browser_screenshot", page.read("navigationId", page.navigation)))
                .isEqualTo(ErrorCode.UNSUPPORTED_CAPABILITY);
        assertThat(broker.artifacts.list(agent.session().id().value()).size())
                .as("no artifact for a refused capture")
                .isEqualTo(artifactsBefore);
        assertThat(page.snapshot().path("kind").asString())
                .as("reading a hidden page is fine")
                .isEqualTo("browser_snapshot");
        JsonNode focused = page.durable("lomi_panel_focus", "expectedRevision", broker.revision());
        assertThat(focused.path("state").asString()).as("%s", focused).isEqualTo("succeeded");
        JsonNode shot = broker.ok(
                agent.session(),
                "lomi_browser_screenshot",
                page.read("navigationId", page.navigation, "maxWidth", 320));
        assertThat(shot.path("artifact").path("mediaType").asString()).isEqualTo("image/png");
    }

    @Test
    void aDownloadLandsInAnArtifactWithTheRightSha256AndARedirectIsRefused() throws Exception {
        Page page = page();
        JsonNode done = page.durable(
                "lomi_browser_download",
                "url",
                site.url("/file.bin"),
                "navigationId",
                page.navigation,
                "expectedRevision",
                broker.revision());
        assertThat(done.path("state").asString()).as("%s", done).isEqualTo("succeeded");
        assertThat(done.path("result").path("artifact").path("sha256").asString())
                .isEqualTo(sha256(TestSite.FILE));
        assertThat(done.path("result").path("artifact").path("byteLength").asLong())
                .isEqualTo(TestSite.FILE.length);

        JsonNode redirected = page.durable(
                "lomi_browser_download",
                "url",
                site.url("/redirect?to=" + site.url("/file.bin")),
                "navigationId",
                page.navigation,
                "expectedRevision",
                broker.revision());
        assertThat(redirected.path("state").asString()).isEqualTo("failed");
        assertThat(redirected.path("errorCode").asString()).isEqualTo("SCOPE_DENIED");
        ErrorCode other = broker.refused(
                agent.session(),
                "lomi_browser_download",
                page.durableArgs(
                        "url",
                        elsewhere.url("/file.bin"),
                        "navigationId",
                        page.navigation,
                        "expectedRevision",
                        broker.revision()));
        assertThat(other).isEqualTo(ErrorCode.SCOPE_DENIED);
        assertThat(elsewhere.requests).isEmpty();
    }

    @Test
    void anUploadWaitsForTheAdminAndIsAttachedOnlyWhenApproved() throws Exception {
        Page page = page();
        Files.writeString(agent.project().root().resolve("hello.txt"), "hello", StandardCharsets.UTF_8);
        String sha = sha256("hello".getBytes(StandardCharsets.UTF_8));
        JsonNode imported = agent.op(
                "lomi_artifact_import",
                "workspaceId",
                agent.workspace(),
                "relativePath",
                "hello.txt",
                "expectedByteLength",
                5,
                "expectedSha256",
                sha,
                "expectedRevision",
                broker.revision());
        String artifact = imported.path("result").path("artifactId").asString();

        JsonNode rejected = uploadToTheAttachment(page, artifact, sha);
        assertThat(rejected.path("state").asString()).isEqualTo("awaiting_user");
        PendingDecision plan = broker.decisions.list().stream()
                .filter(d -> d.operationId()
                        .value()
                        .equals(rejected.path("operationId").asString()))
                .findFirst()
                .orElseThrow();
        assertThat(plan.plan()).contains("\"fileName\":\"a.txt\"").contains(sha).contains(site.origin());
        broker.decisions.decide(plan.operationId(), false);
        assertThat(broker.settled(agent.session(), rejected.path("operationId").asString(), Duration.ofSeconds(5))
                        .path("errorCode")
                        .asString())
                .isEqualTo("SCOPE_DENIED");
        assertThat(broker.ok(
                                agent.session(),
                                "lomi_browser_wait",
                                page.read("condition", cond("text", "text", "Nothing chosen")))
                        .path("matched")
                        .asBoolean())
                .isTrue();

        // the wait answered a new snapshot: the earlier refs are stale, the upload takes a new one
        JsonNode approved = uploadToTheAttachment(page, artifact, sha);
        broker.decisions.decide(new OperationId(approved.path("operationId").asString()), true);
        JsonNode attached =
                broker.settled(agent.session(), approved.path("operationId").asString(), Duration.ofSeconds(10));
        assertThat(attached.path("state").asString()).as("%s", attached).isEqualTo("succeeded");
        assertThat(attached.path("result").path("target").path("origin").asString())
                .isEqualTo(site.origin());
        assertThat(broker.ok(
                                agent.session(),
                                "lomi_browser_wait",
                                page.read("condition", cond("text", "text", "Chosen a.txt of 5 bytes")))
                        .path("matched")
                        .asBoolean())
                .isTrue();
    }

    /** lomi_browser_upload of the artifact as a.txt to the page's "Attachment" file input, in a new snapshot. */
    JsonNode uploadToTheAttachment(Page page, String artifact, String sha) {
        JsonNode snapshot = page.snapshot();
        JsonNode input = element(snapshot, "file_input", "Attachment");
        return page.op(
                "lomi_browser_upload",
                snapshot,
                "elementRef",
                input.path("elementRef").asString(),
                "frameId",
                input.path("frameId").asString(),
                "artifactId",
                artifact,
                "expectedSha256",
                sha,
                "fileName",
                "a.txt",
                "expectedRevision",
                broker.revision());
    }

    @Test
    void navigationOutsideTheApprovedOriginsIsRefusedAlsoThroughARedirect() {
        Page page = page();
        assertThat(broker.refused(
                        agent.session(),
                        "lomi_browser_navigate",
                        page.durableArgs("leaseId", page.lease, "url", elsewhere.url("/other.html"))))
                .isEqualTo(ErrorCode.SCOPE_DENIED);
        JsonNode redirected = page.durable(
                "lomi_browser_navigate",
                "leaseId",
                page.lease,
                "url",
                site.url("/redirect?to=" + elsewhere.url("/other.html")));
        assertThat(redirected.path("state").asString()).as("%s", redirected).isEqualTo("failed");
        assertThat(redirected.path("errorCode").asString()).isEqualTo("SCOPE_DENIED");
        assertThat(elsewhere.requests)
                .as("the network layer stopped the redirect before it was sent")
                .isEmpty();
        JsonNode fine = page.durable("lomi_browser_navigate", "leaseId", page.lease, "url", site.url("/whoami"));
        assertThat(fine.path("state").asString()).isEqualTo("succeeded");
        assertThat(fine.path("result").path("navigationId").asString()).isNotEqualTo(page.navigation);
        assertThat(fine.path("result").path("loaded").asBoolean()).isTrue();
    }

    @Test
    void twoConnectionsNeverSeeEachOthersCookiesOrBrowsers() {
        Page mine = page();
        assertThat(mine.durable("lomi_browser_navigate", "leaseId", mine.lease, "url", site.url("/cookie?set=first"))
                        .path("state")
                        .asString())
                .isEqualTo("succeeded");
        assertThat(mine.durable("lomi_browser_navigate", "leaseId", mine.lease, "url", site.url("/whoami"))
                        .path("state")
                        .asString())
                .isEqualTo("succeeded");
        assertThat(mine.snapshot().toString()).contains("who=first");

        Session other = broker.session();
        RetryEpochId otherEpoch = broker.connect(other, agent.project());
        JsonNode opened = open(other, otherEpoch, site.url("/whoami"));
        assertThat(opened.path("state").asString())
                .as("the origin is approved for the project: no second decision")
                .isEqualTo("succeeded");
        Page theirs = new Page(other, otherEpoch, opened.path("result"));
        assertThat(theirs.opened.path("profileId").asString())
                .isNotEqualTo(mine.opened.path("profileId").asString());
        assertThat(theirs.snapshot().toString()).contains("cookie: []").doesNotContain("first");
        assertThat(broker.refused(other, "lomi_browser_snapshot", mine.read())).isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        broker.calls.sessionEnded(other);
        assertThat(broker.browsers.find(theirs.generation)).isEmpty();
        assertThat(broker.browsers.find(mine.generation)).isPresent();
    }

    @Test
    void panelsShowTheGenerationAndFocusAndCloseCheckIt() {
        Page page = page();
        JsonNode list = broker.ok(
                agent.session(), "lomi_panel_list", BrokerCallsFixture.json("workspaceId", agent.workspace()));
        JsonNode panel = null;
        for (JsonNode item : list.path("panels")) {
            if (item.path("panelId").asString().equals(page.panel)) {
                panel = item;
            }
        }
        assertThat(panel).isNotNull();
        assertThat(panel.path("kind").asString()).isEqualTo("browser");
        assertThat(panel.path("browserGeneration").asString()).isEqualTo(page.generation);
        assertThat(panel.path("runtimeState").asString()).isEqualTo("ready");
        ErrorCode stale = broker.refused(
                agent.session(),
                "lomi_panel_focus",
                page.durableArgs("browserGeneration", "brg-0000000000000000", "expectedRevision", broker.revision()));
        assertThat(stale).isEqualTo(ErrorCode.STALE_GENERATION);
        JsonNode closed = page.durable("lomi_panel_close", "expectedRevision", broker.revision());
        assertThat(closed.path("state").asString()).as("%s", closed).isEqualTo("succeeded");
        assertThat(broker.browsers.find(page.generation)).isEmpty();
        assertThat(broker.refused(agent.session(), "lomi_browser_snapshot", page.read()))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
    }

    // ------------------------------------------------------------------ helpers

    /** lomi_browser_open of {@code url} by {@code who}, with {@code more} pairs. */
    JsonNode open(Session who, RetryEpochId epoch, String url, Object... more) {
        ObjectNode node = Agent.object(
                "workspaceId",
                agent.workspace(),
                "url",
                url,
                "expectedRevision",
                broker.revision(),
                "retryEpoch",
                epoch.value(),
                "requestKey",
                agent.key("open"));
        return broker.ok(
                who, "lomi_browser_open", node.setAll(Agent.object(more)).toString());
    }

    /** A fresh page of this class's connection on the approved site's index. */
    Page page() {
        JsonNode opened = open(agent.session(), agent.epoch(), site.url("/"));
        assertThat(opened.path("state").asString()).as("%s", opened).isEqualTo("succeeded");
        return new Page(agent.session(), agent.epoch(), opened.path("result"));
    }

    final class Page {
        final Session who;
        final RetryEpochId epoch;
        final JsonNode opened;
        final String panel;
        final String generation;
        final String lease;
        final String navigation;

        Page(Session who, RetryEpochId epoch, JsonNode opened) {
            this.who = who;
            this.epoch = epoch;
            this.opened = opened;
            this.panel = opened.path("panelId").asString();
            this.generation = opened.path("browserGeneration").asString();
            this.lease = opened.path("leaseId").asString();
            this.navigation = opened.path("navigationId").asString();
            BrowserToolsTests.this.opened.add(generation);
        }

        String read(Object... more) {
            ObjectNode node = base();
            put(node, more);
            return node.toString();
        }

        JsonNode snapshot() {
            return broker.ok(who, "lomi_browser_snapshot", read("maxBytes", 65536));
        }

        ObjectNode opArgs(String tool, String key, JsonNode snapshot, Object... more) {
            ObjectNode node = base();
            node.put("navigationId", snapshot.path("navigationId").asString());
            node.put("snapshotId", snapshot.path("snapshotId").asString());
            node.put("leaseId", lease);
            node.put("retryEpoch", epoch.value());
            node.put("requestKey", key);
            put(node, more);
            return node;
        }

        JsonNode op(String tool, JsonNode snapshot, Object... more) {
            return opWithKey(tool, agent.key("k"), snapshot, more);
        }

        JsonNode opWithKey(String tool, String key, JsonNode snapshot, Object... more) {
            return broker.ok(who, tool, opArgs(tool, key, snapshot, more).toString());
        }

        ErrorCode refusedOp(String tool, JsonNode snapshot, Object... more) {
            return broker.refused(
                    who, tool, opArgs(tool, agent.key("k"), snapshot, more).toString());
        }

        String durableArgs(Object... more) {
            ObjectNode node = base();
            node.put("retryEpoch", epoch.value());
            node.put("requestKey", agent.key("k"));
            put(node, more);
            return node.toString();
        }

        JsonNode durable(String tool, Object... more) {
            return broker.ok(who, tool, durableArgs(more));
        }

        private ObjectNode base() {
            ObjectNode node = BrokerCallsFixture.JSON.createObjectNode();
            node.put("workspaceId", agent.workspace());
            node.put("panelId", panel);
            node.put("browserGeneration", generation);
            return node;
        }
    }

    static void put(ObjectNode node, Object... pairs) {
        for (int i = 0; i < pairs.length; i += 2) {
            Object value = pairs[i + 1];
            if (value instanceof JsonNode json) {
                node.set((String) pairs[i], json);
            } else if (value instanceof Integer number) {
                node.put((String) pairs[i], number);
            } else {
                node.put((String) pairs[i], String.valueOf(value));
            }
        }
    }

    static JsonNode cond(Object... pairs) {
        ObjectNode node = BrokerCallsFixture.JSON.createObjectNode();
        node.put("type", (String) pairs[0]);
        for (int i = 1; i < pairs.length; i += 2) {
            node.put((String) pairs[i], (String) pairs[i + 1]);
        }
        return node;
    }

    static JsonNode element(JsonNode snapshot, String role, String name) {
        for (JsonNode element : snapshot.path("elements")) {
            if (element.path("role").asString().equals(role)
                    && element.path("name").asString().equals(name)) {
                return element;
            }
        }
        throw new AssertionError("no " + role + " '" + name + "' in " + snapshot.path("elements"));
    }

    static String ref(JsonNode snapshot, String role, String name) {
        return element(snapshot, role, name).path("elementRef").asString();
    }

    static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
