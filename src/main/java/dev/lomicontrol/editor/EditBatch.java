package dev.lomicontrol.editor;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Checks a batch of edits against one text and produces the edited text, or refuses the whole batch:
 * 1–64 edits, strictly ascending and non-overlapping, {@code 0 ≤ from ≤ to ≤ length}, never splitting
 * a surrogate pair, inserts without CR, NUL or unpaired surrogates, no edit that changes nothing,
 * inserts at most 64 KiB (UTF-8) together and a result of at most 16 Mi UTF-16 units.
 */
final class EditBatch {

    static final int MAX_EDITS = 64;
    static final int MAX_INSERT_BYTES = 64 * 1024;
    static final int MAX_LENGTH_UTF16 = 16 * 1024 * 1024;

    private EditBatch() {}

    /** The text with every edit applied; INVALID_ARGUMENT or PAYLOAD_TOO_LARGE naming the first bad edit otherwise. */
    static String apply(String text, List<Edit> edits) {
        if (edits == null || edits.isEmpty() || edits.size() > MAX_EDITS) {
            throw invalid("an edit batch holds 1-" + MAX_EDITS + " edits");
        }
        long insertBytes = 0;
        long length = text.length();
        @Nullable Edit previous = null;
        for (int i = 0; i < edits.size(); i++) {
            Edit edit = edits.get(i);
            check(text, edit, previous, i);
            insertBytes += edit.insert().getBytes(StandardCharsets.UTF_8).length;
            length += edit.insert().length() - (edit.toUtf16() - edit.fromUtf16());
            previous = edit;
        }
        if (insertBytes > MAX_INSERT_BYTES) {
            throw new LomiException(
                    ErrorCode.PAYLOAD_TOO_LARGE,
                    "the inserts of one batch total " + insertBytes + " bytes; at most " + MAX_INSERT_BYTES);
        }
        if (length > MAX_LENGTH_UTF16) {
            throw new LomiException(
                    ErrorCode.PAYLOAD_TOO_LARGE,
                    "the edited buffer would exceed " + MAX_LENGTH_UTF16 + " UTF-16 units");
        }
        StringBuilder out = new StringBuilder((int) length);
        int copied = 0;
        for (Edit edit : edits) {
            out.append(text, copied, edit.fromUtf16()).append(edit.insert());
            copied = edit.toUtf16();
        }
        return out.append(text, copied, text.length()).toString();
    }

    private static void check(String text, Edit edit, @Nullable Edit previous, int index) {
        String which = "edit " + index + ": ";
        if (edit == null || edit.insert() == null) {
            throw invalid(which + "an edit needs fromUtf16, toUtf16 and insert");
        }
        int from = edit.fromUtf16();
        int to = edit.toUtf16();
        if (from < 0 || from > to || to > text.length()) {
            throw invalid(which + "range [" + from + ", " + to + ") is outside the buffer of " + text.length()
                    + " UTF-16 units or reversed");
        }
        if (previous != null && (from <= previous.fromUtf16() || from < previous.toUtf16())) {
            throw invalid(which + "edits must be strictly ascending and must not overlap");
        }
        if (splitsPair(text, from) || splitsPair(text, to)) {
            throw invalid(which + "an offset splits a surrogate pair");
        }
        checkInsert(which, edit.insert());
        if (text.regionMatches(from, edit.insert(), 0, edit.insert().length())
                && edit.insert().length() == to - from) {
            throw invalid(which + "the edit changes nothing");
        }
    }

    private static void checkInsert(String which, String insert) {
        for (int i = 0; i < insert.length(); i++) {
            char c = insert.charAt(i);
            if (c == '\r' || c == '\0') {
                throw invalid(which + "inserts are LF text without CR or NUL");
            }
            if (Character.isHighSurrogate(c)
                    && i + 1 < insert.length()
                    && Character.isLowSurrogate(insert.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw invalid(which + "the insert holds an unpaired surrogate");
            }
        }
    }

    private static boolean splitsPair(String text, int offset) {
        return offset > 0
                && offset < text.length()
                && Character.isHighSurrogate(text.charAt(offset - 1))
                && Character.isLowSurrogate(text.charAt(offset));
    }

    private static LomiException invalid(String message) {
        return new LomiException(ErrorCode.INVALID_ARGUMENT, message);
    }
}
