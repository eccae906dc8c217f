package dev.lomicontrol.ledger;

import dev.lomicontrol.core.ErrorCode;

/** The outcome of a state transition: moved (durably) or refused with the unchanged operation. */
public sealed interface TransitionResult {

    record Moved(Operation operation) implements TransitionResult {}

    record Refused(ErrorCode code, String message, Operation current) implements TransitionResult {}
}
