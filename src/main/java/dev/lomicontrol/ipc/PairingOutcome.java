package dev.lomicontrol.ipc;

/**
 * Broker → helper, plaintext, once the admin decided: {@code approved} (mutual TLS starts right
 * after this frame) or {@code denied} / {@code refused} (the connection closes), with a reason.
 */
public record PairingOutcome(String outcome, String message) {

    public static final String APPROVED = "approved";
    public static final String DENIED = "denied";
    public static final String REFUSED = "refused";
}
