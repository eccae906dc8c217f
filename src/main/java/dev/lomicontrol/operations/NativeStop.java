package dev.lomicontrol.operations;

import dev.lomicontrol.ledger.Operation;
import java.util.List;

/**
 * The hook through which {@code lomi_operation_cancel} asks the domain adapter running an operation
 * to stop it natively (a terminal: one Ctrl+C). Called only after the ledger durably moved the
 * operation to {@code cancelling}; the adapter settles it later through the ledger. A stop never
 * undoes an effect. Each feature answers for its own operations ({@link ToolFeature#requestStop});
 * {@link #firstOf} asks them in turn.
 */
@FunctionalInterface
public interface NativeStop {

    /** Nobody takes the request. */
    NativeStop NONE = operation -> false;

    /** The features asked in turn: the first that takes the request ends the chain. */
    static NativeStop firstOf(List<? extends ToolFeature> features) {
        return operation -> features.stream().anyMatch(feature -> feature.requestStop(operation));
    }

    /** Asks the adapter to stop {@code operation} without blocking; returns whether an adapter accepted the request. */
    boolean requestStop(Operation operation);
}
