package dev.lomicontrol.terminal.screen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import org.junit.jupiter.api.Test;

/** Text, autowrap, C0 controls, tab stops, cursor addressing and the saved cursor. */
class ScreenTests {

    @Test
    void aNewScreenIsBlankWithTheCursorHomeAndVisible() {
        ScreenSnapshot snapshot = new Screen(80, 24).snapshot();

        assertThat(snapshot.lines()).hasSize(24).allMatch(String::isEmpty);
        assertThat(snapshot.columns()).isEqualTo(80);
        assertThat(snapshot.rows()).isEqualTo(24);
        assertThat(snapshot.cursorVisible()).isTrue();
        assertThat(snapshot.alternate()).isFalse();
        assertThat(snapshot.title()).isEmpty();
    }

    @Test
    void printedTextAppearsAtTheCursorAndTrailingBlanksAreTrimmed() {
        ScreenDriver t = new ScreenDriver(10, 4);

        t.write("ab  \r\ncd\033[3;3Hx");

        assertThat(t.lines()).containsExactly("ab", "cd", "  x", "");
        assertThat(t.cursor()).isEqualTo("2,3");
    }

    @Test
    void theLastColumnHoldsTheCursorUntilTheNextCharacterWraps() {
        ScreenDriver t = new ScreenDriver(10, 4);

        t.write("0123456789");
        assertThat(t.lines()).containsExactly("0123456789", "", "", "");
        assertThat(t.cursor()).isEqualTo("0,9");

        t.write("A");
        assertThat(t.lines()).containsExactly("0123456789", "A", "", "");
        assertThat(t.cursor()).isEqualTo("1,1");
    }

    @Test
    void aNewlineAfterAFullLineDoesNotLeaveAnEmptyLine() {
        ScreenDriver t = new ScreenDriver(10, 4);

        t.write("0123456789\r\nnext");

        assertThat(t.lines()).containsExactly("0123456789", "next", "", "");
    }

    @Test
    void cursorMovementCancelsThePendingWrap() {
        ScreenDriver t = new ScreenDriver(10, 4);

        t.write("0123456789\033[DX");

        assertThat(t.lines()).containsExactly("01234567X9", "", "", "");
    }

    @Test
    void settingAModeKeepsThePendingWrap() {
        ScreenDriver t = new ScreenDriver(10, 4);

        t.write("0123456789\033[?7h\033[?25h\033[mA");

        assertThat(t.lines()).containsExactly("0123456789", "A", "", "");
    }

    @Test
    void withoutAutowrapTheLastColumnIsOverwritten() {
        ScreenDriver t = new ScreenDriver(10, 4);

        t.write("\033[?7l0123456789ABC");
        assertThat(t.lines()).containsExactly("012345678C", "", "", "");
        assertThat(t.cursor()).isEqualTo("0,9");

        t.write("\033[?7h\rabcdefghijZ");
        assertThat(t.lines()).containsExactly("abcdefghij", "Z", "", "");
    }

    @Test
    void wrappingOnTheLastRowScrollsTheScreen() {
        ScreenDriver t = new ScreenDriver(4, 2);

        t.write("abcdefghij");

        assertThat(t.lines()).containsExactly("efgh", "ij");
        assertThat(t.cursor()).isEqualTo("1,2");
    }

    @Test
    void lineFeedMovesDownKeepingTheColumnAndScrollsAtTheBottom() {
        ScreenDriver t = new ScreenDriver(10, 3);

        t.write("a\nb\nc\nd");

        assertThat(t.lines()).containsExactly(" b", "  c", "   d");
        assertThat(t.cursor()).isEqualTo("2,4");
    }

    @Test
    void verticalTabAndFormFeedActAsLineFeeds() {
        ScreenDriver t = new ScreenDriver(10, 3);

        t.write("a\u000bb\u000cc");

        assertThat(t.lines()).containsExactly("a", " b", "  c");
    }

    @Test
    void backspaceStepsBackAndStopsAtTheLeftEdge() {
        ScreenDriver t = new ScreenDriver(10, 2);

        t.write("abc\b\bX\b\b\b\bY");

        assertThat(t.lines()).containsExactly("YXc", "");
        assertThat(t.cursor()).isEqualTo("0,1");
    }

    @Test
    void backspaceFromThePendingWrapLandsOnTheNextToLastColumn() {
        ScreenDriver t = new ScreenDriver(5, 2);

        t.write("abcde\bX");

        assertThat(t.lines()).containsExactly("abcXe", "");
    }

    @Test
    void belShiftAndNulHaveNoVisibleEffect() {
        ScreenDriver t = new ScreenDriver(10, 2);

        t.write("a\u0007b\u000e\u000fc\u0000d\u007fe");

        assertThat(t.lines()).containsExactly("abcde", "");
    }

    @Test
    void tabsStopEveryEightColumnsAndTheLastColumnEndsThem() {
        ScreenDriver t = new ScreenDriver(20, 2);

        t.write("\tA\tB\tC\tD");

        assertThat(t.line(0)).isEqualTo("        A       B  D");
        assertThat(t.cursor()).isEqualTo("0,19");
    }

    @Test
    void tabStopsCanBeSetAndCleared() {
        ScreenDriver t = new ScreenDriver(20, 3);

        t.write("\033[3g\033[4G\033H\033[11G\033H\r\tx\tx\ty");
        assertThat(t.line(0)).isEqualTo("   x      x        y");

        t.write("\r\n\033[4G\033[0g\r\tz");
        assertThat(t.line(1)).isEqualTo("          z");
    }

