package dev.lomicontrol.terminal.screen;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The alternate buffer, private modes, resets, query replies, OSC titles and resizing. */
class ScreenModesTests {

    private final ScreenDriver t = new ScreenDriver(10, 4);

    @Test
    void mode1049EntersAClearedAlternateBufferAndLeavingRestoresScreenAndCursor() {
        t.write("normal\r\nshell $ \033[2;4H");

        t.write("\033[?1049h");
        assertThat(t.screen.snapshot().alternate()).isTrue();
        assertThat(t.lines()).containsExactly("", "", "", "");

        t.write("\033[Hfull\033[4;1Hscreen");
        assertThat(t.lines()).containsExactly("full", "", "", "screen");

        t.write("\033[?1049l");
        assertThat(t.screen.snapshot().alternate()).isFalse();
        assertThat(t.lines()).containsExactly("normal", "shell $", "", "");
        assertThat(t.cursor()).isEqualTo("1,3");
    }

    @Test
    void reenteringTheAlternateBufferStartsBlank() {
        t.write("\033[?1049hold\033[?1049l\033[?1049h");

        assertThat(t.lines()).containsExactly("", "", "", "");
    }

    @Test
    void savingTheCursorInsideTheAlternateBufferKeepsTheNormalOne() {
        t.write("\033[2;4H\033[?1049h\033[4;4H\0337\033[?1049l");

        assertThat(t.cursor()).isEqualTo("1,3");
    }

    @Test
    void leaving1049WhenNotInTheAlternateBufferChangesNothing() {
        t.write("text\033[?1049l");

        assertThat(t.lines().get(0)).isEqualTo("text");
        assertThat(t.cursor()).isEqualTo("0,4");
    }

    @Test
    void modes47And1047SwitchBuffersWithoutMovingTheCursor() {
        for (String mode : new String[] {"47", "1047"}) {
            ScreenDriver d = new ScreenDriver(10, 4);
            d.write("normal\033[?" + mode + "h");
            assertThat(d.screen.snapshot().alternate()).isTrue();
            assertThat(d.lines()).allMatch(String::isEmpty);

            d.write("\033[3;3Halt\033[?" + mode + "l");
            assertThat(d.screen.snapshot().alternate()).isFalse();
            assertThat(d.lines()).containsExactly("normal", "", "", "");
            assertThat(d.cursor()).isEqualTo("2,5");
        }
    }

    @Test
    void mode1048SavesAndRestoresTheCursor() {
        t.write("\033[3;4H\033[?1048h\033[H\033[?1048l");

        assertThat(t.cursor()).isEqualTo("2,3");
    }

    @Test
    void cursorVisibilityFollowsMode25() {
        t.write("\033[?25l");
        assertThat(t.screen.snapshot().cursorVisible()).isFalse();

        t.write("\033[?25h");
        assertThat(t.screen.snapshot().cursorVisible()).isTrue();
    }

    @Test
    void bracketedPasteFollowsMode2004() {
        assertThat(t.screen.bracketedPaste()).isFalse();

        t.write("\033[?2004h");
        assertThat(t.screen.bracketedPaste()).isTrue();

        t.write("\033[?2004l");
        assertThat(t.screen.bracketedPaste()).isFalse();
    }

    @Test
    void oneSequenceMaySetSeveralModes() {
        t.write("\033[?1;25;2004;1049l\033[?2004;25l");

        assertThat(t.screen.bracketedPaste()).isFalse();
        assertThat(t.screen.snapshot().cursorVisible()).isFalse();

        t.write("\033[?1049;2004h");
        assertThat(t.screen.snapshot().alternate()).isTrue();
        assertThat(t.screen.bracketedPaste()).isTrue();
    }

    @Test
    void ignoredModesAndKeypadSequencesLeaveNoTrace() {
        t.write("\033[?1h\033=\033[?1000;1006h\033[?12l\033[?2026hok\033[?1l\033>");

        assertThat(t.lines()).containsExactly("ok", "", "", "");
        assertThat(t.cursor()).isEqualTo("0,2");
    }

    @Test
    void fullResetClearsBothBuffersAndModesButKeepsTheTitle() {
        t.write("\033]2;kept\007text\033[2;3r\033[?25l\033[?2004h\033[?7l\033[?1049halt\033c");

        ScreenSnapshot snapshot = t.screen.snapshot();
        assertThat(snapshot.lines()).allMatch(String::isEmpty);
        assertThat(snapshot.alternate()).isFalse();
        assertThat(snapshot.cursorVisible()).isTrue();
        assertThat(t.cursor()).isEqualTo("0,0");
        assertThat(t.screen.bracketedPaste()).isFalse();
        assertThat(snapshot.title()).isEqualTo("kept");

        t.write("0123456789x\033[4;1H\n");
        assertThat(t.lines())
                .as("autowrap is back and the region is the whole screen")
                .containsExactly("x", "", "", "");
    }

