package dev.lomicontrol.operations;

import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.PanelKind;
import java.util.Map;

/**
 * One feature's tools on the broker (terminal, browser, files, …): one bean per feature, collected
 * by Spring (and by the test fixture, from the same constructors). It registers a handler per tool
 * and answers the few questions the broker asks every feature. Only {@link #register} is required;
 * the defaults fit a feature with no sessions, no native stop, no panels and nothing to close.
 */
public interface ToolFeature extends AutoCloseable {

    /**
     * What a feature registers into, and what it may ask of every feature (the layout lists every
     * kind of panel; {@code lomi_operation_cancel} stops whatever feature runs the operation).
     *
     * @param handlers where each tool's handler goes (a tool already handled is refused)
     * @param panels every feature's live panels, by kind
     * @param stops every feature's native stop, asked in turn
     */
    record Wiring(ToolHandlers handlers, LivePanels panels, NativeStop stops) {}

    /** Registers one handler per tool of the feature; called once, after every feature is built. */
    void register(Wiring wiring);

    /** The session's connection is gone: whatever it holds in this feature (leases, browsers, …) ends. */
    default void sessionEnded(Session session) {}

    /**
     * {@code lomi_operation_cancel}: stops {@code operation} natively if this feature runs it (one
     * Ctrl+C, a provider stream), without blocking; returns whether it took the request.
     */
    default boolean requestStop(Operation operation) {
        return false;
    }

    /** The live panels this feature answers for, by kind; a kind belongs to one feature only. */
    default Map<PanelKind, LivePanels> panels() {
        return Map.of();
    }

    /** The broker closes: the feature's threads and native resources end. */
    @Override
    default void close() {}
}
