package dev.lomicontrol.files;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.LomiException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link TextCodec#page} answers exactly what decoding the whole text and {@link TextPage#of} answer. */
class TextCodecPageTests {

    private static final byte[] UTF_8_BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    /** Bytes that keep a text plain and bytes that each send it down the full decoding path. */
    private static final byte[] PLAIN = "ab \t\n{}~".getBytes(StandardCharsets.US_ASCII);

    private static final byte[][] NOT_PLAIN = {
        {0},
        {'\r'},
        {'\r', '\n'},
        {(byte) 0xC3, (byte) 0xBC},
        {(byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80},
        {(byte) 0xC3},
        {(byte) 0x80},
        {(byte) 0xFF},
        {(byte) 0xEF, (byte) 0xBF, (byte) 0xBD}
    };

    @Test
    void everyPageOfRandomTextsIsTheOneTheWholeDecodedTextGives() {
        Random random = new Random(20261205);
        int plainTexts = 0;
        for (int round = 0; round < 4_000; round++) {
            byte[] bytes = text(random);
            plainTexts += AsciiScan.plain(bytes, 0) != AsciiScan.NOT_PLAIN ? 1 : 0;
            int[] starts = {0, random.nextInt(bytes.length + 2), bytes.length, bytes.length + 1, -1};
            int[] sizes = {1, 2, 3, 7, 8, 9, random.nextInt(40) + 2, Integer.MAX_VALUE};
            for (int start : starts) {
                for (int size : sizes) {
                    assertThat(outcome(() -> TextCodec.page(bytes, start, size)))
                            .as("page(%s, %d, %d)", show(bytes), start, size)
                            .isEqualTo(outcome(() -> wholeThenPage(bytes, start, size)));
                }
            }
        }
        assertThat(plainTexts).as("plain texts among the random ones").isBetween(800, 3_200);
    }

    @Test
    void aPlainTextKeepsItsBomAndReportsLfOrNone() {
        byte[] withBom = concat(UTF_8_BOM, "one\ntwo\n".getBytes(StandardCharsets.US_ASCII));
        TextCodec.DecodedPage page = TextCodec.page(withBom, 4, 3);
        assertThat(page.encoding()).isEqualTo(TextEncoding.UTF_8_BOM);
        assertThat(page.lineEndings()).isEqualTo(LineEndings.LF);
        assertThat(page.page()).isEqualTo(new TextPage("two", 4, 7, 8, true));
        assertThat(TextCodec.page("no line end".getBytes(StandardCharsets.US_ASCII), 0, 100)
                        .lineEndings())
                .isEqualTo(LineEndings.NONE);
    }

    @Test
    void theScanFindsAnOffendingByteAtEveryPositionOfAWord() {
        for (int length = 1; length <= 24; length++) {
            for (int at = 0; at < length; at++) {
                for (byte offending : new byte[] {0, '\r', (byte) 0x80, (byte) 0xFF, (byte) 0xC3}) {
                    byte[] bytes =
                            "abcdefghijklmnopqrstuvwx".substring(0, length).getBytes(StandardCharsets.US_ASCII);
                    bytes[at] = offending;
                    assertThat(AsciiScan.plain(bytes, 0))
                            .as("%d at %d of %d", offending, at, length)
                            .isEqualTo(AsciiScan.NOT_PLAIN);
                }
                byte[] lf = "abcdefghijklmnopqrstuvwx".substring(0, length).getBytes(StandardCharsets.US_ASCII);
                lf[at] = '\n';
                assertThat(AsciiScan.plain(lf, 0)).isEqualTo(AsciiScan.WITH_LF);
            }
        }
        assertThat(AsciiScan.plain("\u007f\u0001 ".repeat(9).getBytes(StandardCharsets.US_ASCII), 0))
                .isEqualTo(AsciiScan.WITHOUT_LF);
    }

    private static Object outcome(java.util.function.Supplier<TextCodec.DecodedPage> page) {
        try {
            return page.get();
        } catch (LomiException e) {
            return e.code() + ": " + e.getMessage();
        }
    }

    private static TextCodec.DecodedPage wholeThenPage(byte[] bytes, int start, int size) {
        DecodedText decoded = TextCodec.decode(bytes);
        return new TextCodec.DecodedPage(
                TextPage.of(decoded.text(), start, size), decoded.encoding(), decoded.lineEndings());
    }

    /** 0–40 bytes, mostly plain, a fifth of them with one offending sequence somewhere, some with a BOM. */
    private static byte[] text(Random random) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        if (random.nextInt(5) == 0) {
            out.writeBytes(UTF_8_BOM);
        }
        int length = random.nextInt(41);
        int offendAt = random.nextInt(3) == 0 ? random.nextInt(length + 1) : -1;
        for (int i = 0; i <= length; i++) {
            if (i == offendAt) {
                out.writeBytes(NOT_PLAIN[random.nextInt(NOT_PLAIN.length)]);
            }
            if (i < length) {
                out.write(PLAIN[random.nextInt(PLAIN.length)]);
            }
        }
        return out.toByteArray();
    }

    private static String show(byte[] bytes) {
        StringBuilder shown = new StringBuilder();
        for (byte b : bytes) {
            shown.append(b >= 32 && b < 127 ? String.valueOf((char) b) : String.format("\\x%02x", b & 0xFF));
        }
        return shown.toString();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
