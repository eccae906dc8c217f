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
        assertThat(fails("client show claude-code", ConsoleResult.REFUSED))
                .contains("APP_UNAVAILABLE", "no registration key");
        assertThat(fails("client register nope", ConsoleResult.USAGE)).contains("unknown client 'nope'", "claude-code");
        assertThat(fails("client register cursor --scope global", ConsoleResult.USAGE))
                .contains("user or project");
    }

    @Test
    void argumentsAreParsedStrictly() {
        assertThat(fails("client register", ConsoleResult.USAGE)).contains("takes 1 argument");
        assertThat(fails("client show a b", ConsoleResult.USAGE)).contains("unexpected: b");
    }
}
