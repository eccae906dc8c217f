package dev.lomicontrol.tools;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The browser tools are qualified exactly when a Chromium executable is found; otherwise the reason names the package to install. */
class BrowserHostQualificationTests {

    @AfterEach
    void restore() {
        System.clearProperty("lomi.browser.executable");
    }

    @Test
    void thisHostHasChromiumSoTheBrowserToolsAreQualified() {
        assertThat(HostQualification.reason(HostNeed.BROWSER))
                .as("install it: apt-get install -y chromium-headless-shell")
                .isEmpty();
        assertThat(HostQualification.browserExecutable()).isPresent();
    }

    @Test
    void aConfiguredExecutableThatIsNotThereIsHostUnqualifiedNamingThePackage() {
        System.setProperty("lomi.browser.executable", "/nonexistent/chromium");
        assertThat(HostQualification.browserExecutable()).isEmpty();
        assertThat(HostQualification.reason(HostNeed.BROWSER).orElseThrow())
                .contains("/nonexistent/chromium")
                .contains("apt-get install chromium-headless-shell")
                .contains("nothing was done");
    }
}
