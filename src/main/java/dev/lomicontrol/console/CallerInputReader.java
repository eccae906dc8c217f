package dev.lomicontrol.console;

import java.util.Optional;
import org.springframework.shell.core.InputReader;

/**
 * The {@link InputReader} the console hands to commands: it carries the {@link Caller} and, for a
 * line that came over the admin socket, that connection's {@link ConnectionScope}; it reads nothing
 * (remote commands never prompt; destructive ones take {@code --confirm} instead).
 */
final class CallerInputReader implements InputReader {

    private final Caller caller;
    private final Optional<ConnectionScope> scope;

    CallerInputReader(Caller caller) {
        this(caller, Optional.empty());
    }

    CallerInputReader(Caller caller, Optional<ConnectionScope> scope) {
        this.caller = caller;
        this.scope = scope;
    }

    Caller caller() {
        return caller;
    }

    Optional<ConnectionScope> scope() {
        return scope;
    }
}
