package dev.lomicontrol.ipc;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Broker → helper inside TLS: the result envelope of SPEC §4 for the request with the same id. */
public record CallResponse(String requestId, JsonNode result) {

    /**
     * The frame, written without a mapper (the broker's per-call path): the bytes {@code IpcJson.write(this)} gives.
     * The helper reads it with {@link CallAnswer}.
     */
    public byte[] toFrame() {
        ObjectNode tree = JsonNodeFactory.instance.objectNode().put("requestId", requestId);
        tree.set("result", result);
        return IpcFrames.write(tree);
    }
}
