package dev.lomicontrol.operations;

import dev.lomicontrol.ledger.Operation;

/**
 * The hook through which {@code lomi_operation_cancel} asks the domain adapter running an operation
 * to stop it natively (a terminal: one Ctrl+C). Called only after the ledger durably moved the
 * operation to {@code cancelling}; the adapter settles it later through the ledger. A stop never
 * undoes an effect. The default bean ({@link #NONE}) is a no-op until adapters arrive; an adapter
 * module replaces it.
 */
@FunctionalInterface
public interface NativeStop {

    /** No adapter runs anything yet: nobody takes the request. */
    NativeStop NONE = operation -> false;

    /** Asks the adapter to stop {@code operation} without blocking; returns whether an adapter accepted the request. */
    boolean requestStop(Operation operation);
}
