package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Slice test of the chat group ({@code chat connection …}, {@code chat list|show|new|say|tools|share}): no broker and no model provider run. */
class ChatCommandsSliceTests extends ConsoleSliceSupport {

    @Test
    void theGroupIsRegisteredWithHelpForEachCommand() {
        assertGroupHelp(
                "Chat",
                "chat connection add",
                "chat connection list",
                "chat connection remove",
                "chat list",
                "chat show",
                "chat new",
                "chat say",
                "chat tools",
                "chat share");
    }

    @Test
    void aConnectionIsAddedListedAndRemovedAndAnUnknownOneIsRefused() {
        assertThat(ok("chat connection list")).contains("no model connections");
        assertThat(
                        ok(
                                "chat connection add slice --kind openai --base-url http://127.0.0.1:9/v1 --model m1 --api-key-env SLICE_KEY"))
                .contains("added connection slice");
        assertThat(ok("chat connection list")).contains("slice", "http://127.0.0.1:9/v1", "m1");
        assertThat(ok("chat connection list --json")).startsWith("{").contains("\"slice\"");
        assertThat(ok("chat connection remove slice")).contains("removed connection slice");
        assertRefused("chat connection remove slice", "TARGET_NOT_FOUND");
    }

    @Test
    void argumentsAreParsedStrictly() {
        assertUsage("chat connection add x --kind openai --model m", "--base-url");
        assertRefused(
                "chat connection add x --kind smoke --base-url http://127.0.0.1:9 --model m",
                "INVALID_ARGUMENT",
                "--kind is openai or anthropic, not smoke");
        assertUsage(
                "chat connection add x --kind openai --base-url http://127.0.0.1:9 --model m --max-output-tokens lots",
                "'lots' is not a valid");
    }
}
