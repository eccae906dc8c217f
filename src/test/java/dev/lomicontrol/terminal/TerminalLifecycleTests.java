package dev.lomicontrol.terminal;

import static dev.lomicontrol.terminal.TerminalRunTests.assertRefused;
import static dev.lomicontrol.terminal.TerminalTesting.awaitPrompt;
import static dev.lomicontrol.terminal.TerminalTesting.engine;
import static dev.lomicontrol.terminal.TerminalTesting.lease;
import static dev.lomicontrol.terminal.TerminalTesting.outcome;
import static dev.lomicontrol.terminal.TerminalTesting.outputAfterStart;
import static dev.lomicontrol.terminal.TerminalTesting.ready;
import static dev.lomicontrol.terminal.TerminalTesting.runToCompletion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.testing.Eventually;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Starting, capping, killing and closing terminals; the injected integration; idle cost. */
class TerminalLifecycleTests {

    @TempDir
    Path dir;

    @Test
    void theCapRefusesAnotherTerminalUntilAnExitedOneMakesRoom() {
        TerminalOptions two = new TerminalOptions(dir.resolve("integration"), 4096, 2);
        try (Terminals terminals = engine(dir, two, Map.of())) {
            Terminal first = terminals.start("bash", dir, 80, 24);
            Terminal second = terminals.start("bash", dir, 80, 24);

            assertRefused(() -> terminals.start("bash", dir, 80, 24), ErrorCode.RESOURCE_EXHAUSTED, "at most 2");

            first.kill();
            Terminal third = terminals.start("bash", dir, 80, 24);
            assertThat(terminals.all()).containsExactly(second, third);
            assertThat(terminals.find(first.id())).isEmpty();
            assertThat(terminals.find(third.id())).containsSame(third);
            assertThat(terminals.remove(second.id())).isTrue();
            assertThat(second.isAlive()).isFalse();
            assertThat(terminals.all()).containsExactly(third);
        }
    }

    @Test
    void killEndsTheShellAndItsForegroundCommandWithoutLeavingProcesses() throws Exception {
        try (Terminals terminals = engine(dir)) {
            Terminal terminal = ready(terminals, dir);
            AtomicInteger exits = new AtomicInteger();
            terminal.addExitListener(exits::incrementAndGet);
            CommandRun run = terminal.run(lease(terminal), "sleep 1000");
            await().atMost(TerminalTesting.PATIENCE).until(run::startedObserved);
            ProcessHandle shell = ProcessHandle.of(terminal.shellPid()).orElseThrow();
            List<ProcessHandle> children = shell.children().toList();
            assertThat(children).isNotEmpty();

            terminal.kill();

            assertThat(terminal.isAlive()).isFalse();
            assertThat(terminal.exitCode()).hasValue(129);
            assertThat(outcome(run)).isEqualTo(new RunOutcome.Lost("the shell exited with code 129"));
            assertThat(exits).hasValue(1);
            await().atMost(TerminalTesting.PATIENCE)
                    .until(() -> !shell.isAlive() && children.stream().noneMatch(ProcessHandle::isAlive));
            assertThat(Files.exists(Path.of("/proc", Long.toString(terminal.shellPid()))))
                    .isFalse();
            terminal.kill();
            assertThat(exits).hasValue(1);
        }
    }

    @Test
    void closeEndsEveryShellAndRefusesNewOnes() {
        Terminals terminals = engine(dir);
        Terminal busy = ready(terminals, dir);
        busy.run(lease(busy), "sleep 1000");
        Terminal idle = terminals.start("bash", dir, 80, 24);

        terminals.close();

        assertThat(busy.isAlive()).isFalse();
        assertThat(idle.isAlive()).isFalse();
        assertRefused(() -> terminals.start("bash", dir, 80, 24), ErrorCode.APP_CLOSING, "closing");
    }

