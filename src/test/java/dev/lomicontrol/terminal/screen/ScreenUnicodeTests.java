package dev.lomicontrol.terminal.screen;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** UTF-8 decoding across feeds, invalid bytes, wide characters and combining marks. */
class ScreenUnicodeTests {

    private static final String MIXED = "aé€😀b中\u0301z";

    @Test
    void multiByteCharactersDecodeTheSameWhereverTheInputIsSplit() {
        byte[] bytes = MIXED.getBytes(UTF_8);
        String whole = linesAfter(bytes, bytes.length, bytes.length);
        assertThat(whole).isEqualTo("aé€😀b中\u0301z");

        for (int first = 0; first <= bytes.length; first++) {
            for (int second = first; second <= bytes.length; second++) {
                assertThat(linesAfter(bytes, first, second))
                        .as("split at %d and %d", first, second)
                        .isEqualTo(whole);
            }
        }
    }

    @Test
    void oneByteAtATimeDecodesAsWell() {
        Screen screen = new Screen(20, 2);
        for (byte b : ("\033]2;" + MIXED + "\007" + MIXED).getBytes(UTF_8)) {
            screen.feed(new byte[] {b}, 0, 1);
        }

        assertThat(screen.snapshot().lines().get(0)).isEqualTo(MIXED);
        assertThat(screen.snapshot().title()).isEqualTo(MIXED);
    }

    @Test
    void invalidBytesBecomeOneReplacementCharacterPerMaximalSubpart() {
        ScreenDriver t = new ScreenDriver(30, 2);

        t.reply(bytes(
                0x41, 0xFF, 0x42, 0xC3, 0x43, 0xE2, 0x82, 0x44, 0xC0, 0xAF, 0x45, 0xED, 0xA0, 0x80, 0x46, 0xF4, 0x90,
                0x80, 0x80, 0x47, 0xF0, 0x9F, 0x98));
        t.write("H");

        assertThat(t.line(0))
                .isEqualTo("A\uFFFDB\uFFFDC\uFFFDD\uFFFD\uFFFDE\uFFFD\uFFFD\uFFFDF\uFFFD\uFFFD\uFFFD\uFFFDG\uFFFDH");
    }

    @Test
    void anIncompleteSequenceBeforeAnEscapeDoesNotSwallowIt() {
        ScreenDriver t = new ScreenDriver(10, 2);

        t.reply(bytes(0xE2, 0x82));
        t.write("\033[2;1Hx");

        assertThat(t.lines()).containsExactly("\uFFFD", "x");
    }

    @Test
    void c1ControlsInUtf8FormAreIgnored() {
        ScreenDriver t = new ScreenDriver(10, 2);

        t.write("A\u009b2JB\u0085C\u009dD");

        assertThat(t.lines()).containsExactly("A2JBCD", "");
    }

    @Test
    void wideCharactersTakeTwoCellsAndAppearOnce() {
        ScreenDriver t = new ScreenDriver(10, 2);

        t.write("中文😀ｘ!");

        assertThat(t.line(0)).isEqualTo("中文😀ｘ!");
        assertThat(t.cursor()).isEqualTo("0,9");
    }

    @Test
    void aWideCharacterThatDoesNotFitWrapsLeavingTheLastCellBlank() {
        ScreenDriver t = new ScreenDriver(5, 2);

        t.write("abcd中");

        assertThat(t.lines()).containsExactly("abcd", "中");
        assertThat(t.cursor()).isEqualTo("1,2");
    }

    @Test
    void aWideCharacterInTheLastTwoColumnsLeavesThePendingWrap() {
        ScreenDriver t = new ScreenDriver(4, 2);

        t.write("ab中");
        assertThat(t.cursor()).isEqualTo("0,3");

        t.write("x");
        assertThat(t.lines()).containsExactly("ab中", "x");
    }

