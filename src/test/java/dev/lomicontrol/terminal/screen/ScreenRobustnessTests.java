package dev.lomicontrol.terminal.screen;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Malformed, hostile and unknown input: consumed without exceptions, corruption or unbounded growth. */
class ScreenRobustnessTests {

    @Test
    void hugeParametersAreClampedToTheScreen() {
        ScreenDriver t = new ScreenDriver(10, 4);

        t.write("\033[99999999999999999999;99999999999999999999H");
        assertThat(t.cursor()).isEqualTo("3,9");

        t.write("\033[99999999999A\033[99999999999D");
        assertThat(t.cursor()).isEqualTo("0,0");

        t.write(
                "x\033[99999999999b\033[99999999999@\033[99999999999L\033[99999999999S\033[99999999999I\033[99999999999Z");
        assertThat(t.lines()).allMatch(String::isEmpty);
    }

    @Test
    void repeatIsLimitedToOneScreenful() {
        ScreenDriver t = new ScreenDriver(10, 4);

        t.write("x\033[65535b");

        assertThat(t.lines())
                .as("41 characters, not 65536")
                .containsExactly("xxxxxxxxxx", "xxxxxxxxxx", "xxxxxxxxxx", "x");
    }

    @Test
    void aMillionParametersAreConsumedAndTheSequenceStillActs() {
        ScreenDriver t = new ScreenDriver(10, 4);

        t.write("\033[2;3" + ";7".repeat(1_000_000) + "H");
        assertThat(t.cursor()).isEqualTo("1,2");

        t.write("\033[" + "9".repeat(1_000_000) + "mok");
        assertThat(t.line(1)).isEqualTo("  ok");
    }

    @Test
    void anEndlessOscStringKeepsOnlyABoundedTitle() {
        ScreenDriver t = new ScreenDriver(10, 4);

        t.write("\033]2;" + "t".repeat(2_000_000) + "\007after");

        assertThat(t.screen.snapshot().title()).hasSize(Sequences.MAX_TITLE);
        assertThat(t.line(0)).isEqualTo("after");
    }

    @Test
    void dcsApcPmAndSosStringsAreSkipped() {
        ScreenDriver t = new ScreenDriver(20, 2);

        t.write(
                "A\033P1$r0m\033\\B\033Pq#0;2;0;0;0#1~~-\u0007still sixel\033\\C\033_Gf=100;AAAA\033\\D\033^pm\033\\E\033Xsos\u009cF");

        assertThat(t.lines()).containsExactly("ABCDEF", "");
    }

    @Test
    void aLongDcsStringCostsNothingToSkip() {
        ScreenDriver t = new ScreenDriver(10, 2);

        t.write("\033P" + "x".repeat(3_000_000) + "\033\\ok");

        assertThat(t.line(0)).isEqualTo("ok");
    }

    @Test
    void unknownSequencesAreConsumedWhole() {
        ScreenDriver t = new ScreenDriver(20, 2);

        t.write(
                "\033[?999z\033[1;2;3$}\033[>4;2m\033[=1;2c\033[<0;1;1M\033[2 q\033[?12$p\033[22;0;0t\033%G\033 F\033(0\033)B"
                        + "\033*A\033#3\033[1;5;9;14;38:2::1:2:3mok\033[?u\033[>1u\033[<u\033[3$|");

        assertThat(t.lines()).containsExactly("ok", "");
        assertThat(t.cursor()).isEqualTo("0,2");
    }

    @Test
    void cancelAndSubstituteAbortASequence() {
        ScreenDriver t = new ScreenDriver(10, 2);

        t.write("\033[2\u0018J\033]2;x\u001aY\033P1\u0018Z");

        assertThat(t.line(0)).isEqualTo("JYZ");
        assertThat(t.screen.snapshot().title()).isEmpty();
    }

    @Test
    void controlCharactersInsideASequenceStillAct() {
        ScreenDriver t = new ScreenDriver(10, 2);

        t.write("ab\033[\r2Cc\033[1\n;2Hd");

        assertThat(t.lines()).containsExactly("adc", "");
    }

    @Test
    void anEscapeInsideASequenceStartsANewOne() {
        ScreenDriver t = new ScreenDriver(10, 2);

        t.write("\033[31\033[2Cx\033]2;abc\033[3Cy");

        assertThat(t.line(0)).isEqualTo("  x   y");
        assertThat(t.screen.snapshot().title())
                .as("an OSC cut by another escape is dropped")
                .isEmpty();
    }

    @Test
    void escapeFollowedByANonAsciiCharacterPrintsTheCharacter() {
        ScreenDriver t = new ScreenDriver(10, 2);

        t.write("\033é\033(€");

        assertThat(t.line(0)).isEqualTo("é€");
    }

    @Test
    void randomBytesNeverBreakTheScreen() {
        for (long seed = 1; seed <= 6; seed++) {
            Random random = new Random(seed);
            int columns = 1 + random.nextInt(120);
            int rows = 1 + random.nextInt(50);
            Screen screen = new Screen(columns, rows);
            for (int chunk = 0; chunk < 200; chunk++) {
                byte[] bytes = noise(random, 1 + random.nextInt(4096));
                screen.feed(bytes, 0, bytes.length);
                if (random.nextInt(40) == 0) {
                    columns = 1 + random.nextInt(120);
                    rows = 1 + random.nextInt(50);
                    screen.resize(columns, rows);
                }
                assertSane(screen.snapshot(), columns, rows, seed);
            }
            screen.resize(80, 24);
            byte[] reset = "\030\033\\\033calive".getBytes(UTF_8);
            screen.feed(reset, 0, reset.length);
            assertThat(screen.snapshot().lines().get(0)).as("seed %d", seed).endsWith("alive");
        }
    }

    /** Random bytes rich in the characters that steer the parser, plus UTF-8 and wide characters. */
    private static byte[] noise(Random random, int length) {
        String[] pieces = {
            "\033", "[", "]", "P", "?", ";", ":", "1", "9", "\007", "\033\\", "\r", "\n", "\t", "\b", "中", "é",
            "\u0301", "😀", "\u009c", "\u009b", "H", "J", "K", "L", "M", "@", "P", "X", "r", "h", "l", "b", "S", "T",
            "1049", "7", "47", "6", "25", "\030", "x", "y ", "\u200d"
        };
        StringBuilder text = new StringBuilder();
        while (text.length() < length) {
            if (random.nextInt(8) == 0) {
                text.append((char) random.nextInt(256));
            } else {
                text.append(pieces[random.nextInt(pieces.length)]);
            }
        }
        byte[] bytes = text.toString().getBytes(UTF_8);
        for (int i = 0; i < bytes.length / 50; i++) {
            bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
        }
        return bytes;
    }

    private static void assertSane(ScreenSnapshot snapshot, int columns, int rows, long seed) {
        assertThat(snapshot.columns()).isEqualTo(columns);
        assertThat(snapshot.rows()).isEqualTo(rows);
        List<String> lines = snapshot.lines();
        assertThat(lines).as("seed %d", seed).hasSize(rows);
        assertThat(snapshot.cursorRow()).as("seed %d", seed).isBetween(0, rows - 1);
        assertThat(snapshot.cursorColumn()).as("seed %d", seed).isBetween(0, columns - 1);
        for (String line : lines) {
            assertThat(displayWidth(line)).as("seed %d line %s", seed, line).isLessThanOrEqualTo(columns);
        }
    }

    private static int displayWidth(String line) {
        return line.codePoints().map(cp -> Math.max(0, CharWidth.of(cp))).sum();
    }
}
