package dev.lomicontrol.tools;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether this host can serve a tool's {@link HostNeed}, probed on the spot (a few file checks), so
 * that an unqualified host answers HOST_UNQUALIFIED with the exact reason instead of a fake success.
 */
public final class HostQualification {

    private HostQualification() {}

    /** Why this host lacks {@code need} (for Android, one capability: {@link HostNeed}); empty when it has it. */
    public static Optional<String> reason(HostNeed need) {
        return lacks(HostProbe.current(), need);
    }

    /** Why the host {@code host} describes lacks {@code need} (any {@link HostNeed}); empty when it has it. */
    public static Optional<String> lacks(HostProbe host, HostNeed need) {
        switch (need) {
            case BROWSER:
                return browser(host);
            case NONE:
                return Optional.empty();
            default:
                return AndroidCapabilities.missing(need, host);
        }
    }

    /** Where this host's Chromium is: {@code lomi.browser.executable} (system property) or {@code LOMI_BROWSER_EXECUTABLE}, else the Debian paths ({@link HostProbe#browserExecutable}). */
    public static Optional<Path> browserExecutable() {
        return HostProbe.current().browserExecutable();
    }

    /** The browser tools need a headless Chromium: a configured executable, else /usr/bin/chromium-headless-shell or /usr/bin/chromium. */
    static Optional<String> browser(HostProbe host) {
        if (host.browserExecutable().isPresent()) {
            return Optional.empty();
        }
        String configured = host.configuredBrowser().orElse("");
        return Optional.of(
                (configured.isBlank()
                                ? "no Chromium was found (/usr/bin/chromium-headless-shell, /usr/bin/chromium)"
                                : "the configured browser " + configured + " is not an executable file")
                        + "; install it with: apt-get install chromium-headless-shell (or set lomi.browser.executable); nothing was done");
    }

    /** Why this host cannot serve the tool {@code spec}: what its {@link HostNeed} lacks ({@link #reason(HostNeed)}); empty when it can. */
    public static Optional<String> reason(ToolSpec<?> spec) {
        return reason(spec, HostProbe.current());
    }

    /**
     * As {@link #reason(ToolSpec)}, for the host {@code probe} describes: the broker's dispatch asks
     * with the probe it was given ({@code HostProbe.current()} in the broker, a test's own environment
     * in tests).
     */
    public static Optional<String> reason(ToolSpec<?> spec, HostProbe probe) {
        return lacks(probe, spec.host());
    }

    /** Why {@code host} lacks the Android capability {@code need} ({@link AndroidCapabilities}); empty when it has it. */
    public static Optional<String> reason(HostProbe host, HostNeed need) {
        if (!need.android()) {
            throw new IllegalArgumentException(need + " is not an Android capability");
        }
        return AndroidCapabilities.missing(need, host);
    }
}
