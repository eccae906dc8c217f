package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.terminal.screen.ScreenSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The view's renderer: nothing of the screen's text reaches the admin's terminal as a control character. */
class ScreenRendererTests {

    /** Every sequence the renderer itself writes. */
    private static final Pattern OWN = Pattern.compile("\u001b\\[(\\?25[lh]|\\?1049[hl]|0m|7m|K|2J|\\d+;\\d+H)");

    @Test
    void everyControlCharacterOfTheScreenIsDrawnAsAQuestionMarkAndOnlyOurOwnSequencesAreWritten() {
        StringBuilder hostile = new StringBuilder();
        for (char c = 0; c <= 0x9f; c++) {
            hostile.append(c);
        }
        hostile.append("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff");
        List<String> lines = new ArrayList<>();
        lines.add(hostile.toString());
        lines.add("\u001b]52;c;ZXZpbA==\u0007\u001b]0;owned\u0007\u001b[?1049h\u001bP+q\u001b\\\u009b31m\u0090x\u009c");
        lines.add("plain text");
        ScreenSnapshot screen = new ScreenSnapshot(300, 5, 2, 3, true, true, lines, "\u001b]0;title\u0007");

        String frame = ScreenRenderer.frame(screen, 300, 6, "status \u001b[31m red");
        String rest =
                OWN.matcher(ScreenRenderer.ENTER + frame + ScreenRenderer.LEAVE).replaceAll("");

        assertThat(rest.chars().filter(c -> !ScreenRenderer.printable(c)))
                .as("left after removing the renderer's own sequences: %s", rest)
                .isEmpty();
        assertThat(rest).contains("plain text", " !\"#$%&'()*+,-./0123456789:;<=>?@ABC", "?]52;c;ZXZpbA==?");
    }

    @Test
    void theScreenIsClippedAndPaddedToTheViewAndScrolledToItsCursor() {
        List<String> lines = List.of("row0", "row1", "row2 is a long row that does not fit", "row3");
        ScreenSnapshot screen = new ScreenSnapshot(40, 4, 3, 2, true, false, lines, "");

        String frame = ScreenRenderer.frame(screen, 10, 3, "watching");

        assertThat(frame)
                .as("two rows of screen and a status line; the cursor row shows")
                .contains("\u001b[1;1Hrow2 is a ", "\u001b[2;1Hrow3      ", "\u001b[3;1H\u001b[7mwatching ")
                .doesNotContain("row1")
                .endsWith("\u001b[2;3H\u001b[?25h");
        assertThat(ScreenRenderer.fit("表表表", 5))
                .as("wide characters take two cells")
                .isEqualTo("表表 ");
    }

    @Test
    void aHiddenCursorStaysHidden() {
        ScreenSnapshot screen = new ScreenSnapshot(10, 2, 0, 0, false, false, List.of("x"), "");

        assertThat(ScreenRenderer.frame(screen, 10, 3, "s")).doesNotContain("\u001b[?25h");
    }
}
