package dev.lomicontrol.terminal.tools;

import org.jspecify.annotations.Nullable;

/**
 * A value one step of a call finds and a later step uses: what an operation's admission check
 * found, for the effect the runner runs only after that check passed; the last page a waiting read
 * made, for the answer when the wait ends.
 */
final class Found<T> {

    private @Nullable T value;

    /** Keeps {@code found} and returns it. */
    T keep(T found) {
        value = found;
        return found;
    }

    /** The value kept; a step that runs before it was found is a bug. */
    T get() {
        T found = value;
        if (found == null) {
            throw new IllegalStateException("used before it was found");
        }
        return found;
    }
}