    @Test
    void anIdleTerminalCostsNoMeasurableCpu() throws Exception {
        try (Terminals terminals = engine(dir)) {
            Terminal terminal = ready(terminals, dir);
            long quiet = terminal.streamSequence();
            Eventually.holdsFor(
                    "the first prompt has settled: no output for 300 ms",
                    Duration.ofMillis(300),
                    () -> terminal.streamSequence() == quiet);
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long readerId = terminal.readerThread().getId();
            long readerBefore = threads.getThreadCpuTime(readerId);
            long shellBefore = shellCpuTicks(terminal.shellPid());
            long wallBefore = System.nanoTime();

            // the measured idle window: the terminal must stay silent through it (docs/adr/0011)
            Eventually.holdsFor(
                    "the idle terminal stays silent", Duration.ofSeconds(2), () -> terminal.streamSequence() == quiet);

            long readerMillis = (threads.getThreadCpuTime(readerId) - readerBefore) / 1_000_000;
            long shellTicks = shellCpuTicks(terminal.shellPid()) - shellBefore;
            assertThat(System.nanoTime() - wallBefore)
                    .isGreaterThanOrEqualTo(Duration.ofSeconds(2).toNanos());
            assertThat(readerBefore).isNotNegative();
            assertThat(readerMillis).as("reader thread CPU ms over 2 s idle").isLessThan(20);
            assertThat(shellTicks).as("bash CPU ticks (10 ms) over 2 s idle").isLessThan(2);
            assertThat(terminal.streamSequence()).isEqualTo(quiet);
        }
    }

    /** utime + stime of a process, in clock ticks, from /proc/<pid>/stat. */
    static long shellCpuTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    @Test
    void startValidatesItsArguments() {
        try (Terminals terminals = engine(dir)) {
            assertRefused(
                    () -> terminals.start("fish", dir, 80, 24), ErrorCode.INVALID_ARGUMENT, "unknown terminal profile");
            assertRefused(
                    () -> terminals.start(null, dir, 80, 24), ErrorCode.INVALID_ARGUMENT, "unknown terminal profile");
            assertRefused(
                    () -> terminals.start("bash", dir.resolve("missing"), 80, 24),
                    ErrorCode.INVALID_ARGUMENT,
                    "not a directory");
            assertRefused(() -> terminals.start("bash", dir, 0, 24), ErrorCode.INVALID_ARGUMENT, "1..1024");
            assertRefused(() -> terminals.start("bash", dir, 80, 1025), ErrorCode.INVALID_ARGUMENT, "1..1024");
            if (!Terminals.installedProfiles().contains("zsh")) {
                assertRefused(
                        () -> terminals.start("zsh", dir, 80, 24), ErrorCode.UNSUPPORTED_CAPABILITY, "not installed");
            }
            assertThat(Terminals.installedProfiles()).contains("bash");
            assertThat(terminals.all()).isEmpty();
        }
    }

