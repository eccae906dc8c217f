package dev.lomicontrol.core;

/**
 * A refusal or infrastructure fault that carries its {@link ErrorCode}. Expected domain outcomes are
 * values (sealed records); this exception is for broken preconditions deep in a call and for storage
 * or I/O faults.
 */
public class LomiException extends RuntimeException {

    private final ErrorCode code;

    public LomiException(ErrorCode code, String message) {
        super(message);
        this.code = code;
    }

    public LomiException(ErrorCode code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }

    @Override
    public String toString() {
        return code + ": " + getMessage();
    }
}
