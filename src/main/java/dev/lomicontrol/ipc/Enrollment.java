package dev.lomicontrol.ipc;

import tools.jackson.databind.node.JsonNodeFactory;

/** Helper → broker, plaintext, first frame: who is asking and with which session certificate (base64 DER). */
public record Enrollment(int ipcVersion, String instanceId, String clientLabel, String certificate) {

    /** The frame, written without a mapper (the helper's side): the bytes {@code IpcJson.write(this)} gives. */
    public byte[] toFrame() {
        return IpcFrames.write(JsonNodeFactory.instance
                .objectNode()
                .put("ipcVersion", ipcVersion)
                .put("instanceId", instanceId)
                .put("clientLabel", clientLabel)
                .put("certificate", certificate));
    }
}
