package dev.lomicontrol.terminal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;

/** Shared helpers for the real-PTY tests: each test owns a {@link Terminals} and closes it. */
final class TerminalTesting {

    static final Duration PATIENCE = Duration.ofSeconds(20);

    private TerminalTesting() {}

    static Terminals engine(Path dir) {
        return engine(dir, TerminalOptions.defaults(dir.resolve("integration")), Map.of());
    }

    /**
     * An engine whose shells get an empty HOME under {@code dir} unless {@code environment} sets one:
     * the machine's own startup files (pyenv and the like) make startup slow and, when a test ends a
     * shell mid-startup, can leave their locks behind.
     */
    static Terminals engine(Path dir, TerminalOptions options, Map<String, String> environment) {
        Map<String, String> isolated = new HashMap<>(environment);
        if (!isolated.containsKey("HOME")) {
            try {
                isolated.put(
                        "HOME",
                        Files.createDirectories(dir.resolve("empty-home")).toString());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        // the engine's own tests run shells unsandboxed; the sandbox has its own tests (TerminalSandboxTests,
        // terminal.tools.TerminalToolsTests)
        return new Terminals(
                options,
                new Random(42),
                new TerminalSandbox(SandboxPolicy.off(Path.of(isolated.get("HOME"))), java.util.List.of()),
                isolated);
    }

    /** A bash terminal with a lease, waited until its prompt is ready. */
    static Terminal ready(Terminals terminals, Path cwd) {
        Terminal terminal = terminals.start("bash", cwd, 120, 40);
        terminal.grantLease("test");
        awaitPrompt(terminal, PromptState.READY);
        return terminal;
    }

    static void awaitPrompt(Terminal terminal, PromptState state) {
        try {
            await().atMost(PATIENCE).pollInterval(Duration.ofMillis(5)).until(() -> terminal.prompt() == state);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(
                    "the prompt stayed " + terminal.prompt() + " instead of " + state + "; alive "
                            + terminal.isAlive() + ", lease " + terminal.lease() + ", raw output:\n"
                            + visible(terminal.readRaw(Math.max(0, terminal.streamSequence() - 4000), 4000)
                                    .bytes()),
                    e);
        }
    }

    static String visible(byte[] raw) {
        return new String(raw, StandardCharsets.UTF_8)
                .replace("\u001b", "<ESC>")
                .replace("\u0007", "<BEL>")
                .replace("\r", "<CR>");
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
