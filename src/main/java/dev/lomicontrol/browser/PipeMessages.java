package dev.lomicontrol.browser;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits the DevTools pipe into its NUL-terminated messages under a size cap chosen from each
 * message's first bytes, before the rest is read (security review 2026-12-06, N3): an answer to the
 * broker's own command ({@code {"id":…}}, a screenshot, an accessibility tree) may reach
 * {@link #ANSWER_CAP}; a log event ({@code Runtime.consoleAPICalled}, {@code Runtime.exceptionThrown},
 * whose text the broker cuts to 256 units anyway) {@link #LOG_CAP}; any other event {@link #EVENT_CAP}.
 * A message over its cap is never buffered: only its first {@link #HEAD} and last {@link #TAIL} bytes
 * are kept while the rest is skipped, and it is handed on as {@link Oversized}. The buffer goes back
 * to its small size after a large message. Not thread-safe: one reader thread owns it.
 */
final class PipeMessages {

    /** The broker's own answers (a screenshot of 4 MiB is ~5.6 MB base64, a download of 4 MiB the same). */
    static final int ANSWER_CAP = 16 << 20;
    /** Events other than logs: a URL of Chromium's 2 MB maximum fits, with its frame. */
    static final int EVENT_CAP = 4 << 20;
    /** Log events: far more than the 256 UTF-16 units a log entry keeps. */
    static final int LOG_CAP = 256 << 10;

    static final int HEAD = 4096;
    static final int TAIL = 256;
    private static final int SMALL = 64 << 10;
    private static final byte[] ANSWER_START = "{\"id\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EVENT_START = "{\"method\":\"".getBytes(StandardCharsets.US_ASCII);
    /** Enough of a message's start to see which cap applies (the longest log event method fits). */
    private static final int DECIDE = 48;

    /** What a reader does with each message. */
    interface Sink {
        /** A whole message within its cap: {@code bytes[0..length)}, valid only during the call. */
        void message(byte[] bytes, int length);

        /** A message over its cap, skipped. */
        void oversized(Oversized message);
    }

    /** A message that was not read: its size, and what its first and last bytes tell. */
    record Oversized(long bytes, int cap, String head, String tail) {

        private static final Pattern ID = Pattern.compile("^\\{\"id\":([0-9]{1,18})[,}]");
        private static final Pattern SESSION = Pattern.compile("\"sessionId\":\"([0-9A-Za-z]{1,64})\"}$");
        private static final Pattern REQUEST = Pattern.compile("\"requestId\":\"([^\"\\\\]{1,128})\"");
        private static final Pattern TYPE =
                Pattern.compile("^\\{\"method\":\"[^\"]+\",\"params\":\\{\"type\":\"([a-zA-Z]{1,32})\"");

        /** The id of the command this answers; empty for an event. */
        Optional<Long> id() {
            Matcher m = ID.matcher(head);
            return m.find() ? Optional.of(Long.parseLong(m.group(1))) : Optional.empty();
        }

        /** The event's method (empty for an answer). */
        Optional<String> method() {
            byte[] bytes = head.getBytes(StandardCharsets.UTF_8);
            return PipeMessages.method(bytes, bytes.length);
        }

        Optional<String> sessionId() {
            Matcher m = SESSION.matcher(tail);
            return m.find() ? Optional.of(m.group(1)) : Optional.empty();
        }

        /** The first {@code requestId} of the message's start (a paused request's). */
        Optional<String> requestId() {
            Matcher m = REQUEST.matcher(head);
            return m.find() ? Optional.of(m.group(1)) : Optional.empty();
        }

        /** A console call's {@code type} (log, error, …), the first parameter Chromium writes. */
        Optional<String> consoleType() {
            Matcher m = TYPE.matcher(head);
            return m.find() ? Optional.of(m.group(1)) : Optional.empty();
        }
    }

    private byte[] buffer = new byte[SMALL];
    private int length;
    private int cap = EVENT_CAP;
    private boolean decided;
    /** Bytes of the current message so far, once it is over its cap (0 while it is not). */
    private long skipped;

    private final byte[] tail = new byte[TAIL];
    private long tailWritten;

    /** The size of the read buffer now (tests: it shrinks back after a large message). */
    int capacity() {
        return buffer.length;
    }

    /** Reads messages until the end of the stream; an IOException ends it too. */
    void read(InputStream in, Sink sink) throws IOException {
        byte[] chunk = new byte[SMALL];
        int n;
        while ((n = in.read(chunk)) > 0) {
            int start = 0;
            for (int i = 0; i < n; i++) {
                if (chunk[i] == 0) {
                    append(chunk, start, i - start);
                    finish(sink);
                    start = i + 1;
                }
            }
            append(chunk, start, n - start);
        }
    }

    private void append(byte[] bytes, int from, int count) {
        if (count == 0) {
            return;
        }
        if (skipped > 0) {
            skip(bytes, from, count);
            return;
        }
        if (!decided && length + count >= DECIDE) {
            int take = DECIDE - length;
            put(bytes, from, take);
            cap = capOf(buffer, length);
            decided = true;
            from += take;
            count -= take;
        }
        if (length + (long) count > cap) {
            skipped = length;
            tailWritten = 0;
            skip(bytes, from, count);
            return;
        }
        put(bytes, from, count);
    }

    private void put(byte[] bytes, int from, int count) {
        if (length + count > buffer.length) {
            int wanted = (int) Math.min(Math.max((long) buffer.length * 2, (long) length + count), cap + 1L);
            buffer = Arrays.copyOf(buffer, Math.max(wanted, length + count));
        }
        System.arraycopy(bytes, from, buffer, length, count);
        length += count;
    }

    private void skip(byte[] bytes, int from, int count) {
        skipped += count;
        int keep = Math.min(count, TAIL);
        for (int i = from + count - keep; i < from + count; i++) {
            tail[(int) (tailWritten++ % TAIL)] = bytes[i];
        }
    }

    private void finish(Sink sink) {
        try {
            if (skipped > 0) {
                sink.oversized(new Oversized(
                        skipped,
                        cap,
                        new String(buffer, 0, Math.min(length, HEAD), StandardCharsets.UTF_8),
                        tailText()));
            } else if (length > 0) {
                sink.message(buffer, length);
            }
        } finally {
            length = 0;
            skipped = 0;
            decided = false;
            cap = EVENT_CAP;
            if (buffer.length > SMALL) {
                buffer = new byte[SMALL]; // a large message's buffer is not kept
            }
        }
    }

    private String tailText() {
        int count = (int) Math.min(tailWritten, TAIL);
        byte[] out = new byte[count];
        for (int i = 0; i < count; i++) {
            out[i] = tail[(int) ((tailWritten - count + i) % TAIL)];
        }
        return new String(out, StandardCharsets.UTF_8);
    }

    /** The cap for a message that starts with {@code bytes[0..length)}. */
    static int capOf(byte[] bytes, int length) {
        if (startsWith(bytes, length, ANSWER_START)) {
            return ANSWER_CAP;
        }
        Optional<String> method = method(bytes, length);
        return method.isPresent() && CdpConnection.LOG_EVENTS.contains(method.get()) ? LOG_CAP : EVENT_CAP;
    }

    /** The method of an event that starts with {@code bytes[0..length)}, as Chromium writes it ({@code {"method":"…"}). */
    static Optional<String> method(byte[] bytes, int length) {
        if (!startsWith(bytes, length, EVENT_START)) {
            return Optional.empty();
        }
        for (int i = EVENT_START.length; i < length && i < EVENT_START.length + 128; i++) {
            if (bytes[i] == '"') {
                return Optional.of(
                        new String(bytes, EVENT_START.length, i - EVENT_START.length, StandardCharsets.UTF_8));
            }
        }
        return Optional.empty();
    }

    private static boolean startsWith(byte[] bytes, int length, byte[] prefix) {
        if (length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (bytes[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
