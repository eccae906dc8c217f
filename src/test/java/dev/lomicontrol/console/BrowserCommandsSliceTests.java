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
        assertThat(fails("browser origins revoke slice-site http://127.0.0.1:9", ConsoleResult.REFUSED))
                .contains("TARGET_NOT_FOUND");
        assertThat(fails("browser origins list --project nowhere", ConsoleResult.REFUSED))
                .contains("TARGET_NOT_FOUND");
    }

    @Test
    void argumentsAreParsedStrictly() {
        assertThat(fails("browser origins revoke slice-site", ConsoleResult.USAGE))
                .contains("takes 2 arguments");
        assertThat(fails("browser origins list --project", ConsoleResult.USAGE)).contains("--project needs a value");
    }
}
