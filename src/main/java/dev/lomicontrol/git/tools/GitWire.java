package dev.lomicontrol.git.tools;

import java.util.Locale;
import java.util.Optional;

/** How the git handlers spell the engine's values on the wire: an enum in lower case, "" as absent. */
final class GitWire {

    private GitWire() {}

    static Optional<String> present(String value) {
        return value == null || value.isEmpty() ? Optional.empty() : Optional.of(value);
    }

    static String wire(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
