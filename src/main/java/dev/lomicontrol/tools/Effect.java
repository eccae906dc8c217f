package dev.lomicontrol.tools;

/**
 * What a tool does (SPEC §9): RO reads (no receipt); OP creates a durable operation keyed by
 * {@code retryEpoch} + {@code requestKey} (a repeat returns the earlier operation); ORDERED changes
 * state without a receipt, ordered by {@code inputSequence} (a repeat confirms the earlier send);
 * MUT changes state without a receipt where doing it twice is harmless (cancel, episode attach).
 * It decides the helper's resend rule: only a read may be sent again after an answer was lost.
 */
public enum Effect {
    RO,
    OP,
    ORDERED,
    MUT;

    public boolean mayResendAfterLostAnswer() {
        return this == RO;
    }
}
