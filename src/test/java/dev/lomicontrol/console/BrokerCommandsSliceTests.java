package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Slice test of the broker group ({@code status}, {@code help}): no broker runs, so no socket is listening. */
class BrokerCommandsSliceTests extends ConsoleSliceSupport {

    @Test
    void theGroupIsRegisteredWithHelpForEachCommand() {
        assertGroupHelp("Broker", "status", "help");
    }

    @Test
    void statusNamesWhatIsNotRunningInTheSlice() {
        assertThat(ok("status"))
                .contains(
                        "instance",
                        "data dir",
                        "not listening",
                        "admin socket",
                        "off",
                        "not published",
                        "0 live",
                        "0 of 256 (lomi.control.max-connections)",
                        "YOLO off",
                        "receipts 0 / 4096");
    }

    @Test
    void helpAndParsingErrorsHaveTheirExitStatus() {
        assertThat(ok("help ledger")).contains("ledger export", "ledger check").doesNotContain("pairing");
        assertUsage("help nonsense", "no command 'nonsense'");
        assertUsage("frobnicate", "unknown command 'frobnicate'");
        assertUsage("status 'unterminated", "unterminated");
        assertUsage("status extra", "unexpected: extra");
    }
}