    @Test
    void withoutAutowrapAWideCharacterAtTheEdgeTakesTheLastTwoColumns() {
        ScreenDriver t = new ScreenDriver(4, 2);

        t.write("\033[?7labcd中");

        assertThat(t.lines()).containsExactly("ab中", "");
    }

    @Test
    void aOneColumnScreenShowsAWideCharacterInItsOnlyCell() {
        ScreenDriver t = new ScreenDriver(1, 2);

        t.write("中x");

        assertThat(t.lines()).containsExactly("中", "x");
    }

    @Test
    void overwritingEitherHalfOfAWideCharacterBlanksTheOtherHalf() {
        ScreenDriver t = new ScreenDriver(10, 2);

        t.write("中文\033[2Gx");
        assertThat(t.line(0)).isEqualTo(" x文");

        t.write("\033[3Gy");
        assertThat(t.line(0)).isEqualTo(" xy");
    }

    @Test
    void aWideCharacterOverANarrowPairAndAcrossAnotherWideOne() {
        ScreenDriver t = new ScreenDriver(10, 2);

        t.write("abc中\033[3G文");

        assertThat(t.line(0)).isEqualTo("ab文");
    }

    @Test
    void erasingDeletingAndInsertingNeverSplitAWideCharacter() {
        ScreenDriver t = new ScreenDriver(10, 3);

        t.write("中文字\033[2G\033[K");
        assertThat(t.line(0)).as("erase from a tail").isEmpty();

        t.write("\033[2;1H中文字\033[3G\033[P");
        assertThat(t.line(1)).as("delete a head").isEqualTo("中 字");

        t.write("\033[3;1H中文字\033[2G\033[@");
        assertThat(t.line(2)).as("insert at a tail").isEqualTo("   文字");

        t.write("\033[3;1H\033[2K中文字\033[1G\033[5@");
        assertThat(t.line(2))
                .as("insert pushing a wide character half over the edge")
                .isEqualTo("     中文");
    }

    @Test
    void combiningMarksAttachToThePreviousCharacter() {
        ScreenDriver t = new ScreenDriver(10, 2);

        t.write("e\u0301x\u0323\u0307 中\u0301 ❤\uFE0F");

        assertThat(t.line(0)).isEqualTo("e\u0301x\u0323\u0307 中\u0301 ❤\uFE0F");
        assertThat(t.cursor()).isEqualTo("0,7");
    }

    @Test
    void aCombiningMarkAtTheLineStartIsDroppedAndOverwritingClearsMarks() {
        ScreenDriver t = new ScreenDriver(5, 2);

        t.write("\u0301ab\u0301\033[2Gc");

        assertThat(t.line(0)).isEqualTo("ac");
    }

    @Test
    void combiningMarksAfterAFullLineAttachToTheLastCell() {
        ScreenDriver t = new ScreenDriver(3, 2);

        t.write("abc\u0301");

        assertThat(t.lines()).containsExactly("abc\u0301", "");
    }

    @Test
    void combiningMarksOnOneCellAreCapped() {
        ScreenDriver t = new ScreenDriver(3, 2);

        t.write("a" + "\u0301".repeat(10_000));

        assertThat(t.line(0)).hasSize(1 + Row.MAX_MARKS);
    }

    @Test
    void invisibleFormatCharactersAreDropped() {
        ScreenDriver t = new ScreenDriver(10, 2);

        t.write("a\u200Eb\uFEFFc\u2060d");

        assertThat(t.line(0)).isEqualTo("abcd");
    }

    private static String linesAfter(byte[] bytes, int first, int second) {
        Screen screen = new Screen(20, 2);
        screen.feed(bytes, 0, first);
        screen.feed(bytes, first, second - first);
        screen.feed(bytes, second, bytes.length - second);
        return screen.snapshot().lines().get(0);
    }

    private static byte[] bytes(int... values) {
        byte[] result = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            result[i] = (byte) values[i];
        }
        return result;
    }
}
