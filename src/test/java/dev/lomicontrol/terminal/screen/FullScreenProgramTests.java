package dev.lomicontrol.terminal.screen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.Machine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real full-screen programs (less, vim) on a real 80×24 PTY: the screen model shows what they draw,
 * follows them into and out of the alternate buffer, and answers their terminal queries.
 */
class FullScreenProgramTests {

    private static final Path LESS = Path.of("/usr/bin/less");
    private static final Path VI = Path.of("/usr/bin/vi");

    @TempDir
    Path directory;

    @Test
    void lessPagesThroughAFileInTheAlternateBufferAndLeavesItOnQuit() throws Exception {
        Machine.requireProgram(LESS.toString(), "less");
        Path file = numberedLines(60);

        try (PtyProgram less = PtyProgram.start(directory, 80, 24, LESS.toString(), file.toString())) {
            less.await(
                    "the first page and the prompt",
                    s -> s.alternate()
                            && line(s, 0).equals("line 01")
                            && line(s, 22).equals("line 23")
                            && isPrompt(line(s, 23)));

            less.type(" ");
            less.await(
                    "the second page",
                    s -> line(s, 0).equals("line 24") && line(s, 22).equals("line 46"));

            less.type("k");
            less.await(
                    "one line back",
                    s -> line(s, 0).equals("line 23")
                            && line(s, 1).equals("line 24")
                            && line(s, 22).equals("line 45"));

            less.type("G");
            less.await(
                    "the end", s -> line(s, 22).equals("line 60") && line(s, 23).contains("(END)"));

            less.type("q");
            less.await(
                    "the normal buffer again",
                    s -> !s.alternate() && s.lines().stream().noneMatch(l -> l.startsWith("line")));
            assertThat(less.awaitExit()).isZero();
        }
    }

    @Test
    void vimEditsAFileInTheAlternateBufferFollowsAResizeAndLeavesItOnQuit() throws Exception {
        requireVim();
        Path file = numberedLines(60);

        try (PtyProgram vi =
                PtyProgram.start(directory, 80, 24, VI.toString(), "-u", "NONE", "-N", "-i", "NONE", file.toString())) {
            vi.await(
                    "the file and the cursor home",
                    s -> s.alternate()
                            && line(s, 0).equals("line 01")
                            && line(s, 22).equals("line 23")
                            && s.cursorRow() == 0
                            && s.cursorColumn() == 0);
            // vim's start-up message ("lines.txt" 60L, ...) is wiped by the redraw after a resize that pty4j
            // may make at start (seen under load): ask for the file's status explicitly (CTRL-G) instead
            vi.type("\007");
            vi.await("the file's status on the message line", s -> line(s, 23).contains("lines.txt"));
            assertThat(vi.screen.bracketedPaste()).isTrue();

            vi.type("dd");
            vi.await(
                    "the first line deleted",
                    s -> line(s, 0).equals("line 02") && line(s, 22).equals("line 24"));

            vi.type("Gix\033");
            vi.await(
                    "an x inserted on the last line, the cursor on it",
                    s -> s.lines().contains("xline 60")
                            && s.cursorRow() == s.lines().indexOf("xline 60")
                            && s.cursorColumn() == 0);

            vi.type("gg");
            vi.await("the top again", s -> line(s, 0).equals("line 02"));
            vi.resize(100, 30);
            vi.await(
                    "a redraw at the new size",
                    s -> s.rows() == 30 && line(s, 28).equals("line 30"));

            vi.type(":q!\r");
            vi.await("the normal buffer again", s -> !s.alternate());
            assertThat(vi.screen.bracketedPaste()).isFalse();
            assertThat(vi.awaitExit()).isZero();
        }
        assertThat(Files.readAllLines(file)).hasSize(60).startsWith("line 01");
    }

    /** /usr/bin/vi must be Vim (nvi or busybox vi draw differently and have no bracketed paste). */
    private static void requireVim() {
        Machine.requireProgram(VI.toString(), "vim");
        String version = Machine.firstLine(VI, "--version");
        if (!version.startsWith("VIM")) {
            throw new AssertionError(
                    VI + " is not Vim (" + version + "): apt-get install -y vim (.ci/run installs it when missing)");
        }
    }

    private Path numberedLines(int count) throws IOException {
        List<String> lines = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            lines.add(String.format("line %02d", i));
        }
        return Files.write(directory.resolve("lines.txt"), lines);
    }

    /** less prompts with the file name first, and with ':' after a redraw (pty4j may resize once at start). */
    private static boolean isPrompt(String line) {
        return line.equals(":") || line.endsWith("lines.txt");
    }

    private static String line(ScreenSnapshot snapshot, int row) {
        return row < snapshot.lines().size() ? snapshot.lines().get(row) : "";
    }
}
