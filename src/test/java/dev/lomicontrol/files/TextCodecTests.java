package dev.lomicontrol.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TextCodecTests {

    @Test
    void crlfUtf8RoundTripsByteExactAndReportsItsLineEndings() {
        byte[] bytes = "first\r\nsecond ü\r\nthird\r\n".getBytes(StandardCharsets.UTF_8);
        DecodedText decoded = TextCodec.decode(bytes);
        assertThat(decoded.encoding()).isEqualTo(TextEncoding.UTF_8);
        assertThat(decoded.lineEndings()).isEqualTo(LineEndings.CRLF);
        assertThat(decoded.text()).isEqualTo("first\r\nsecond ü\r\nthird\r\n");
        assertThat(TextCodec.encode(decoded.text(), decoded.encoding())).isEqualTo(bytes);
    }

    @Test
    void utf8BomRoundTripsByteExact() {
        byte[] bytes = concat(
                new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, "a\r\nb 😀\r\n".getBytes(StandardCharsets.UTF_8));
        DecodedText decoded = TextCodec.decode(bytes);
        assertThat(decoded.encoding()).isEqualTo(TextEncoding.UTF_8_BOM);
        assertThat(decoded.encoding().wire()).isEqualTo("utf-8-bom");
        assertThat(decoded.text()).isEqualTo("a\r\nb 😀\r\n");
        assertThat(TextCodec.encode(decoded.text(), decoded.encoding())).isEqualTo(bytes);
    }

    @Test
    void utf16WithBomRoundTripsByteExactInBothByteOrders() {
        byte[] le = concat(new byte[] {(byte) 0xFF, (byte) 0xFE}, "x\r\ny 😀\n".getBytes(StandardCharsets.UTF_16LE));
        DecodedText decodedLe = TextCodec.decode(le);
        assertThat(decodedLe.encoding()).isEqualTo(TextEncoding.UTF_16LE);
        assertThat(decodedLe.text()).isEqualTo("x\r\ny 😀\n");
        assertThat(decodedLe.lineEndings()).isEqualTo(LineEndings.MIXED);
        assertThat(TextCodec.encode(decodedLe.text(), TextEncoding.UTF_16LE)).isEqualTo(le);

        byte[] be = concat(new byte[] {(byte) 0xFE, (byte) 0xFF}, "x\ry".getBytes(StandardCharsets.UTF_16BE));
        DecodedText decodedBe = TextCodec.decode(be);
        assertThat(decodedBe.encoding()).isEqualTo(TextEncoding.UTF_16BE);
        assertThat(decodedBe.lineEndings()).isEqualTo(LineEndings.CR);
        assertThat(TextCodec.encode(decodedBe.text(), TextEncoding.UTF_16BE)).isEqualTo(be);
    }

    @Test
    void lineEndingsAreDetected() {
        assertThat(TextCodec.decode(new byte[0]).lineEndings()).isEqualTo(LineEndings.NONE);
        assertThat(TextCodec.decode("abc".getBytes(StandardCharsets.UTF_8)).lineEndings())
                .isEqualTo(LineEndings.NONE);
        assertThat(TextCodec.decode("a\nb\n".getBytes(StandardCharsets.UTF_8)).lineEndings())
                .isEqualTo(LineEndings.LF);
        assertThat(TextCodec.decode("a\r\nb\n".getBytes(StandardCharsets.UTF_8)).lineEndings())
                .isEqualTo(LineEndings.MIXED);
        assertThat(LineEndings.CRLF.wire()).isEqualTo("crlf");
    }

    @Test
    void binaryAndInvalidBytesAreRefused() {
        assertRefused(new byte[] {'a', 0, 'b'});
        assertRefused(new byte[] {(byte) 0xC3, (byte) 0x28});
        assertRefused(new byte[] {(byte) 0xFF, (byte) 0xFE, 'a'});
        assertRefused(new byte[] {(byte) 0xFE, (byte) 0xFF, (byte) 0xD8, 0x3D});
    }

    @Test
    void unpairedSurrogatesCannotBeEncoded() {
        assertThatThrownBy(() -> TextCodec.encode("a\uD83D", TextEncoding.UTF_8))
                .extracting(e -> ((LomiException) e).code())
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void lineEndingsConvertBothWays() {
        assertThat(TextCodec.normalizeToLf("a\r\nb\rc\n")).isEqualTo("a\nb\nc\n");
        assertThat(TextCodec.withLineEndings("a\nb\n", LineEndings.CRLF)).isEqualTo("a\r\nb\r\n");
        assertThat(TextCodec.withLineEndings("a\nb\n", LineEndings.CR)).isEqualTo("a\rb\r");
        assertThat(TextCodec.withLineEndings("a\nb\n", LineEndings.MIXED)).isEqualTo("a\nb\n");
        assertThat(TextCodec.withLineEndings("a\r\nb", LineEndings.NONE)).isEqualTo("a\nb");
        String crlf = "one\r\ntwo\r\n";
        assertThat(TextCodec.withLineEndings(TextCodec.normalizeToLf(crlf), LineEndings.CRLF))
                .isEqualTo(crlf);
    }

    @Test
    void randomTextsGetTheLineEndingsACharacterByCharacterScanGives() {
        String[] pieces = {"a", "é", "\r", "\n", "\r\n", "\n\r", " "};
        java.util.Random random = new java.util.Random(20261204L);
        for (int round = 0; round < 20_000; round++) {
            StringBuilder text = new StringBuilder();
            for (int i = random.nextInt(8); i > 0; i--) {
                text.append(pieces[random.nextInt(pieces.length)]);
            }
            assertThat(TextCodec.lineEndings(text.toString()))
                    .as("%s", text.toString().replace("\r", "CR").replace("\n", "LF"))
                    .isEqualTo(scannedLineEndings(text.toString()));
        }
    }

    @Test
    void aReplacementCharacterInTheFileIsTextAndAMalformedSequenceIsNot() {
        assertThat(TextCodec.decode("a \uFFFD b\n".getBytes(StandardCharsets.UTF_8))
                        .text())
                .isEqualTo("a \uFFFD b\n");
        assertRefused(new byte[] {'a', (byte) 0xEF, (byte) 0xBF, (byte) 0xBD, (byte) 0xC3, '('});
        java.util.Random random = new java.util.Random(20261204L);
        for (int round = 0; round < 20_000; round++) {
            byte[] bytes = new byte[random.nextInt(6)];
            random.nextBytes(bytes);
            boolean strict = strictlyDecodes(bytes);
            if (strict && new String(bytes, StandardCharsets.UTF_8).indexOf('\0') < 0 && !startsWithBom(bytes)) {
                assertThat(TextCodec.decode(bytes).text()).isEqualTo(new String(bytes, StandardCharsets.UTF_8));
            } else if (!strict && !startsWithBom(bytes)) {
                assertRefused(bytes);
            }
        }
    }

    /** The character-by-character scan the line-ending detection replaced: the oracle. */
    private static LineEndings scannedLineEndings(String text) {
        boolean lf = false;
        boolean crlf = false;
        boolean cr = false;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\r') {
                if (i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                    crlf = true;
                    i++;
                } else {
                    cr = true;
                }
            } else if (text.charAt(i) == '\n') {
                lf = true;
            }
        }
        int kinds = (lf ? 1 : 0) + (crlf ? 1 : 0) + (cr ? 1 : 0);
        return kinds == 0
                ? LineEndings.NONE
                : kinds > 1 ? LineEndings.MIXED : lf ? LineEndings.LF : crlf ? LineEndings.CRLF : LineEndings.CR;
    }

    private static boolean strictlyDecodes(byte[] bytes) {
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes));
            return true;
        } catch (java.nio.charset.CharacterCodingException e) {
            return false;
        }
    }

    private static boolean startsWithBom(byte[] bytes) {
        return bytes.length >= 2
                && ((bytes[0] == (byte) 0xFF && bytes[1] == (byte) 0xFE)
                        || (bytes[0] == (byte) 0xFE && bytes[1] == (byte) 0xFF)
                        || (bytes.length >= 3
                                && bytes[0] == (byte) 0xEF
                                && bytes[1] == (byte) 0xBB
                                && bytes[2] == (byte) 0xBF));
    }

    private static void assertRefused(byte[] bytes) {
        assertThatThrownBy(() -> TextCodec.decode(bytes))
                .isInstanceOf(LomiException.class)
                .extracting(e -> ((LomiException) e).code())
                .isEqualTo(ErrorCode.UNSUPPORTED_CAPABILITY);
    }

    static byte[] concat(byte[] a, byte[] b) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(a);
        out.writeBytes(b);
        return out.toByteArray();
    }
}
