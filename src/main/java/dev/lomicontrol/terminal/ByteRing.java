package dev.lomicontrol.terminal;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;

/**
 * A byte ring of a fixed capacity addressed by absolute offsets since the terminal started. Appending
 * overwrites the oldest bytes once the capacity is full; {@link #availableFrom()} is the oldest offset
 * still held. The array grows (doubling from {@link #INITIAL_BYTES}) until it reaches the capacity, so an
 * idle terminal holds a few KiB instead of its whole ring: until then nothing has been overwritten and
 * offset {@code p} sits at index {@code p}. Not thread-safe: the owning terminal guards it.
 */
final class ByteRing {

    static final int INITIAL_BYTES = 4096;

    private final int capacity;
    private byte[] buffer;
    private long end;

    ByteRing(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.capacity = capacity;
        this.buffer = new byte[Math.min(capacity, INITIAL_BYTES)];
    }

    /** The offset one past the newest byte (= bytes ever appended). */
    long end() {
        return end;
    }

    /** The oldest offset still held. */
    long availableFrom() {
        return Math.max(0, end - buffer.length);
    }

    void append(byte[] data, int offset, int length) {
        growFor(end + length);
        if (length >= buffer.length) {
            int skip = length - buffer.length;
            end += skip;
            offset += skip;
            length = buffer.length;
        }
        int at = index(end);
        int first = Math.min(length, buffer.length - at);
        System.arraycopy(data, offset, buffer, at, first);
        System.arraycopy(data, offset + first, buffer, 0, length - first);
        end += length;
    }

    /**
     * Reads up to {@code maxBytes} from {@code cursor}, never past {@code limit} (at most {@link #end()}).
     * A cursor older than the ring starts at {@link #availableFrom()} with {@code gap}. With {@code utf8},
     * a start inside a character moves forward (also a gap) and a character that does not fit or is
     * not complete yet is held back for the next page, unless {@code limitFinal} says no more bytes
     * will follow {@code limit} (then a truncated character is returned as it is).
     *
     * @throws LomiException CURSOR_EXPIRED for a cursor past {@code limit}; RESOURCE_EXHAUSTED when
     *     {@code maxBytes} cannot hold the next character
     */
    OutputPage read(long cursor, int maxBytes, long limit, boolean utf8, boolean limitFinal) {
        if (cursor > limit) {
            throw new LomiException(
                    ErrorCode.CURSOR_EXPIRED, "cursor " + cursor + " is past the end of the output (" + limit + ")");
        }
        long available = availableFrom();
        long from = Math.min(Math.max(cursor, available), limit);
        boolean gap = from != cursor;
        if (utf8) {
            long next = afterCharacterContaining(from, available, limit);
            gap |= next != from;
            from = next;
        }
        int count = (int) Math.min(maxBytes, limit - from);
        if (utf8 && count > 0) {
            count = withoutSplitCharacter(from, count, maxBytes, limit, limitFinal);
        }
        byte[] bytes = new byte[count];
        copy(from, bytes);
        long next = from + count;
        return new OutputPage(bytes, from, next, available, gap, next == limit);
    }

    /**
     * {@code position}, or the start of the next character when {@code position} lies inside one
     * (its lead byte before it, or evicted). Stray continuation bytes are left alone.
     */
    private long afterCharacterContaining(long position, long available, long limit) {
        if (position >= limit || !isContinuation(at(position))) {
            return position;
        }
        long lead = position - 1;
        for (int back = 0; back < 3 && lead >= available && isContinuation(at(lead)); back++) {
            lead--;
        }
        long characterEnd;
        if (lead < available) {
            characterEnd = position + 3;
        } else {
            characterEnd = lead + sequenceLength(at(lead));
        }
        long next = position;
        while (next < characterEnd && next < limit && isContinuation(at(next))) {
            next++;
        }
        return next;
    }

    /** The page length from {@code from} that does not end inside a character. */
    private int withoutSplitCharacter(long from, int count, int maxBytes, long limit, boolean limitFinal) {
        long pageEnd = from + count;
        long lead = pageEnd - 1;
        for (int back = 0; back < 3 && lead > from && isContinuation(at(lead)); back++) {
            lead--;
        }
        int expected = sequenceLength(at(lead));
        if (expected == 1) {
            return count;
        }
        long charEnd = lead + 1;
        while (charEnd < lead + expected && charEnd < limit && isContinuation(at(charEnd))) {
            charEnd++;
        }
        boolean incomplete = !limitFinal && charEnd < lead + expected && charEnd == limit;
        if (charEnd <= pageEnd && !incomplete) {
            return count;
        }
        if (lead == from && !incomplete) {
            throw new LomiException(
                    ErrorCode.RESOURCE_EXHAUSTED,
                    "maxBytes " + maxBytes + " cannot hold the next character (" + (charEnd - lead) + " bytes)");
        }
        return (int) (lead - from);
    }

    /** Grows the array towards the capacity so that {@code needed} bytes fit without overwriting (while it is below the capacity, end ≤ its length). */
    private void growFor(long needed) {
        if (buffer.length == capacity || needed <= buffer.length) {
            return;
        }
        long size = buffer.length;
        while (size < needed && size < capacity) {
            size = Math.min(capacity, size * 2);
        }
        buffer = java.util.Arrays.copyOf(buffer, (int) size);
    }

    private void copy(long from, byte[] into) {
        int at = index(from);
        int first = Math.min(into.length, buffer.length - at);
        System.arraycopy(buffer, at, into, 0, first);
        System.arraycopy(buffer, 0, into, first, into.length - first);
    }

    private byte at(long position) {
        return buffer[index(position)];
    }

    private int index(long position) {
        return (int) (position % buffer.length);
    }

    private static boolean isContinuation(byte b) {
        return (b & 0xC0) == 0x80;
    }

    /** The length a UTF-8 lead byte announces; 1 for ASCII and for bytes that cannot start a character. */
    private static int sequenceLength(byte b) {
        int v = b & 0xFF;
        if (v >= 0xC2 && v <= 0xDF) {
            return 2;
        }
        if (v >= 0xE0 && v <= 0xEF) {
            return 3;
        }
        if (v >= 0xF0 && v <= 0xF4) {
            return 4;
        }
        return 1;
    }
}
