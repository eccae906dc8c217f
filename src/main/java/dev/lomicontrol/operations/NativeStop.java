package dev.lomicontrol.operations;

import dev.lomicontrol.ledger.Operation;

/**
 * The hook through which {@code lomi_operation_cancel} asks the domain adapter running an operation
 * to stop it natively (a terminal: one Ctrl+C). Called only after the ledger durably moved the
 * operation to {@code cancelling}; the adapter settles it later through the ledger. A stop never
 * undoes an effect. The features are asked first ({@link ToolFeature#requestStop}); this bean is
 * asked last, when none took the request: {@link #NONE} in the broker, a recorder in tests.
 */
@FunctionalInterface
public interface NativeStop {

    /** Nobody takes the request. */
    NativeStop NONE = operation -> false;

    /** Asks the adapter to stop {@code operation} without blocking; returns whether an adapter accepted the request. */
    boolean requestStop(Operation operation);
}
