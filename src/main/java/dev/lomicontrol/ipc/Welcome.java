package dev.lomicontrol.ipc;

import java.util.List;

/** Broker → helper, plaintext: the broker's certificate (base64 DER) and the pairing request to approve. */
public record Welcome(int ipcVersion, String instanceId, String certificate, String pairingRequestId) {

    private static final List<String> PROPERTIES =
            List.of("ipcVersion", "instanceId", "certificate", "pairingRequestId");

    /** Whether a frame is a Welcome rather than a refusal: it names a pairing request. */
    static boolean isWelcome(byte[] frame) {
        try {
            return IpcFrames.object(frame, "Welcome", PROPERTIES).has("pairingRequestId");
        } catch (dev.lomicontrol.core.LomiException notOne) {
            return false;
        }
    }

    /** Reads a frame without a mapper (the helper's side), as strictly as {@code IpcJson.read(frame, Welcome.class)}. */
    public static Welcome read(byte[] frame) {
        var object = IpcFrames.object(frame, "Welcome", PROPERTIES);
        return new Welcome(
                IpcFrames.integer(object, "ipcVersion", "Welcome"),
                IpcFrames.string(object, "instanceId", "Welcome"),
                IpcFrames.string(object, "certificate", "Welcome"),
                IpcFrames.string(object, "pairingRequestId", "Welcome"));
    }
}
