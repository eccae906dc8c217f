package dev.lomicontrol.terminal.tools;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.operations.Waits;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.terminal.OutputPage;
import dev.lomicontrol.terminal.Terminal;
import dev.lomicontrol.terminal.api.TerminalResults;
import dev.lomicontrol.terminal.api.TerminalSpecs;
import dev.lomicontrol.terminal.screen.ScreenSnapshot;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Hex32;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * lomi_terminal_read: pages of output (text, one run's output, raw bytes) and the rendered screen.
 * Never writes.
 */
final class ReadCalls {

    private final TerminalChecks checks;
    private final RunCalls runs;
    private final Waits waits;

    ReadCalls(TerminalChecks checks, RunCalls runs, Waits waits) {
        this.checks = checks;
        this.runs = runs;
        this.waits = waits;
    }

    /**
     * Reads the terminal. With a wait (modes output and command), a read that finds nothing past
     * its cursor waits for the terminal's next output (or its exit, or in mode command the run's end),
     * woken by the terminal's reader, not by polling.
     */
    TerminalResults.ReadResult read(Session session, TerminalSpecs.Read in, Duration wait) {
        Terminal terminal = checks.bind(session, in.workspaceId(), in.panelId(), in.terminalSessionId())
                .terminal();
        if (in.mode() == TerminalSpecs.Mode.SCREEN) {
            return screen(terminal, in.minimumParsedSequence(), in.maxBytes());
        }
        Optional<Running> command = in.mode() == TerminalSpecs.Mode.COMMAND
                ? Optional.of(runs.ofSession(session, terminal, in.operationId().orElseThrow()))
                : Optional.empty();
        if (in.mode() == TerminalSpecs.Mode.RAW) {
            return output(session, in, terminal, command);
        }
        return waits.polling(
                session,
                wait,
                waiter -> waiter.also(terminal.onChange(waiter::wake)),
                () -> output(session, in, terminal, command),
                page -> !page.text().orElse("").isEmpty()
                        || page.exited()
                        || command.map(r -> r.run.completed()).orElse(false));
    }

    /** One page of modes output, command or raw, as it stands now. */
    private static TerminalResults.Output output(
            Session session, TerminalSpecs.Read in, Terminal terminal, Optional<Running> running) {
        OptionalLong cursor = in.cursor().map(c -> OptionalLong.of(c.asLong())).orElse(OptionalLong.empty());
        long from = cursor.orElse(0);
        Optional<TerminalResults.Command> command = Optional.empty();
        OutputPage page;
        TerminalResults.OutputMode mode;
        if (running.isPresent()) {
            command = Optional.of(command(running.get(), in));
            // the engine reads a command from its start when no cursor is given (-1)
            page = terminal.readCommand(running.get().run, cursor.orElse(-1), in.maxBytes());
            mode = TerminalResults.OutputMode.COMMAND;
        } else if (in.mode() == TerminalSpecs.Mode.RAW) {
            page = terminal.readRaw(Math.max(from, 0), in.maxBytes());
            mode = TerminalResults.OutputMode.RAW;
        } else {
            page = terminal.readText(Math.max(from, 0), in.maxBytes());
            mode = TerminalResults.OutputMode.OUTPUT;
        }
        boolean raw = mode == TerminalResults.OutputMode.RAW;
        Decimal stream = Decimal.of(terminal.streamSequence());
        return new TerminalResults.Output(
                mode,
                in.terminalSessionId(),
                raw ? Optional.empty() : Optional.of(page.text()),
                raw ? Optional.of(Base64.getEncoder().encodeToString(page.bytes())) : Optional.empty(),
                Decimal.of(page.cursor()),
                Decimal.of(page.nextCursor()),
                Decimal.of(page.availableFrom()),
                page.gap() && (cursor.orElse(-1) >= 0 || mode == TerminalResults.OutputMode.COMMAND),
                page.end(),
                TerminalResults.Prompt.valueOf(terminal.prompt().name()),
                !terminal.isAlive(),
                WireValues.boxed(terminal.exitCode()),
                TerminalChecks.leaseHeldBy(session, terminal),
                Decimal.of(terminal.nextInputSequence()),
                stream,
                stream,
                command);
    }

    private static TerminalResults.Command command(Running running, TerminalSpecs.Read in) {
        return new TerminalResults.Command(
                running.run.id(),
                in.operationId().orElseThrow(),
                running.run.startedObserved(),
                running.run.completed(),
                WireValues.boxed(running.run.exitCode()),
                Decimal.of(running.run.startCursor()),
                WireValues.decimal(running.run.endCursor()));
    }

    /**
     * The screen as it is now. The reader feeds the screen before it counts output, so the screen
     * reflects at least the stream position read before the snapshot ({@code parsedSequence}); a
     * {@code minimumParsedSequence} up to the stream is thereby always met at once, one past the
     * output produced so far is REVISION_CONFLICT (as in the reference).
     */
    private static TerminalResults.Screen screen(Terminal terminal, Optional<Decimal> minimum, int maxBytes) {
        long parsed = terminal.streamSequence();
        if (minimum.isPresent() && minimum.get().asLong() > parsed) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    "minimumParsedSequence " + minimum.get() + " is past the output this terminal has "
                            + "produced (streamSequence " + parsed + "); use a streamSequence of an earlier read");
        }
        ScreenSnapshot snapshot = terminal.screen();
        long stream = terminal.streamSequence();
        List<String> lines = topLines(snapshot.lines(), maxBytes);
        return new TerminalResults.Screen(
                new Hex32(terminal.id()),
                snapshot.columns(),
                snapshot.rows(),
                new TerminalResults.ScreenCursor(
                        snapshot.cursorRow(), snapshot.cursorColumn(), snapshot.cursorVisible()),
                snapshot.alternate() ? TerminalResults.Buffer.ALTERNATE : TerminalResults.Buffer.NORMAL,
                lines,
                String.join("\n", lines),
                lines.size() < snapshot.lines().size(),
                snapshot.title() == null ? "" : snapshot.title(),
                Decimal.of(stream),
                Decimal.of(parsed),
                parsed < stream,
                !terminal.isAlive());
    }

    /** The top rows whose text, joined by newlines, fits in {@code maxBytes} bytes of UTF-8. */
    private static List<String> topLines(List<String> lines, int maxBytes) {
        long used = 0;
        int fitting = 0;
        for (String line : lines) {
            used += line.getBytes(StandardCharsets.UTF_8).length + (fitting == 0 ? 0 : 1);
            if (used > maxBytes) {
                break;
            }
            fitting++;
        }
        return lines.subList(0, fitting);
    }
}