    @Test
    void softResetRestoresModesButKeepsTheScreen() {
        t.write("text\033[2;3r\033[?25l\033[?7l\033[4h\033[!p");

        assertThat(t.screen.snapshot().cursorVisible()).isTrue();
        assertThat(t.lines().get(0)).isEqualTo("text");
        t.write("\033[1;1HX0123456789y");
        assertThat(t.lines()).as("no insert mode, autowrap on").containsExactly("X012345678", "9y", "", "");
    }

    @Test
    void deviceStatusAndCursorPositionReportsAreReturnedAsReplies() {
        assertThat(t.write("\033[5n")).isEqualTo("\033[0n");
        assertThat(t.write("\033[3;5H\033[6n")).isEqualTo("\033[3;5R");
        assertThat(t.write("\033[?6n")).isEqualTo("\033[?3;5R");
        assertThat(t.write("\033[5n\033[1;1H\033[6n"))
                .as("replies keep their order")
                .isEqualTo("\033[0n\033[1;1R");
    }

    @Test
    void theCursorReportInThePendingWrapNamesTheLastColumn() {
        assertThat(t.write("0123456789\033[6n")).isEqualTo("\033[1;10R");
    }

    @Test
    void deviceAttributesAreAnswered() {
        assertThat(t.write("\033[c")).isEqualTo("\033[?1;2c");
        assertThat(t.write("\033[0c")).isEqualTo("\033[?1;2c");
        assertThat(t.write("\033[>c")).isEqualTo("\033[>0;10;0c");
        assertThat(t.write("\033[>0c")).isEqualTo("\033[>0;10;0c");
        assertThat(t.write("\033[=c\033[1c\033[7n")).isEmpty();
    }

    @Test
    void outputWithoutQueriesOwesNoReply() {
        byte[] bytes = "plain \033[1mbold\033[0m\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

        assertThat(t.screen.feed(bytes, 0, bytes.length)).isEmpty();
    }

    @Test
    void oscZeroAndTwoSetTheTitleEndedByBelOrStringTerminator() {
        t.write("\033]0;first\007");
        assertThat(t.screen.snapshot().title()).isEqualTo("first");

        t.write("\033]2;Příliš žluťoučký\033\\");
        assertThat(t.screen.snapshot().title()).isEqualTo("Příliš žluťoučký");

        t.write("\033]1;icon\007\033]7;file:///tmp\007\033]133;A\007\033]2\007");
        assertThat(t.screen.snapshot().title()).isEqualTo("Příliš žluťoučký");
        assertThat(t.lines()).allMatch(String::isEmpty);
    }

    @Test
    void resizeKeepsTheTopLeftContentAndClampsTheCursor() {
        t.write("0123456789abcdefghijABCDEFGHIJlast");
        assertThat(t.cursor()).isEqualTo("3,4");

        t.screen.resize(5, 2);
        ScreenSnapshot small = t.screen.snapshot();
        assertThat(small.lines()).containsExactly("01234", "abcde");
        assertThat(small.columns()).isEqualTo(5);
        assertThat(small.rows()).isEqualTo(2);
        assertThat(t.cursor()).isEqualTo("1,4");

        t.screen.resize(8, 3);
        assertThat(t.lines()).containsExactly("01234", "abcde", "");
        t.write("\033[3;1Hxxxxxxxxyy");
        assertThat(t.lines()).as("wraps at the new width").containsExactly("abcde", "xxxxxxxx", "yy");
    }

    @Test
    void resizeResetsTheScrollRegionAndResizesBothBuffers() {
        t.write("normal\033[2;3r\033[?1049halt");

        t.screen.resize(3, 2);
        t.write("\033[2;1H\nz");
        assertThat(t.lines()).as("the region is the whole screen again").containsExactly("", "z");

        t.write("\033[?1049l");
        assertThat(t.lines()).containsExactly("nor", "");
    }

    @Test
    void resizeBlanksAWideCharacterCutAtTheNewEdge() {
        t.write("ab中x");

        t.screen.resize(3, 4);

        assertThat(t.lines().get(0)).isEqualTo("ab");
    }
}
