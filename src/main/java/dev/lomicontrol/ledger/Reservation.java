package dev.lomicontrol.ledger;

import dev.lomicontrol.core.ErrorCode;

/** The outcome of {@link Ledger#reserve}: a new receipt, the earlier one, or a refusal. */
public sealed interface Reservation {

    /** A new {@code queued/none} operation, durable before this value was returned. */
    record Reserved(Operation operation) implements Reservation {}

    /** The same key and fingerprint were reserved before: the earlier operation, nothing dispatched again. */
    record Duplicate(Operation operation) implements Reservation {}

    /** Nothing was written: epoch expired, idempotency conflict, cap reached, storage unavailable, … */
    record Refused(ErrorCode code, String message) implements Reservation {}
}
