package dev.lomicontrol.ledger;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.ErrorMessages;
import dev.lomicontrol.core.LomiException;

/**
 * The error an operation settles with: its code and the one-sentence message naming what was wrong
 * and the next step. The message is checked where it is made ({@link ErrorMessages#of}), so a stored
 * operation error is never without one.
 */
public record OperationError(ErrorCode code, String message) {

    public OperationError {
        message = ErrorMessages.of(code, message);
    }

    /** The code and message of a refusal. */
    public static OperationError of(LomiException refusal) {
        return new OperationError(refusal.code(), refusal.getMessage());
    }
}
