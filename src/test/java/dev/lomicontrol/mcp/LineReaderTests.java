package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class LineReaderTests {

    @Test
    void aMultiByteCharacterSplitAcrossReadsArrivesWhole() throws IOException {
        String text = "{\"text\":\"žluťoučký kůň 🐴 Łódź\"}";
        LineReader reader = new LineReader(new OneByteAtATime(bytes(text + "\n")), 1024);

        assertThat(text(reader.next())).isEqualTo(text);
        assertThat(reader.next()).isNull();
    }

    @Test
    void manyMessagesInOneChunkAreReturnedOneByOne() throws IOException {
        StringBuilder input = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            input.append("{\"id\":").append(i).append("}\n");
        }
        LineReader reader = new LineReader(new ByteArrayInputStream(bytes(input.toString())), 1024);

        for (int i = 0; i < 1000; i++) {
            assertThat(text(reader.next())).isEqualTo("{\"id\":" + i + "}");
        }
        assertThat(reader.next()).isNull();
    }

    @Test
    void anOversizedLineIsReportedAndSkippedAndTheNextLineIsRead() throws IOException {
        byte[] big = new byte[9 * 1024 * 1024];
        Arrays.fill(big, (byte) 'x');
        InputStream in = concat(big, bytes("\n{\"id\":1}\n"));
        LineReader reader = new LineReader(in, 8 * 1024 * 1024);

        LineReader.Line first = reader.next();
        assertThat(first).isInstanceOf(LineReader.Line.Oversized.class);
        assertThat(((LineReader.Line.Oversized) first).length()).isEqualTo(big.length);
        assertThat(text(reader.next())).isEqualTo("{\"id\":1}");
    }

    @Test
    void nothingInsideAnOversizedLineIsEverReturnedOnlyItsNewlineEndsIt() throws IOException {
        byte[] padding = new byte[2000];
        Arrays.fill(padding, (byte) ' ');
        InputStream in = new OneByteAtATime(
                concat(bytes("{\"pad\":\""), padding, bytes("\"}{\"id\":99,\"method\":\"ping\"}\n{\"id\":1}\n")));
        LineReader reader = new LineReader(in, 1024);

        assertThat(reader.next()).isInstanceOf(LineReader.Line.Oversized.class);
        assertThat(text(reader.next())).isEqualTo("{\"id\":1}");
        assertThat(reader.next()).isNull();
    }

    @Test
    void aLineOfExactlyTheLimitIsKeptAndOneByteMoreIsOversized() throws IOException {
        String exact = "a".repeat(100);
        LineReader reader =
                new LineReader(new ByteArrayInputStream(bytes(exact + "\r\n" + exact + "b\n" + exact + "\r\n")), 100);

        assertThat(text(reader.next())).isEqualTo(exact);
        assertThat(reader.next()).isInstanceOf(LineReader.Line.Oversized.class);
        assertThat(text(reader.next())).isEqualTo(exact);
    }

    @Test
    void carriageReturnsBeforeTheNewlineAreDroppedAndAnUnterminatedLastLineIsReturned() throws IOException {
        LineReader reader = new LineReader(new ByteArrayInputStream(bytes("{}\r\n\n{\"last\":true}")), 1024);

        assertThat(text(reader.next())).isEqualTo("{}");
        assertThat(text(reader.next())).isEmpty();
        assertThat(text(reader.next())).isEqualTo("{\"last\":true}");
        assertThat(reader.next()).isNull();
    }

    @Test
    void anOversizedUnterminatedLastLineIsStillReportedAsOversized() throws IOException {
        LineReader reader = new LineReader(new ByteArrayInputStream(bytes("x".repeat(5000))), 1024);

        assertThat(reader.next()).isInstanceOf(LineReader.Line.Oversized.class);
        assertThat(reader.next()).isNull();
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static String text(LineReader.Line line) {
        assertThat(line).isInstanceOf(LineReader.Line.Complete.class);
        return new String(((LineReader.Line.Complete) line).bytes(), StandardCharsets.UTF_8);
    }

    private static InputStream concat(byte[]... parts) {
        List<InputStream> streams = new ArrayList<>();
        for (byte[] part : parts) {
            streams.add(new ByteArrayInputStream(part));
        }
        return new SequenceInputStream(Collections.enumeration(streams));
    }

    /** Delivers one byte per read, like a pipe under pressure. */
    static final class OneByteAtATime extends InputStream {
        private final InputStream in;

        OneByteAtATime(byte[] bytes) {
            this(new ByteArrayInputStream(bytes));
        }

        OneByteAtATime(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            return in.read();
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            return length == 0 ? 0 : in.read(buffer, offset, 1);
        }
    }
}
