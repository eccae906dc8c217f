package dev.lomicontrol.terminal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/** Shared helpers for the real-PTY tests: each test owns a {@link Terminals} and closes it. */
final class TerminalTesting {

    static final Duration PATIENCE = Duration.ofSeconds(20);

    private TerminalTesting() {}

    static Terminals engine(Path dir) {
        return engine(dir, TerminalOptions.defaults(dir.resolve("integration")), Map.of());
    }

    static Terminals engine(Path dir, TerminalOptions options, Map<String, String> environment) {
        return new Terminals(options, new Random(42), environment);
    }

    /** A bash terminal with a lease, waited until its prompt is ready. */
    static Terminal ready(Terminals terminals, Path cwd) {
        Terminal terminal = terminals.start("bash", cwd, 120, 40);
        terminal.grantLease("test");
        awaitPrompt(terminal, PromptState.READY);
        return terminal;
    }

    static void awaitPrompt(Terminal terminal, PromptState state) {
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(5)).until(() -> terminal.prompt() == state);
    }

    static String lease(Terminal terminal) {
        return terminal.lease().orElseThrow().id();
    }

    static RunOutcome outcome(CommandRun run) throws Exception {
        return run.outcome().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
    }

    /** Runs {@code command} at a ready prompt and waits for the next ready prompt. */
    static RunOutcome runToCompletion(Terminal terminal, String command) throws Exception {
        CommandRun run = terminal.run(lease(terminal), command);
        RunOutcome outcome = outcome(run);
        awaitPrompt(terminal, PromptState.READY);
        return outcome;
    }

    /** The whole text of a completed run, read in 64 KiB pages. */
    static String commandText(Terminal terminal, CommandRun run) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long cursor = -1;
        while (true) {
            OutputPage page = terminal.readCommand(run, cursor, Terminal.MAX_PAGE_BYTES);
            out.writeBytes(page.bytes());
            cursor = page.nextCursor();
            if (page.end()) {
                return out.toString(StandardCharsets.UTF_8);
            }
            assertThat(page.bytes()).isNotEmpty();
        }
    }

    /** The output lines of a completed run after its start mark (CR LF split, CRs dropped). */
    static String outputAfterStart(Terminal terminal, CommandRun run) {
        long from = run.startedCursor().orElseThrow();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long cursor = from;
        while (true) {
            OutputPage page = terminal.readCommand(run, cursor, Terminal.MAX_PAGE_BYTES);
            out.writeBytes(page.bytes());
            cursor = page.nextCursor();
            if (page.end()) {
                return out.toString(StandardCharsets.UTF_8).replace("\r", "");
            }
        }
    }
}
