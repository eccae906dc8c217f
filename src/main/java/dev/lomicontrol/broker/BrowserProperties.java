package dev.lomicontrol.broker;

import dev.lomicontrol.browser.BrowserOptions;
import dev.lomicontrol.browser.ChromiumExecutable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The browser settings ({@code lomi.browser.*}; shipped defaults in {@code config/application.properties}).
 * The executable is also read by both processes' host check from the {@code lomi.browser.executable}
 * system property or {@code LOMI_BROWSER_EXECUTABLE}: set it there when it is not a Debian path.
 *
 * @param executable            the Chromium to run; empty: /usr/bin/chromium-headless-shell, else /usr/bin/chromium
 * @param maxBrowsers           live browsers (pages) per broker
 * @param maxBrowsersPerSession live browsers per connection
 * @param idleTimeout           a browser unused this long is closed (its panel then shows no generation)
 */
@ConfigurationProperties("lomi.browser")
public record BrowserProperties(
        @DefaultValue("") String executable,
        @DefaultValue("8") int maxBrowsers,
        @DefaultValue("4") int maxBrowsersPerSession,
        @DefaultValue("15m") Duration idleTimeout) {

    BrowserOptions options() {
        Optional<Path> configured = executable.isBlank() ? Optional.empty() : Optional.of(Path.of(executable));
        return new BrowserOptions(
                ChromiumExecutable.find(configured),
                maxBrowsers,
                maxBrowsersPerSession,
                idleTimeout,
                Duration.ofSeconds(20),
                Duration.ofSeconds(10));
    }
}
