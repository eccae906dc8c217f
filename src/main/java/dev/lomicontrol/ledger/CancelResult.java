package dev.lomicontrol.ledger;

/**
 * The outcome of a cancel request. Cancelling never undoes an effect: queued and awaiting_user work
 * becomes {@code cancelled/none}; running work becomes {@code cancelling} and the caller must send
 * the native stop request; anything else is returned unchanged.
 */
public sealed interface CancelResult {

    Operation operation();

    record Cancelled(Operation operation) implements CancelResult {}

    record StopRequested(Operation operation) implements CancelResult {}

    record Unchanged(Operation operation) implements CancelResult {}
}
