package dev.lomicontrol.browser;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * How browsers run: the Chromium executable (empty: none found, every open is HOST_UNQUALIFIED),
 * caps on live browsers (pages) per broker and per connection, how long an unused browser lives, and
 * how long one protocol command may take.
 */
public record BrowserOptions(
        Optional<Path> executable,
        int maxBrowsers,
        int maxBrowsersPerSession,
        Duration idleTimeout,
        Duration startTimeout,
        Duration commandTimeout) {

    public BrowserOptions {
        if (maxBrowsers < 1 || maxBrowsersPerSession < 1 || idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("browser caps must be positive");
        }
    }

    /** The executable found on this host, 8 browsers, 4 per connection, 15 min idle, 20 s start, 10 s per command. */
    public static BrowserOptions defaults() {
        return new BrowserOptions(
                ChromiumExecutable.find(Optional.empty()),
                8,
                4,
                Duration.ofMinutes(15),
                Duration.ofSeconds(20),
                Duration.ofSeconds(10));
    }

    public BrowserOptions withCaps(int browsers, int perSession) {
        return new BrowserOptions(executable, browsers, perSession, idleTimeout, startTimeout, commandTimeout);
    }

    public BrowserOptions withIdleTimeout(Duration idle) {
        return new BrowserOptions(executable, maxBrowsers, maxBrowsersPerSession, idle, startTimeout, commandTimeout);
    }
}
