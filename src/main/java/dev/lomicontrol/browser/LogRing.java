package dev.lomicontrol.browser;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/** One kind of page log: the newest 64 entries, each message cut to 256 UTF-16 units, and how many older ones were dropped. */
public final class LogRing {

    static final int CAPACITY = 64;
    static final int MAX_UNITS = 256;

    /** One captured message. */
    public record Entry(long sequence, long capturedAtMillis, String message, Optional<String> level) {}

    private final Deque<Entry> entries = new ArrayDeque<>();
    private long dropped;

    synchronized void add(long sequence, long at, String message, Optional<String> level) {
        if (entries.size() == CAPACITY) {
            entries.removeFirst();
            dropped++;
        }
        entries.addLast(new Entry(sequence, at, cut(message), level));
    }

    /** Counts {@code count} entries that never reached the ring (dropped while the broker's event queue was full). */
    synchronized void lost(long count) {
        dropped += Math.max(0, count);
    }

    /** Entries with a sequence above {@code after}, at most {@code limit}; and whether more follow. */
    synchronized Page after(long after, int limit) {
        List<Entry> out = new ArrayList<>();
        boolean more = false;
        for (Entry entry : entries) {
            if (entry.sequence() > after) {
                if (out.size() == limit) {
                    more = true;
                    break;
                }
                out.add(entry);
            }
        }
        return new Page(out, dropped, more);
    }

    public record Page(List<Entry> entries, long dropped, boolean hasMore) {}

    /** At most 256 UTF-16 units, never splitting a surrogate pair. */
    static String cut(String message) {
        if (message.length() <= MAX_UNITS) {
            return message;
        }
        int end = MAX_UNITS;
        if (Character.isHighSurrogate(message.charAt(end - 1))) {
            end--;
        }
        return message.substring(0, end);
    }
}
