package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Slice test of the browser group ({@code browser origins list|revoke}): no broker and no Chromium run. */
class BrowserCommandsSliceTests extends ConsoleSliceSupport {

    @Test
    void theGroupIsRegisteredWithHelpForEachCommand() {
        assertGroupHelp("Browser", "browser origins list", "browser origins revoke");
    }

    @Test
    void originsAreListedAndAnUnknownOneIsRefused() throws Exception {
        java.nio.file.Files.createDirectories(cwd.resolve("site"));
        ok("project add site --name slice-site");
        assertThat(ok("browser origins list")).contains("no browser origins are approved");
        assertThat(ok("browser origins list --json")).startsWith("{");
        assertRefused("browser origins revoke slice-site http://127.0.0.1:9", "TARGET_NOT_FOUND");
        assertRefused("browser origins list --project nowhere", "TARGET_NOT_FOUND");
    }

    @Test
    void argumentsAreParsedStrictly() {
        assertUsage("browser origins revoke slice-site", "takes 2 arguments");
        assertUsage("browser origins list --project", "--project needs a value");
    }
}
