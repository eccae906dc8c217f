package dev.lomicontrol.core;

import org.jspecify.annotations.Nullable;

/**
 * A refusal or infrastructure fault that carries its {@link ErrorCode}. Expected domain outcomes are
 * values (sealed records); this exception is for broken preconditions deep in a call and for storage
 * or I/O faults.
 */
public class LomiException extends RuntimeException {

    private final ErrorCode code;
    private final String message;

    /** {@code message} says what was wrong and what to do next, in one sentence; it is checked by {@link ErrorMessages#of}. */
    public LomiException(ErrorCode code, String message) {
        this(code, message, null);
    }

    public LomiException(ErrorCode code, String message, @Nullable Throwable cause) {
        super(ErrorMessages.of(code, message), cause);
        this.code = code;
        this.message = java.util.Objects.requireNonNull(super.getMessage());
    }

    /** The message given at construction, checked: never null or blank, unlike a plain {@link Throwable}'s. */
    @Override
    public String getMessage() {
        return message;
    }

    public ErrorCode code() {
        return code;
    }

    @Override
    public String toString() {
        return code + ": " + getMessage();
    }
}
