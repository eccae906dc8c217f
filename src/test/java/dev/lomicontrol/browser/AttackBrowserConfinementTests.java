package dev.lomicontrol.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lomicontrol.testing.MutableClock;
import dev.lomicontrol.testing.TestSite;
import java.security.SecureRandom;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Security review 2026-12-06, N12: what a page on an approved origin starts is confined like the
 * page. A real headless Chromium, two real HTTP servers on 127.0.0.1: {@code site} (approved) and
 * {@code elsewhere} (not approved, and a local address). Each page tries {@code elsewhere} first and
 * then its own origin (the control, which proves the popup, object or worker really ran); the
 * unapproved server must see no request at all.
 */
class AttackBrowserConfinementTests {

    final MutableClock clock = MutableClock.startingAt("2026-12-06T09:00:00Z");
    Browsers browsers;
    TestSite site;
    TestSite elsewhere;
    BrowserPage page;

    @BeforeEach
    void start() {
        BrowserOptions options = BrowserOptions.defaults();
        assertThat(options.executable())
                .as("install Chromium: apt-get install -y chromium-headless-shell")
                .isPresent();
        browsers = new Browsers(options, clock, new SecureRandom());
        site = new TestSite();
        elsewhere = new TestSite();
        page = browsers.open("session-n12", origin -> origin.equals(site.origin()));
    }

    @AfterEach
    void stop() {
        browsers.close();
        site.close();
        elsewhere.close();
    }

    @Test
    void aPopupToAnUnapprovedOriginIsNeverLoaded() {
        // window.open answers null: the browser opens no new window at all (old code: the popup loaded)
        load("/popup.html", "opened none none");
        assertThat(elsewhere.requests)
                .as("no popup reached the unapproved server")
                .isEmpty();
        assertThat(site.requests).doesNotContain("/popup-control.html");
    }

    @Test
    void anObjectOrEmbedDocumentFromAnUnapprovedOriginIsNeverLoaded() {
        load("/object.html", "embedded");
        await().atMost(Duration.ofSeconds(10)).until(() -> site.requests.contains("/object-control.html"));
        assertThat(elsewhere.requests).isEmpty();
    }

    @Test
    void aWorkersFetchAndThePagesOwnFetchToAnUnapprovedLocalOriginAreNeverSent() {
        load("/worker.html", "worker done");
        assertThat(site.requests).contains("/worker-control", "/page-control");
        assertThat(elsewhere.requests).isEmpty();
    }

    @Test
    void aServiceWorkersAndASharedWorkersFetchToAnUnapprovedLocalOriginAreNeverSent() {
        BrowserPage.Navigation navigation =
                page.navigate(site.url("/service-worker.html?to=" + elsewhere.origin()), true);
        assertThat(navigation.loaded()).isTrue();
        assertThat(page.waitFor(new BrowserPage.Condition.Text("service-done"), Duration.ofSeconds(10)))
                .isTrue();
        assertThat(page.waitFor(new BrowserPage.Condition.Text("no-shared-workers"), Duration.ofSeconds(10)))
                .as("a shared worker is not related to any page, so no page session could attach it: there are none")
                .isTrue();
        assertThat(site.requests).contains("/service-worker-control");
        assertThat(elsewhere.requests).isEmpty();
    }

    @Test
    void theLocalAddressesTheRuleKnows() {
        assertThat(NetworkRule.isLocal("http://127.0.0.1:8080/x")).isTrue();
        assertThat(NetworkRule.isLocal("http://localhost/")).isTrue();
        assertThat(NetworkRule.isLocal("http://app.localhost./")).isTrue();
        assertThat(NetworkRule.isLocal("http://10.1.2.3/")).isTrue();
        assertThat(NetworkRule.isLocal("http://192.168.0.1/")).isTrue();
        assertThat(NetworkRule.isLocal("http://172.20.0.1/")).isTrue();
        assertThat(NetworkRule.isLocal("http://169.254.169.254/latest/meta-data"))
                .isTrue();
        assertThat(NetworkRule.isLocal("http://0.0.0.0:3000/")).isTrue();
        assertThat(NetworkRule.isLocal("http://[::1]:8080/")).isTrue();
        assertThat(NetworkRule.isLocal("http://[fd00::1]/")).isTrue();
        assertThat(NetworkRule.isLocal("http://[::ffff:127.0.0.1]/")).isTrue();
        assertThat(NetworkRule.isLocal("https://example.com/")).isFalse();
        assertThat(NetworkRule.isLocal("https://8.8.8.8/")).isFalse();
        assertThat(NetworkRule.isLocal("https://172.32.0.1/")).isFalse();
    }

    private void load(String path, String done) {
        BrowserPage.Navigation navigation = page.navigate(site.url(path + "?to=" + elsewhere.origin()), true);
        assertThat(navigation.loaded()).isTrue();
        assertThat(page.waitFor(new BrowserPage.Condition.Text(done), Duration.ofSeconds(10)))
                .as("the page got as far as '%s'", done)
                .isTrue();
    }
}
