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
