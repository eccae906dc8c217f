package dev.lomicontrol.terminal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ByteRingTests {

    static ByteRing ringWith(int capacity, byte[] content) {
        ByteRing ring = new ByteRing(capacity);
        ring.append(content, 0, content.length);
        return ring;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void keepsAbsoluteOffsetsAcrossWrapAround() {
        ByteRing ring = new ByteRing(8);
        for (int i = 0; i < 5; i++) {
            ring.append(utf8("abc"), 0, 3);
        }

        assertThat(ring.end()).isEqualTo(15);
        assertThat(ring.availableFrom()).isEqualTo(7);
        OutputPage page = ring.read(7, 100, ring.end(), false, false);
        assertThat(page.text()).isEqualTo("bcabcabc");
        assertThat(page.cursor()).isEqualTo(7);
        assertThat(page.nextCursor()).isEqualTo(15);
        assertThat(page.gap()).isFalse();
        assertThat(page.end()).isTrue();
    }

    @Test
    void anAppendLargerThanTheRingKeepsItsTail() {
        ByteRing ring = new ByteRing(4);
        ring.append(utf8("0123456789"), 0, 10);

        OutputPage page = ring.read(0, 100, ring.end(), false, false);
        assertThat(page.text()).isEqualTo("6789");
        assertThat(page.gap()).isTrue();
        assertThat(page.cursor()).isEqualTo(6);
        assertThat(page.availableFrom()).isEqualTo(6);
    }

    @Test
    void aCursorPastTheEndIsExpiredAndTheEndItselfGivesAnEmptyFinalPage() {
        ByteRing ring = ringWith(16, utf8("hello"));

        assertRefused(ErrorCode.CURSOR_EXPIRED, () -> ring.read(6, 10, ring.end(), true, false));
        OutputPage atEnd = ring.read(5, 10, ring.end(), true, false);
        assertThat(atEnd.bytes()).isEmpty();
        assertThat(atEnd.end()).isTrue();
        assertThat(atEnd.nextCursor()).isEqualTo(5);
    }

    @Test
    void pagesNeverSplitACharacterAndReassembleExactly() {
        byte[] content = utf8("aą€😀b".repeat(50));
        ByteRing ring = ringWith(4096, content);
        for (int max = 4; max <= 9; max++) {
            ByteArrayOutputStream joined = new ByteArrayOutputStream();
            long cursor = 0;
            while (cursor < ring.end()) {
                OutputPage page = ring.read(cursor, max, ring.end(), true, false);
                assertThat(page.bytes().length).isBetween(1, max);
                assertThat(new String(page.bytes(), StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8))
                        .isEqualTo(page.bytes());
                joined.writeBytes(page.bytes());
                cursor = page.nextCursor();
            }
            assertThat(joined.toByteArray()).as("max %d", max).isEqualTo(content);
        }
    }

    @Test
    void aCharacterThatCannotFitIsRefused() {
        ByteRing ring = ringWith(64, utf8("😀"));

        assertRefused(ErrorCode.RESOURCE_EXHAUSTED, () -> ring.read(0, 3, ring.end(), true, false));
    }

    @Test
    void anIncompleteCharacterAtTheEndIsHeldBackUntilItCompletes() {
        byte[] euro = utf8("x€");
        ByteRing ring = ringWith(64, new byte[] {euro[0], euro[1], euro[2]});

        OutputPage first = ring.read(0, 100, ring.end(), true, false);
        assertThat(first.text()).isEqualTo("x");
        assertThat(first.end()).isFalse();
        OutputPage waiting = ring.read(first.nextCursor(), 100, ring.end(), true, false);
        assertThat(waiting.bytes()).isEmpty();
        assertThat(waiting.end()).isFalse();

        ring.append(euro, 3, 1);
        assertThat(ring.read(first.nextCursor(), 100, ring.end(), true, false).text())
                .isEqualTo("€");
    }

    @Test
    void aTruncatedCharacterBeforeAFinalLimitIsReturnedAsItIs() {
        byte[] euro = utf8("€");
        ByteRing ring = ringWith(64, new byte[] {'a', euro[0], euro[1], 'b'});

        OutputPage page = ring.read(0, 100, 3, true, true);
        assertThat(page.bytes()).containsExactly('a', euro[0], euro[1]);
        assertThat(page.end()).isTrue();
    }

    @Test
    void brokenSequencesDoNotStopProgress() {
        byte[] content = {(byte) 0xC3, 'a', (byte) 0xE2, (byte) 0x82, 'b', (byte) 0x80, (byte) 0x80, 'c'};
        ByteRing ring = ringWith(64, content);
        ByteArrayOutputStream joined = new ByteArrayOutputStream();
        long cursor = 0;
        while (cursor < ring.end()) {
            OutputPage page = ring.read(cursor, 2, ring.end(), true, false);
            assertThat(page.nextCursor()).isGreaterThan(cursor);
            joined.writeBytes(page.bytes());
            cursor = page.nextCursor();
        }
        assertThat(joined.toByteArray()).isEqualTo(content);
    }

    @Test
    void aCursorInsideACharacterMovesToTheNextOneWithAGap() {
        ByteRing ring = ringWith(64, utf8("😀z"));

        OutputPage page = ring.read(1, 10, ring.end(), true, false);
        assertThat(page.text()).isEqualTo("z");
        assertThat(page.cursor()).isEqualTo(4);
        assertThat(page.gap()).isTrue();
    }

    @Test
    void evictionInsideACharacterSkipsItsRemainder() {
        ByteRing ring = new ByteRing(6);
        byte[] content = utf8("€€€");
        ring.append(content, 0, content.length);

        OutputPage page = ring.read(0, 10, ring.end(), true, false);
        assertThat(page.text()).isEqualTo("€€");
        assertThat(page.gap()).isTrue();
        assertThat(page.availableFrom()).isEqualTo(3);
    }

    /** The array grows from a few KiB to its capacity; what it holds and returns is exactly what a fixed ring of that capacity would. */
    @Test
    void aGrowingRingHoldsExactlyWhatAFixedRingOfItsCapacityWould() {
        int capacity = 64 * 1024 + 3;
        ByteRing ring = new ByteRing(capacity);
        java.util.Random random = new java.util.Random(20261202);
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (int round = 0; round < 400; round++) {
            byte[] chunk = new byte[random.nextInt(round % 50 == 0 ? 70_000 : 900)];
            for (int i = 0; i < chunk.length; i++) {
                chunk[i] = (byte) ('a' + random.nextInt(26));
            }
            ring.append(chunk, 0, chunk.length);
            all.write(chunk, 0, chunk.length);
            byte[] written = all.toByteArray();
            long expectedFrom = Math.max(0, written.length - capacity);
            assertThat(ring.end()).isEqualTo(written.length);
            assertThat(ring.availableFrom()).as("round %d", round).isEqualTo(expectedFrom);
            long cursor = Math.max(0, written.length - 1 - random.nextInt(capacity + 10));
            OutputPage page = ring.read(cursor, capacity, ring.end(), false, false);
            long from = Math.max(cursor, expectedFrom);
            assertThat(page.cursor()).isEqualTo(from);
            assertThat(page.gap()).isEqualTo(from != cursor);
            assertThat(page.text())
                    .isEqualTo(new String(
                            written, (int) from, (int) (written.length - from), StandardCharsets.ISO_8859_1));
        }
    }

    /** {@code read} throws a LomiException with {@code code}. */
    private static void assertRefused(ErrorCode code, org.assertj.core.api.ThrowableAssert.ThrowingCallable read) {
        assertThatThrownBy(read)
                .isInstanceOfSatisfying(
                        LomiException.class, e -> assertThat(e.code()).isEqualTo(code));
    }
}
