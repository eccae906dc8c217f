package dev.lomicontrol.episodes;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;

/**
 * The client's own durable name for its sitting (conversation or thread id), chosen by the client
 * and stable across reconnects; never the connection or session id. 1-256 characters, not blank,
 * one line, no control characters and no unpaired surrogates.
 */
public record ExternalId(String value) {

    public static final int MAX_LENGTH = 256;

    public ExternalId {
        if (value == null || value.isBlank()) {
            throw invalid("externalId must not be blank");
        }
        if (value.codePointCount(0, value.length()) > MAX_LENGTH) {
            throw invalid("externalId must be at most " + MAX_LENGTH + " characters");
        }
        if (!value.codePoints().allMatch(ExternalId::allowed)) {
            throw invalid("externalId must be one line without control characters");
        }
    }

    private static boolean allowed(int codePoint) {
        return !Character.isISOControl(codePoint)
                && codePoint != '\u2028'
                && codePoint != '\u2029'
                && (codePoint < Character.MIN_SURROGATE || codePoint > Character.MAX_SURROGATE);
    }

    private static LomiException invalid(String message) {
        return new LomiException(ErrorCode.INVALID_ARGUMENT, message);
    }

    @Override
    public String toString() {
        return value;
    }
}
