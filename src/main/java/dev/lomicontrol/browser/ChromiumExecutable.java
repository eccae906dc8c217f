package dev.lomicontrol.browser;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** Where Chromium is: a configured path, else {@code /usr/bin/chromium-headless-shell}, else {@code /usr/bin/chromium}. */
public final class ChromiumExecutable {

    /** The Debian package to install when none is found. */
    public static final String PACKAGE = "chromium-headless-shell";

    static final List<Path> KNOWN = List.of(Path.of("/usr/bin/chromium-headless-shell"), Path.of("/usr/bin/chromium"));

    private ChromiumExecutable() {}

    /** The configured executable when it is one, else the first known one installed. */
    public static Optional<Path> find(Optional<Path> configured) {
        if (configured.isPresent()) {
            return configured.filter(Files::isExecutable);
        }
        return KNOWN.stream().filter(Files::isExecutable).findFirst();
    }
}
