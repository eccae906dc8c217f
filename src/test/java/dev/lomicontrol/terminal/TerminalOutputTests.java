package dev.lomicontrol.terminal;

import static dev.lomicontrol.terminal.TerminalRunTests.assertRefused;
import static dev.lomicontrol.terminal.TerminalTesting.awaitPrompt;
import static dev.lomicontrol.terminal.TerminalTesting.engine;
import static dev.lomicontrol.terminal.TerminalTesting.lease;
import static dev.lomicontrol.terminal.TerminalTesting.outcome;
import static dev.lomicontrol.terminal.TerminalTesting.ready;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading the rings: cursors, gaps, expiry, UTF-8 paging, command ranges, raw bytes and the screen. */
class TerminalOutputTests {

    @TempDir
    Path dir;

    @Test
    void outputBeyondTheRingIsReportedAsAGap() throws Exception {
        TerminalOptions small = new TerminalOptions(dir.resolve("integration"), 64 * 1024, 4);
        try (Terminals terminals = engine(dir, small, Map.of())) {
            Terminal terminal = ready(terminals, dir);
            CommandRun run = terminal.run(lease(terminal), "yes 0123456789 | head -c 300000");
            assertThat(outcome(run)).isEqualTo(new RunOutcome.Exited(0));
            awaitPrompt(terminal, PromptState.READY); // the next prompt is printed: the rings stay still

            OutputPage text = terminal.readText(0, 65536);
            assertThat(text.gap()).isTrue();
            assertThat(text.availableFrom()).isPositive();
            assertThat(text.cursor()).isEqualTo(text.availableFrom());
            assertThat(text.end()).isTrue();
            assertThat(text.nextCursor() - text.availableFrom()).isEqualTo(64 * 1024);
            assertThat(terminal.textEnd() - text.availableFrom()).isEqualTo(64 * 1024);
            OutputPage raw = terminal.readRaw(0, 65536);
            assertThat(raw.gap()).isTrue();
            assertThat(raw.end()).isTrue();
            assertThat(raw.nextCursor() - raw.availableFrom()).isEqualTo(64 * 1024);
            assertThat(raw.availableFrom()).isEqualTo(terminal.streamSequence() - 64 * 1024);
            OutputPage command = terminal.readCommand(run, -1, 100);
            assertThat(command.gap()).isTrue();
            assertThat(command.cursor()).isGreaterThan(run.startCursor());
        }
    }

    @Test
    void cursorsPastTheEndHaveExpiredAndTheEndGivesAnEmptyFinalPage() {
        try (Terminals terminals = engine(dir)) {
            Terminal terminal = ready(terminals, dir);
            long end = terminal.textEnd();

            assertRefused(() -> terminal.readText(end + 1, 100), ErrorCode.CURSOR_EXPIRED, "past the end");
            assertRefused(
                    () -> terminal.readRaw(terminal.streamSequence() + 1, 100),
                    ErrorCode.CURSOR_EXPIRED,
                    "past the end");
            OutputPage atEnd = terminal.readText(end, 100);
            assertThat(atEnd.bytes()).isEmpty();
            assertThat(atEnd.end()).isTrue();
            assertThat(atEnd.gap()).isFalse();
            assertRefused(() -> terminal.readText(0, 0), ErrorCode.INVALID_ARGUMENT, "maxBytes");
            assertRefused(() -> terminal.readText(0, 65537), ErrorCode.INVALID_ARGUMENT, "maxBytes");
            assertRefused(() -> terminal.readText(-1, 10), ErrorCode.INVALID_ARGUMENT, "negative");
        }
    }

    @Test
    void multibyteOutputReadInSevenBytePagesReassemblesExactly() throws Exception {
        try (Terminals terminals = engine(dir)) {
            Terminal terminal = ready(terminals, dir);
            CommandRun run = terminal.run(lease(terminal), "printf 'ąęśżźćńół€😀%.0s' {1..2000}; echo");
            assertThat(outcome(run)).isEqualTo(new RunOutcome.Exited(0));

            long from = run.startedCursor().orElseThrow();
            ByteArrayOutputStream joined = new ByteArrayOutputStream();
            long cursor = from;
            while (true) {
                OutputPage page = terminal.readCommand(run, cursor, 7);
                assertThat(page.bytes().length).isLessThanOrEqualTo(7);
                assertThat(page.cursor()).isEqualTo(cursor);
                assertThat(page.gap()).isFalse();
                StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(page.bytes()));
                joined.writeBytes(page.bytes());
                cursor = page.nextCursor();
                if (page.end()) {
                    break;
                }
                assertThat(page.bytes()).isNotEmpty();
            }
            OutputPage whole = terminal.readCommand(run, from, 65536);
            assertThat(joined.toByteArray()).isEqualTo(whole.bytes());
            String expected = "ąęśżźćńół€😀".repeat(2000) + "\r\n";
            assertThat(joined.toString(StandardCharsets.UTF_8)).isEqualTo(expected);
            assertThat(cursor).isEqualTo(run.endCursor().getAsLong());
        }
    }

    @Test
    void commandReadsStayWithinTheRunAndCheckTheirArguments() throws Exception {
        try (Terminals terminals = engine(dir)) {
            Terminal terminal = ready(terminals, dir);
            Terminal other = ready(terminals, dir);
            CommandRun run = terminal.run(lease(terminal), "echo first");
            outcome(run);
            CommandRun foreign = other.run(lease(other), "echo elsewhere");
            outcome(foreign);

            long end = run.endCursor().getAsLong();
            assertThat(terminal.readCommand(run, end, 10).end()).isTrue();
            assertRefused(() -> terminal.readCommand(run, end + 1, 10), ErrorCode.CURSOR_EXPIRED, "past the end");
            assertRefused(
                    () -> terminal.readCommand(run, run.startCursor() - 1, 10), ErrorCode.INVALID_ARGUMENT, "before");
            assertRefused(() -> terminal.readCommand(foreign, -1, 10), ErrorCode.TARGET_NOT_FOUND, terminal.id());
            assertThat(terminal.readCommand(run, -1, 65536).text()).doesNotContain("elsewhere");
        }
    }

    @Test
    void rawKeepsEscapesThatTextDropsAndTheScreenShowsTheOutput() throws Exception {
        try (Terminals terminals = engine(dir)) {
            Terminal terminal = ready(terminals, dir);
            CommandRun run = terminal.run(lease(terminal), "printf '\\033[1;31mred\\033[0m plain\\n'");
            outcome(run);
            awaitPrompt(terminal, PromptState.READY); // the next prompt is printed: the rings stay still

            byte[] rawBytes = terminal.readRaw(0, 65536).bytes();
            String raw = new String(rawBytes, StandardCharsets.UTF_8);
            String text = terminal.readText(0, 65536).text();
            assertThat(raw).contains("\u001b]133;C\u0007", "\u001b[1;31mred\u001b[0m plain");
            assertThat(text).contains("red plain").doesNotContain("\u001b");
            assertThat(terminal.streamSequence()).isEqualTo(rawBytes.length);
            assertThat(terminal.screen().lines()).anyMatch(line -> line.equals("red plain"));
        }
    }

    @Test
    void awaitTextReturnsAsSoonAsOutputArrives() throws Exception {
        try (Terminals terminals = engine(dir)) {
            Terminal terminal = ready(terminals, dir);
            long end = terminal.textEnd();

            assertThat(terminal.awaitText(end, Duration.ofMillis(50))).isFalse();
            terminal.run(lease(terminal), "sleep 0.2; echo late");
            assertThat(terminal.awaitText(end, Duration.ofSeconds(20))).isTrue();
        }
    }
}
