package dev.lomicontrol.terminal.screen;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Erasing, inserting and deleting characters and lines, the scroll region and origin mode. */
class ScreenEditingTests {

    private final ScreenDriver t = new ScreenDriver(5, 4).filled();

    @Test
    void eraseInDisplayFromTheCursorToTheEnd() {
        t.write("\033[2;3H\033[J");

        assertThat(t.lines()).containsExactly("aaaaa", "bb", "", "");
        assertThat(t.cursor()).isEqualTo("1,2");
    }

    @Test
    void eraseInDisplayFromTheStartThroughTheCursor() {
        t.write("\033[2;3H\033[1J");

        assertThat(t.lines()).containsExactly("", "   bb", "ccccc", "ddddd");
    }

    @Test
    void eraseInDisplayOfTheWholeScreenKeepsTheCursor() {
        t.write("\033[2;3H\033[2J");

        assertThat(t.lines()).containsExactly("", "", "", "");
        assertThat(t.cursor()).isEqualTo("1,2");
    }

    @Test
    void eraseOfTheScrollbackLeavesTheScreenAlone() {
        t.write("\033[3J");

        assertThat(t.lines()).containsExactly("aaaaa", "bbbbb", "ccccc", "ddddd");
    }

    @Test
    void eraseInLineVariants() {
        t.write("\033[1;3H\033[K\033[2;3H\033[1K\033[3;3H\033[2K\033[4;3H\033[0K");

        assertThat(t.lines()).containsExactly("aa", "   bb", "", "dd");
    }

    @Test
    void eraseInLineAtThePendingWrapClearsOnlyTheLastCell() {
        t.write("\033[1;1Hxxxxx\033[K");

        assertThat(t.line(0)).isEqualTo("xxxx");
    }

    @Test
    void insertCharactersShiftsRightAndDropsWhatFallsOff() {
        t.write("\033[1;1Habcde\033[1;2H\033[2@");
        assertThat(t.line(0)).isEqualTo("a  bc");

        t.write("\033[1;3H\033[999@");
        assertThat(t.line(0)).isEqualTo("a");
    }

    @Test
    void deleteCharactersShiftsLeftAndBlanksTheEnd() {
        t.write("\033[1;1Habcde\033[1;2H\033[2P");
        assertThat(t.line(0)).isEqualTo("ade");

        t.write("\033[1;2H\033[999P");
        assertThat(t.line(0)).isEqualTo("a");
    }

    @Test
    void eraseCharactersBlanksWithoutShifting() {
        t.write("\033[1;1Habcde\033[1;2H\033[2X");
        assertThat(t.line(0)).isEqualTo("a  de");

        t.write("\033[1;5H\033[999X");
        assertThat(t.line(0)).isEqualTo("a  d");
        assertThat(t.cursor()).isEqualTo("0,4");
    }

    @Test
    void insertLinesPushesLinesDownAndReturnsToTheFirstColumn() {
        t.write("\033[2;3H\033[L");

        assertThat(t.lines()).containsExactly("aaaaa", "", "bbbbb", "ccccc");
        assertThat(t.cursor()).isEqualTo("1,0");
    }

    @Test
    void deleteLinesPullsLinesUp() {
        t.write("\033[2;3H\033[2M");

        assertThat(t.lines()).containsExactly("aaaaa", "ddddd", "", "");
        assertThat(t.cursor()).isEqualTo("1,0");
    }

    @Test
    void insertAndDeleteLinesStayInsideTheScrollRegion() {
        t.write("\033[2;3r\033[2;1H\033[L");
        assertThat(t.lines()).containsExactly("aaaaa", "", "bbbbb", "ddddd");

        t.write("\033[2;1H\033[M\033[M");
        assertThat(t.lines()).containsExactly("aaaaa", "", "", "ddddd");
    }

    @Test
    void insertAndDeleteLinesOutsideTheScrollRegionDoNothing() {
        t.write("\033[2;3r\033[4;1H\033[L\033[1;1H\033[M");

        assertThat(t.lines()).containsExactly("aaaaa", "bbbbb", "ccccc", "ddddd");
    }

    @Test
    void settingTheScrollRegionHomesTheCursor() {
        t.write("\033[3;3H\033[2;3r");

        assertThat(t.cursor()).isEqualTo("0,0");
    }

    @Test
    void lineFeedAtTheBottomMarginScrollsOnlyTheRegion() {
        t.write("\033[2;3r\033[3;2H\n");

        assertThat(t.lines()).containsExactly("aaaaa", "ccccc", "", "ddddd");
        assertThat(t.cursor()).isEqualTo("2,1");
    }

    @Test
    void lineFeedOnTheLastRowBelowTheRegionDoesNotScroll() {
        t.write("\033[2;3r\033[4;1H\n\n");

        assertThat(t.lines()).containsExactly("aaaaa", "bbbbb", "ccccc", "ddddd");
        assertThat(t.cursor()).isEqualTo("3,0");
    }

    @Test
    void wrappingAtTheBottomMarginScrollsOnlyTheRegion() {
        t.write("\033[1;3r\033[3;1Hxxxxxy");

        assertThat(t.lines()).containsExactly("bbbbb", "xxxxx", "y", "ddddd");
    }

    @Test
    void reverseIndexAtTheTopMarginScrollsTheRegionDown() {
        t.write("\033[2;3r\033[2;1H\033M");

        assertThat(t.lines()).containsExactly("aaaaa", "", "bbbbb", "ddddd");
        assertThat(t.cursor()).isEqualTo("1,0");
    }

    @Test
    void scrollUpAndDownMoveOnlyTheRegion() {
        t.write("\033[2;3r\033[S");
        assertThat(t.lines()).containsExactly("aaaaa", "ccccc", "", "ddddd");

        t.write("\033[2T");
        assertThat(t.lines()).containsExactly("aaaaa", "", "", "ddddd");
    }

    @Test
    void scrollingByMoreThanTheRegionBlanksIt() {
        t.write("\033[99S");

        assertThat(t.lines()).containsExactly("", "", "", "");
    }

    @Test
    void anInvalidScrollRegionIsIgnored() {
        t.write("\033[3;2r\033[4;1H\n");

        assertThat(t.lines()).containsExactly("bbbbb", "ccccc", "ddddd", "");
    }

    @Test
    void cursorUpAndDownStopAtTheMarginsFromInsideTheRegion() {
        t.write("\033[2;3r\033[3;1H\033[9A");
        assertThat(t.cursor()).isEqualTo("1,0");

        t.write("\033[9B");
        assertThat(t.cursor()).isEqualTo("2,0");

        t.write("\033[4;1H\033[9B");
        assertThat(t.cursor())
                .as("below the region the screen edge is the limit")
                .isEqualTo("3,0");
    }

    @Test
    void originModeAddressesRelativeToTheRegion() {
        ScreenDriver o = new ScreenDriver(5, 5);

        o.write("\033[2;4r\033[?6h");
        assertThat(o.cursor()).isEqualTo("1,0");

        o.write("\033[2;2H");
        assertThat(o.cursor()).isEqualTo("2,1");
        assertThat(o.write("\033[6n")).isEqualTo("\033[2;2R");

        o.write("\033[9;9H");
        assertThat(o.cursor()).isEqualTo("3,4");

        o.write("\033[?6l");
        assertThat(o.cursor()).isEqualTo("0,0");
    }
}
