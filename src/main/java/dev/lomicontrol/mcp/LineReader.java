package dev.lomicontrol.mcp;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * Reads newline-delimited messages from a byte stream without decoding them. A line is ended
 * only by {@code \n} (a preceding {@code \r} is dropped). A line longer than the cap is never
 * buffered: its bytes are discarded up to and including the next {@code \n}, and it is reported
 * as {@link Line.Oversized} — nothing inside it, not even a newline-free tail that looks like a
 * message, is ever returned as a message. Not thread-safe: one reader thread.
 */
final class LineReader {

    /** What {@link #next()} returns; {@code null} means end of input. */
    sealed interface Line permits Line.Complete, Line.Oversized {
        /** A line within the cap, without its terminator. */
        record Complete(byte[] bytes) implements Line {}

        /** A line over the cap that was skipped; {@code length} counts its bytes without the terminator. */
        record Oversized(long length) implements Line {}
    }

    private final InputStream in;
    private final int maxBytes;
    private final byte[] chunk = new byte[64 * 1024];
    private int chunkStart;
    private int chunkEnd;
    private byte[] line = new byte[8 * 1024];
    private int lineLength;
    private long oversized;

    LineReader(InputStream in, int maxBytes) {
        this.in = in;
        this.maxBytes = maxBytes;
    }

    /**
     * Returns the next line, or {@code null} at end of input. An unterminated last line is
     * returned as if it had a newline. Lines that are empty (or only {@code \r}) are returned too;
     * the caller decides what to do with them.
     */
    @Nullable
    Line next() throws IOException {
        lineLength = 0;
        oversized = -1;
        while (true) {
            if (chunkStart == chunkEnd && !fill()) {
                return oversized >= 0 ? new Line.Oversized(oversized) : lineLength == 0 ? null : complete();
            }
            int newline = indexOfNewline();
            take(newline < 0 ? chunkEnd : newline);
            if (newline >= 0) {
                chunkStart = newline + 1;
                return oversized >= 0 ? new Line.Oversized(oversized) : complete();
            }
            chunkStart = chunkEnd;
        }
    }

    /** Adds the chunk's bytes up to {@code end} to the line, or only counts them once the line is over the cap. */
    private void take(int end) {
        int count = end - chunkStart;
        if (oversized < 0 && lineLength + (long) count > maxBytes + 1L) {
            oversized = lineLength; // the +1 allows a trailing '\r' that complete() strips
        }
        if (oversized >= 0) {
            oversized += count;
        } else {
            append(chunkStart, count);
        }
    }

    private Line complete() {
        int length = lineLength > 0 && line[lineLength - 1] == '\r' ? lineLength - 1 : lineLength;
        if (length > maxBytes) {
            return new Line.Oversized(lineLength);
        }
        return new Line.Complete(Arrays.copyOf(line, length));
    }

    private boolean fill() throws IOException {
        int read = in.read(chunk, 0, chunk.length);
        if (read <= 0) {
            return false;
        }
        chunkStart = 0;
        chunkEnd = read;
        return true;
    }

    private int indexOfNewline() {
        for (int i = chunkStart; i < chunkEnd; i++) {
            if (chunk[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private void append(int from, int count) {
        if (lineLength + count > line.length) {
            line = Arrays.copyOf(line, Math.max(lineLength + count, Math.min(line.length * 2, maxBytes + 1)));
        }
        System.arraycopy(chunk, from, line, lineLength, count);
        lineLength += count;
    }
}
