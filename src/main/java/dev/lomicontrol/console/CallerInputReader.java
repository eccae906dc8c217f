package dev.lomicontrol.console;

import org.springframework.shell.core.InputReader;

/**
 * The {@link InputReader} the console hands to commands: it carries the {@link Caller} and reads
 * nothing (remote commands never prompt; destructive ones take {@code --confirm} instead).
 */
final class CallerInputReader implements InputReader {

    private final Caller caller;

    CallerInputReader(Caller caller) {
        this.caller = caller;
    }

    Caller caller() {
        return caller;
    }
}