    @Test
    void cursorForwardAndBackwardTabulationMoveByStops() {
        ScreenDriver t = new ScreenDriver(30, 2);

        t.write("\033[2IA\033[Z\033[ZB\033[9ZC");

        assertThat(t.line(0)).isEqualTo("C       B       A");
    }

    @Test
    void relativeMovesStopAtTheScreenEdges() {
        ScreenDriver t = new ScreenDriver(10, 5);

        t.write("\033[3;4H\033[2A");
        assertThat(t.cursor()).isEqualTo("0,3");
        t.write("\033[A\033[9D");
        assertThat(t.cursor()).isEqualTo("0,0");
        t.write("\033[2B\033[3C");
        assertThat(t.cursor()).isEqualTo("2,3");
        t.write("\033[99B\033[99C");
        assertThat(t.cursor()).isEqualTo("4,9");
        t.write("\033[e\033[a");
        assertThat(t.cursor()).isEqualTo("4,9");
        t.write("\033[3;3H\033[0A\033[0C");
        assertThat(t.cursor()).as("a zero count means one").isEqualTo("1,3");
    }

    @Test
    void nextAndPrecedingLineMoveToTheFirstColumn() {
        ScreenDriver t = new ScreenDriver(10, 5);

        t.write("\033[2;5H\033[2E");
        assertThat(t.cursor()).isEqualTo("3,0");
        t.write("\033[5G\033[3F");
        assertThat(t.cursor()).isEqualTo("0,0");
    }

    @Test
    void absolutePositionsAreOneBasedDefaultToHomeAndAreClamped() {
        ScreenDriver t = new ScreenDriver(10, 5);

        t.write("\033[3;7H");
        assertThat(t.cursor()).isEqualTo("2,6");
        t.write("\033[H");
        assertThat(t.cursor()).isEqualTo("0,0");
        t.write("\033[4;2f");
        assertThat(t.cursor()).isEqualTo("3,1");
        t.write("\033[;5H");
        assertThat(t.cursor()).isEqualTo("0,4");
        t.write("\033[8G");
        assertThat(t.cursor()).isEqualTo("0,7");
        t.write("\033[3`");
        assertThat(t.cursor()).isEqualTo("0,2");
        t.write("\033[4d");
        assertThat(t.cursor()).isEqualTo("3,2");
        t.write("\033[99;99H");
        assertThat(t.cursor()).isEqualTo("4,9");
        t.write("\033[d\033[G");
        assertThat(t.cursor()).isEqualTo("0,0");
    }

    @Test
    void savedCursorIsRestoredByEscEightAndCsiU() {
        ScreenDriver t = new ScreenDriver(10, 5);

        t.write("\033[2;3H\0337\033[5;5H\0338X");
        assertThat(t.line(1)).isEqualTo("  X");

        t.write("\033[4;6H\033[s\033[H\033[uY");
        assertThat(t.line(3)).isEqualTo("     Y");
    }

    @Test
    void restoringWithoutASavedCursorGoesHome() {
        ScreenDriver t = new ScreenDriver(10, 5);

        t.write("\033[3;3H\0338");

        assertThat(t.cursor()).isEqualTo("0,0");
    }

    @Test
    void indexNextLineAndReverseIndexMoveTheCursor() {
        ScreenDriver t = new ScreenDriver(10, 3);

        t.write("ab\033Dc\033Ed\033M\033M\033Me");

        assertThat(t.lines())
                .as("the third reverse index scrolls down at the top")
                .containsExactly(" e", "ab", "  c");
        assertThat(t.cursor()).isEqualTo("0,2");
    }

    @Test
    void repeatPrintsTheLastCharacterAgain() {
        ScreenDriver t = new ScreenDriver(10, 2);

        t.write("\033[5bx\033[3b-\033[b");

        assertThat(t.line(0)).isEqualTo("xxxx--");
    }

    @Test
    void repeatMustFollowTheCharacterDirectly() {
        ScreenDriver t = new ScreenDriver(10, 2);

        t.write("x\r\033[3by\033[2b\033[2b\033[Cz\033[H\033[2b");

        assertThat(t.line(0)).isEqualTo("yyy z");
    }

    @Test
    void insertModeShiftsTheRestOfTheLine() {
        ScreenDriver t = new ScreenDriver(10, 2);

        t.write("abcdefghij\r\033[4hXY\033[4lZ");

        assertThat(t.line(0)).isEqualTo("XYZbcdefgh");
    }

    @Test
    void alignmentPatternFillsTheScreenWithE() {
        ScreenDriver t = new ScreenDriver(3, 2);

        t.write("\033[2;5r\033#8");

        assertThat(t.lines()).containsExactly("EEE", "EEE");
        assertThat(t.cursor()).isEqualTo("0,0");
    }

    @Test
    void sizesOutsideOneTo1024AreRefused() {
        assertThatThrownBy(() -> new Screen(0, 24))
                .isInstanceOf(LomiException.class)
                .extracting(e -> ((LomiException) e).code())
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThatThrownBy(() -> new Screen(80, 1025)).isInstanceOf(LomiException.class);
        assertThatThrownBy(() -> new Screen(80, 24).resize(1025, 1)).isInstanceOf(LomiException.class);
        assertThat(new Screen(1024, 1024).snapshot().lines()).hasSize(1024);
        assertThat(new Screen(1, 1).snapshot().lines()).containsExactly("");
    }

    @Test
    void feedHonoursOffsetAndLength() {
        Screen screen = new Screen(10, 2);
        byte[] bytes = "xxhelloxx".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

        screen.feed(bytes, 2, 5);

        assertThat(screen.snapshot().lines()).containsExactly("hello", "");
        assertThatThrownBy(() -> screen.feed(bytes, 5, 5)).isInstanceOf(IndexOutOfBoundsException.class);
    }
}
