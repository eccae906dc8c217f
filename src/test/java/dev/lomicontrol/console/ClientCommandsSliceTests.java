package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Slice test of the client group ({@code client register|list|show}) against the caller's own HOME and cwd: no broker runs. */
class ClientCommandsSliceTests extends ConsoleSliceSupport {

    @Test
    void theGroupIsRegisteredWithHelpForEachCommand() {
        assertGroupHelp("Clients", "client register", "client list", "client show");
    }

    @Test
    void clientsAreListedAndShownAndAnUnknownOneIsRefused() {
        assertThat(ok("client list")).contains("claude-code");
        assertThat(ok("client list --json")).startsWith("{");
        // no broker runs in the slice, so there is no registration key to write into a client's config: refused, saying
        // why
        assertRefused("client show claude-code", "APP_UNAVAILABLE", "no registration key");
        assertUsage("client register nope", "unknown client 'nope'", "claude-code");
        assertUsage("client register cursor --scope global", "user or project");
    }

    @Test
    void argumentsAreParsedStrictly() {
        assertUsage("client register", "takes 1 argument");
        assertUsage("client show a b", "unexpected: b");
    }
}