    @Test
    void theIntegrationFilesArePrivate() throws Exception {
        Path integration = dir.resolve("integration");
        try (Terminals terminals = engine(dir)) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(integration)))
                    .isEqualTo("rwx------");
            for (Path file : List.of(
                    integration.resolve("lomi.bashrc"),
                    integration.resolve("zsh/.zshrc"),
                    integration.resolve("zsh/.zshenv"))) {
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                        .as(file.toString())
                        .isEqualTo("rw-------");
            }
        }
    }

    @Test
    void theUsersStartupFilesRunAndTheirPromptCommandKeepsTheExitStatus() throws Exception {
        Path home = Files.createDirectories(dir.resolve("home"));
        Files.writeString(home.resolve(".bashrc"), """
                PS1='custom> '
                PROMPT_COMMAND='user_status=$?'
                user_rc_loaded=yes
                """);
        Map<String, String> environment = Map.of("HOME", home.toString(), "LOMI_SECRET", "leaked");
        try (Terminals terminals = engine(dir, TerminalOptions.defaults(dir.resolve("integration")), environment)) {
            Terminal terminal = ready(terminals, dir);

            assertThat(runToCompletion(terminal, "(exit 5)")).isEqualTo(new RunOutcome.Exited(5));
            CommandRun probe = terminal.run(
                    lease(terminal),
                    "echo \"status=$user_status rc=$user_rc_loaded id=$LOMI_TERMINAL_SESSION_ID secret=${LOMI_SECRET-unset}\"");
            assertThat(outcome(probe)).isEqualTo(new RunOutcome.Exited(0));

            assertThat(outputAfterStart(terminal, probe))
                    .isEqualTo("status=5 rc=yes id=" + terminal.id() + " secret=unset\n");
            assertThat(terminal.readText(0, 65536).text()).contains("custom> ");
        }
    }

    @Test
    void resizingChangesTheSizeTheShellSees() throws Exception {
        try (Terminals terminals = engine(dir)) {
            Terminal terminal = ready(terminals, dir);

            long before = terminal.streamSequence();

            terminal.resize(100, 30);

            // readline redraws the prompt (A, B) without a D: that is not a fresh prompt.
            await().atMost(TerminalTesting.PATIENCE)
                    .until(() -> terminal.readRaw(before, 65536).text().contains("\u001b]133;B\u0007"));
            assertThat(terminal.prompt()).isEqualTo(PromptState.UNKNOWN);
            terminal.input(lease(terminal), 1, "\r".getBytes());
            awaitPrompt(terminal, PromptState.READY);
            CommandRun run = terminal.run(lease(terminal), "stty size");

            assertThat(outcome(run)).isEqualTo(new RunOutcome.Exited(0));
            assertThat(outputAfterStart(terminal, run)).isEqualTo("30 100\n");
            assertThat(terminal.screen().columns()).isEqualTo(100);
            assertThat(terminal.cwd()).isEqualTo(dir.toRealPath());
        }
    }

    @Test
    void theShellsCurrentDirectoryFollowsCd() throws Exception {
        Path sub = Files.createDirectories(dir.resolve("sub"));
        try (Terminals terminals = engine(dir)) {
            Terminal terminal = ready(terminals, dir);

            runToCompletion(terminal, "cd sub");

            assertThat(terminal.cwd()).isEqualTo(sub.toRealPath());
        }
    }

    @Test
    void zshRunsWithTheSameIntegrationAfterTheUsersStartupFiles() throws Exception {
        assertThat(Terminals.installedProfiles())
                .as("zsh is needed for this test: apt-get install zsh (.ci/run installs it)")
                .contains("zsh");
        Path home = Files.createDirectories(dir.resolve("home"));
        Files.writeString(home.resolve(".zshenv"), "user_env_loaded=yes\n");
        Files.writeString(home.resolve(".zshrc"), """
                PS1='z> '
                precmd() { user_status=$? }
                user_rc_loaded=yes
                """);
        try (Terminals terminals =
                engine(dir, TerminalOptions.defaults(dir.resolve("integration")), Map.of("HOME", home.toString()))) {
            Terminal terminal = terminals.start("zsh", dir, 80, 24);
            terminal.grantLease("test");
            awaitPrompt(terminal, PromptState.READY);

            assertThat(runToCompletion(terminal, "echo hi")).isEqualTo(new RunOutcome.Exited(0));
            assertThat(runToCompletion(terminal, "(exit 6)")).isEqualTo(new RunOutcome.Exited(6));
            CommandRun probe = terminal.run(
                    lease(terminal),
                    "echo \"status=$user_status env=$user_env_loaded rc=$user_rc_loaded zdotdir=$ZDOTDIR\"");
            assertThat(outcome(probe)).isEqualTo(new RunOutcome.Exited(0));
            // zsh prints its partial-line marker (PROMPT_SP) before the precmd hooks, so it ends up in the run.
            assertThat(outputAfterStart(terminal, probe)).startsWith("status=6 env=yes rc=yes zdotdir=" + home + "\n");
            awaitPrompt(terminal, PromptState.READY);
            CommandRun sleep = terminal.run(lease(terminal), "sleep 100");
            await().atMost(TerminalTesting.PATIENCE).until(sleep::startedObserved);
            terminal.interrupt(sleep, lease(terminal));
            assertThat(outcome(sleep)).isEqualTo(new RunOutcome.Exited(130));
            assertThat(terminal.profile()).isEqualTo("zsh");
        }
    }
}
