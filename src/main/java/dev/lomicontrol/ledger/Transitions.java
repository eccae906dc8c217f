package dev.lomicontrol.ledger;

import java.util.Optional;

/** The transition table and its effect rules (SPEC §6), as a pure function. */
public final class Transitions {

    private Transitions() {}

    /**
     * Returns why {@code from/fromEffect -> to/toEffect} is not allowed, or empty when it is.
     * Rules: only the listed edges; leaving queued/awaiting_user needs effect {@code none} on both
     * sides unless the work was dispatched; {@code outcome_unknown} needs {@code unknown};
     * {@code succeeded} needs {@code complete}; a known effect never becomes less known.
     */
    public static Optional<String> check(
            OperationState from, EffectState fromEffect, OperationState to, EffectState toEffect) {
        if (!from.next().contains(to)) {
            return Optional.of("transition " + from.wire() + " -> " + to.wire() + " is not allowed");
        }
        boolean leavingUndispatched = from == OperationState.QUEUED || from == OperationState.AWAITING_USER;
        if (leavingUndispatched && (fromEffect != EffectState.NONE || toEffect != EffectState.NONE)) {
            return Optional.of("leaving " + from.wire() + " requires effect none");
        }
        if (to == OperationState.OUTCOME_UNKNOWN && toEffect != EffectState.UNKNOWN) {
            return Optional.of("outcome_unknown requires effect unknown");
        }
        if (to == OperationState.SUCCEEDED && toEffect != EffectState.COMPLETE) {
            return Optional.of("succeeded requires effect complete");
        }
        if (to == OperationState.CANCELLED && from.isDispatched() && toEffect == EffectState.COMPLETE) {
            return Optional.of("cancelled cannot claim a complete effect");
        }
        if (fromEffect == EffectState.COMPLETE
                && toEffect != EffectState.COMPLETE
                && to != OperationState.OUTCOME_UNKNOWN) {
            return Optional.of("a complete effect cannot be taken back");
        }
        return Optional.empty();
    }
}
