package dev.lomicontrol.terminal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OutputScannerTests {

    /** Collects text and events as one transcript, events written inline as {A}, {D:0}, {paste:on}. */
    static final class Transcript implements OutputScanner.Sink {
        final ByteArrayOutputStream text = new ByteArrayOutputStream();
        final List<String> events = new ArrayList<>();

        @Override
        public void text(byte[] data, int offset, int length) {
            text.write(data, offset, length);
        }

        @Override
        public void mark(char kind, int code) {
            String event = code == OutputScanner.NO_CODE ? "{" + kind + "}" : "{" + kind + ":" + code + "}";
            events.add(event + "@" + text.size());
        }

        @Override
        public void bracketedPaste(boolean on) {
            events.add("{paste:" + (on ? "on" : "off") + "}@" + text.size());
        }

        String text() {
            return text.toString(StandardCharsets.UTF_8);
        }
    }

    static Transcript scan(String input) {
        return scanInChunks(input.getBytes(StandardCharsets.UTF_8), Integer.MAX_VALUE);
    }

    static Transcript scanInChunks(byte[] input, int chunk) {
        OutputScanner scanner = new OutputScanner();
        Transcript transcript = new Transcript();
        for (int at = 0; at < input.length; at += chunk) {
            scanner.scan(input, at, Math.min(chunk, input.length - at), transcript);
        }
        return transcript;
    }

    static final String PROMPT_CYCLE =
            "\u001b]133;D;0\u0007\u001b]133;A\u0007\u001b[?2004h\u001b[01;32muser@host\u001b[00m:~$ "
                    + "\u001b]133;B\u0007echo hi\r\n\u001b[?2004l\r\u001b]133;C\u0007hi\r\n\u001b]133;D;130\u001b\\";

    @Test
    void keepsPrintableTextAndReportsMarksWhereTheyOccur() {
        Transcript t = scan(PROMPT_CYCLE);

        assertThat(t.text()).isEqualTo("user@host:~$ echo hi\r\n\rhi\r\n");
        assertThat(t.events)
                .containsExactly(
                        "{D:0}@0", "{A}@0", "{paste:on}@0", "{B}@13", "{paste:off}@22", "{C}@23", "{D:130}@27");
    }

    @Test
    void everySplitPointGivesTheSameResult() {
        byte[] input = (PROMPT_CYCLE + "ąę€😀\u001bP1$r0m\u001b\\tail\u001b_apc\u0007still apc\u001b\\end")
                .getBytes(StandardCharsets.UTF_8);
        Transcript whole = scanInChunks(input, input.length);
        for (int chunk = 1; chunk < 9; chunk++) {
            Transcript split = scanInChunks(input, chunk);
            assertThat(split.text()).as("chunk %d", chunk).isEqualTo(whole.text());
            assertThat(split.events).as("chunk %d", chunk).isEqualTo(whole.events);
        }
        assertThat(whole.text()).endsWith("hi\r\nąę€😀tailend");
    }

    @Test
    void dropsControlsButKeepsTabsNewlinesAndHighBytes() {
        byte[] input = {
            'a', 0x00, 0x07, 0x08, '\t', 'b', 0x7F, '\n', (byte) 0xC3, (byte) 0xA9, 0x0E, 'c', (byte) 0x9B, 'd'
        };
        Transcript t = scanInChunks(input, input.length);

        assertThat(t.text.toByteArray())
                .containsExactly('a', '\t', 'b', '\n', (byte) 0xC3, (byte) 0xA9, 'c', (byte) 0x9B, 'd');
    }

    @Test
    void ignoresMarksWithOtherNumbersOrShapesAndReadsMissingCodesAsNone() {
        Transcript t = scan("\u001b]1337;A\u0007\u001b]133;Ax\u0007\u001b]133;E\u0007\u001b]133;D\u0007"
                + "\u001b]133;D;x\u0007\u001b]133;A;cl=m\u0007\u001b]0;title\u0007ok");

        assertThat(t.events).containsExactly("{D}@0", "{D}@0", "{A}@0");
        assertThat(t.text()).isEqualTo("ok");
    }

    @Test
    void anOverlongOscIsDroppedWholeAndScanningRecovers() {
        String huge = "\u001b]133;D;0" + "9".repeat(OutputScanner.MAX_OSC) + "\u0007after";
        Transcript t = scan(huge);

        assertThat(t.events).isEmpty();
        assertThat(t.text()).isEqualTo("after");
    }

    @Test
    void anOverlongCsiIsSkippedUpToItsFinalByte() {
        Transcript t = scan("\u001b[?" + "1;".repeat(OutputScanner.MAX_CSI) + "2004hvisible");

        assertThat(t.events).isEmpty();
        assertThat(t.text()).isEqualTo("visible");
    }

    @Test
    void bracketedPasteIsFoundAmongOtherPrivateModes() {
        Transcript t = scan("\u001b[?1;2004h\u001b[?12004h\u001b[2004h\u001b[?2004;1l");

        assertThat(t.events).containsExactly("{paste:on}@0", "{paste:off}@0");
    }

    @Test
    void anEscapeInsideAnOscEndsItSoAStrayOscCannotSwallowLaterMarks() {
        Transcript t = scan("\u001b]stray title without end\u001b]133;B\u0007prompt");

        assertThat(t.events).containsExactly("{B}@0");
        assertThat(t.text()).isEqualTo("prompt");
    }

    @Test
    void cancelAbortsASequenceAndNewlinesInsideACsiStillCount() {
        Transcript t = scan("a\u001b[1\u0018b\u001b[2\nc");

        assertThat(t.text()).isEqualTo("ab\n");
    }

    @Test
    void charsetDesignationsAndSingleEscapesVanish() {
        Transcript t = scan("\u001b(Bx\u001b7y\u001b8\u001b=z");

        assertThat(t.text()).isEqualTo("xyz");
    }
}
