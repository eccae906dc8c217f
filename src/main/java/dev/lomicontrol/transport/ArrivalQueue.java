package dev.lomicontrol.transport;

import java.util.ArrayDeque;

/** Received bytes in order, each chunk stamped with its arrival time. Not thread-safe: the owner locks. */
final class ArrivalQueue {

    private final ArrayDeque<Chunk> chunks = new ArrayDeque<>();
    private long size;

    void add(byte[] data, long arrivalNanos) {
        chunks.add(new Chunk(data, arrivalNanos));
        size += data.length;
    }

    long size() {
        return size;
    }

    /** When the oldest unread byte arrived; only while {@code size() > 0}. */
    long firstArrivalNanos() {
        return chunks.getFirst().arrivalNanos;
    }

    /** Copies the next {@code count <= size()} bytes without consuming them. */
    byte[] peek(int count) {
        byte[] out = new byte[count];
        int filled = 0;
        for (Chunk chunk : chunks) {
            if (filled == count) {
                break;
            }
            int n = Math.min(count - filled, chunk.data.length - chunk.offset);
            System.arraycopy(chunk.data, chunk.offset, out, filled, n);
            filled += n;
        }
        return out;
    }

    /** Removes and returns the next {@code count <= size()} bytes. */
    byte[] take(int count) {
        byte[] out = new byte[count];
        int filled = 0;
        while (filled < count) {
            Chunk chunk = chunks.getFirst();
            int n = Math.min(count - filled, chunk.data.length - chunk.offset);
            System.arraycopy(chunk.data, chunk.offset, out, filled, n);
            filled += n;
            chunk.offset += n;
            if (chunk.offset == chunk.data.length) {
                chunks.removeFirst();
            }
        }
        size -= count;
        return out;
    }

    /** Bytes from one socket read; {@code offset} advances as they are consumed. */
    private static final class Chunk {
        final byte[] data;
        final long arrivalNanos;
        int offset;

        Chunk(byte[] data, long arrivalNanos) {
            this.data = data;
            this.arrivalNanos = arrivalNanos;
        }
    }
}
