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

    public LomiException(ErrorCode code, String message) {
        super(message);
        this.code = code;
        this.message = message;
    }

    public LomiException(ErrorCode code, String message, @Nullable Throwable cause) {
        super(message, cause);
        this.code = code;
        this.message = message;
    }

    /** The message given at construction: never null, unlike a plain {@link Throwable}'s. */
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
