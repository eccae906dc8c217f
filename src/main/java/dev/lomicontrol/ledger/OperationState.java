package dev.lomicontrol.ledger;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/** The lifecycle of a durable operation (SPEC §6). Wire form is the lower-case name. */
public enum OperationState {
    QUEUED,
    AWAITING_USER,
    RUNNING,
    CANCELLING,
    SUCCEEDED,
    FAILED,
    CANCELLED,
    OUTCOME_UNKNOWN;

    /** The only allowed edges; everything else is refused. */
    public Set<OperationState> next() {
        switch (this) {
            case QUEUED:
                return EnumSet.of(AWAITING_USER, RUNNING, CANCELLED, FAILED);
            case AWAITING_USER:
                return EnumSet.of(QUEUED, CANCELLED, FAILED);
            case RUNNING:
                return EnumSet.of(SUCCEEDED, FAILED, CANCELLING, OUTCOME_UNKNOWN);
            case CANCELLING:
                return EnumSet.of(CANCELLED, SUCCEEDED, FAILED, OUTCOME_UNKNOWN);
            default:
                return EnumSet.noneOf(OperationState.class);
        }
    }

    public boolean isTerminal() {
        return this == SUCCEEDED || this == FAILED || this == CANCELLED || this == OUTCOME_UNKNOWN;
    }

    /** Whether an effect may already have been dispatched from this state. */
    public boolean isDispatched() {
        return this == RUNNING || this == CANCELLING;
    }

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static OperationState fromWire(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
