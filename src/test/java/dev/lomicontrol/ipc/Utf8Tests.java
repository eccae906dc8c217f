package dev.lomicontrol.ipc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The one-pass UTF-8 check agrees with the JDK's strict decoder, byte array by byte array. */
class Utf8Tests {

    @Test
    void agreesWithTheJdksStrictDecoderOnRandomAndNearlyValidBytes() {
        Random random = new Random(20261204L);
        int valid = 0;
        for (int round = 0; round < 200_000; round++) {
            byte[] bytes = round % 2 == 0 ? randomBytes(random) : nearlyValid(random);
            boolean jdk = decodes(bytes);
            int scanned = Utf8.scan(bytes, 0, bytes.length);

            assertThat(scanned != Utf8.INVALID).as("verdict on %s", hex(bytes)).isEqualTo(jdk);
            if (jdk) {
                valid++;
                String text = new String(bytes, StandardCharsets.UTF_8);
                boolean lineBreak = text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0;
                assertThat(scanned).isEqualTo(lineBreak ? Utf8.WITH_LINE_BREAK : Utf8.ONE_LINE);
            }
        }
        assertThat(valid).as("both kinds of input occur").isBetween(10_000, 190_000);
    }

    @Test
    void checksOnlyTheGivenRange() {
        byte[] bytes = {(byte) 0xFF, 'a', 'b', (byte) 0xC3, (byte) 0xB3, '\n'};

        assertThat(Utf8.scan(bytes, 1, 5)).isEqualTo(Utf8.ONE_LINE);
        assertThat(Utf8.scan(bytes, 1, 6)).isEqualTo(Utf8.WITH_LINE_BREAK);
        assertThat(Utf8.scan(bytes, 0, 5)).isEqualTo(Utf8.INVALID);
        assertThat(Utf8.scan(bytes, 1, 4)).as("a sequence cut by the end").isEqualTo(Utf8.INVALID);
    }

    private static byte[] randomBytes(Random random) {
        byte[] bytes = new byte[random.nextInt(8)];
        random.nextBytes(bytes);
        return bytes;
    }

    /** Valid text of every sequence length with one byte sometimes replaced. */
    private static byte[] nearlyValid(Random random) {
        StringBuilder text = new StringBuilder();
        for (int i = random.nextInt(6); i > 0; i--) {
            text.appendCodePoint(codePoint(random));
        }
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        if (bytes.length > 0 && random.nextBoolean()) {
            bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
        }
        return bytes;
    }

    private static int codePoint(Random random) {
        switch (random.nextInt(5)) {
            case 0:
                return random.nextInt(0x80);
            case 1:
                return 0x80 + random.nextInt(0x800 - 0x80);
            case 2:
                int bmp = 0x800 + random.nextInt(0x10000 - 0x800);
                return bmp >= 0xD800 && bmp <= 0xDFFF ? 'x' : bmp;
            case 3:
                return 0x10000 + random.nextInt(0x110000 - 0x10000);
            default:
                return random.nextBoolean() ? '\n' : '\r';
        }
    }

    private static boolean decodes(byte[] bytes) {
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    private static String hex(byte[] bytes) {
        StringBuilder out = new StringBuilder();
        for (byte b : bytes) {
            out.append(String.format("%02x ", b));
        }
        return out.toString();
    }
}
