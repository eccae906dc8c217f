package dev.lomicontrol.terminal;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A terminal's output store: the raw ring, the normalized text ring and the scanner between them.
 * Not thread-safe: the terminal's lock guards it.
 */
final class TerminalOutput {

    /** Receives shell-integration events at their text-ring offsets. */
    interface Events {
        void mark(char kind, int code, long textCursor);

        void bracketedPaste(boolean on);
    }

    private final ByteRing text;
    private final ByteRing raw;
    private final OutputScanner scanner = new OutputScanner();
    private final TextSink sink = new TextSink();

    TerminalOutput(int ringBytes) {
        this.text = new ByteRing(ringBytes);
        this.raw = new ByteRing(ringBytes);
    }

    /** Stores one chunk read from the PTY; events fire in stream order. */
    void append(byte[] chunk, int length, Events events) {
        raw.append(chunk, 0, length);
        sink.events = events;
        scanner.scan(chunk, 0, length, sink);
    }

    /** Feeds text into the text ring and reports events with the text offset they occur at. */
    private final class TextSink implements OutputScanner.Sink {
        private @Nullable Events events;

        @Override
        public void text(byte[] data, int offset, int count) {
            text.append(data, offset, count);
        }

        @Override
        public void mark(char kind, int code) {
            events().mark(kind, code, text.end());
        }

        @Override
        public void bracketedPaste(boolean on) {
            events().bracketedPaste(on);
        }

        /** The events of the chunk being scanned: set by {@link #append} before every scan. */
        private Events events() {
            return Objects.requireNonNull(events, "events are set before the scan");
        }
    }

    long textEnd() {
        return text.end();
    }

    long rawEnd() {
        return raw.end();
    }

    /** @param finished no more output will come (the shell exited) */
    OutputPage readText(long cursor, int maxBytes, boolean finished) {
        checkPage(cursor, maxBytes);
        return text.read(cursor, maxBytes, text.end(), true, finished);
    }

    OutputPage readRaw(long cursor, int maxBytes, boolean finished) {
        checkPage(cursor, maxBytes);
        return raw.read(cursor, maxBytes, raw.end(), false, finished);
    }

    /** The run's text from {@code cursor} (-1: its start) up to its end cursor, or the ring's end while it has none. */
    OutputPage readCommand(CommandRun run, long cursor, int maxBytes, boolean finished) {
        long from = cursor == -1 ? run.startCursor() : cursor;
        if (from < run.startCursor()) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    "cursor " + cursor + " is before the command's start " + run.startCursor());
        }
        checkPage(from, maxBytes);
        long limit = run.endCursor().orElse(text.end());
        return text.read(from, maxBytes, limit, true, run.endCursor().isPresent() || finished);
    }

    private static void checkPage(long cursor, int maxBytes) {
        if (maxBytes < 1 || maxBytes > Terminal.MAX_PAGE_BYTES) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "maxBytes must be 1.." + Terminal.MAX_PAGE_BYTES + ", not " + maxBytes);
        }
        if (cursor < 0) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "cursor must not be negative");
        }
    }
}
