package dev.lomicontrol.ipc;

import java.util.List;

/**
 * Broker → helper, plaintext, once the admin decided: {@code approved} (mutual TLS starts right
 * after this frame) or {@code denied} / {@code refused} (the connection closes), with a reason.
 */
public record PairingOutcome(String outcome, String message) {

    public static final String APPROVED = "approved";
    public static final String DENIED = "denied";
    public static final String REFUSED = "refused";

    private static final List<String> PROPERTIES = List.of("outcome", "message");

    /** Reads a frame without a mapper (the helper's side), as strictly as {@code IpcJson.read(frame, PairingOutcome.class)}. */
    public static PairingOutcome read(byte[] frame) {
        var object = IpcFrames.object(frame, "PairingOutcome", PROPERTIES);
        return new PairingOutcome(
                IpcFrames.string(object, "outcome", "PairingOutcome"),
                IpcFrames.string(object, "message", "PairingOutcome"));
    }
}
