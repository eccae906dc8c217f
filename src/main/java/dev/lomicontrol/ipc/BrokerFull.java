package dev.lomicontrol.ipc;

import java.util.List;

/**
 * Broker → helper, plaintext, instead of {@link Welcome} and before any TLS: every connection slot is taken
 * ({@code connected} of {@code maxConnections}, the setting {@link #SETTING}). The broker closes the
 * connection after it; the helper retries with a short backoff and connects as soon as a slot frees.
 */
public record BrokerFull(String outcome, String message, int maxConnections, int connected) {

    public static final String BROKER_FULL = "broker_full";
    /** The broker setting that sets the cap, named in every refusal and error. */
    public static final String SETTING = "lomi.control.max-connections";

    private static final List<String> PROPERTIES = List.of("outcome", "message", "maxConnections", "connected");

    /** The refusal the broker sends when {@code connected} of {@code maxConnections} slots are taken. */
    public static BrokerFull of(int maxConnections, int connected) {
        return new BrokerFull(
                BROKER_FULL,
                "the broker is full: " + connected + " of " + maxConnections + " connections are in use (" + SETTING
                        + "=" + maxConnections + ")",
                maxConnections,
                connected);
    }

    /** Whether a frame is this refusal (rather than a {@link Welcome} or a {@link PairingOutcome}). */
    static boolean isBrokerFull(byte[] frame) {
        try {
            return BROKER_FULL.equals(
                    IpcFrames.string(IpcFrames.object(frame, "BrokerFull", PROPERTIES), "outcome", "BrokerFull"));
        } catch (dev.lomicontrol.core.LomiException notOne) {
            return false;
        }
    }

    /** Reads a frame without a mapper (the helper's side), as strictly as {@code IpcJson.read(frame, BrokerFull.class)}. */
    public static BrokerFull read(byte[] frame) {
        var object = IpcFrames.object(frame, "BrokerFull", PROPERTIES);
        return new BrokerFull(
                IpcFrames.string(object, "outcome", "BrokerFull"),
                IpcFrames.string(object, "message", "BrokerFull"),
                IpcFrames.integer(object, "maxConnections", "BrokerFull"),
                IpcFrames.integer(object, "connected", "BrokerFull"));
    }
}
