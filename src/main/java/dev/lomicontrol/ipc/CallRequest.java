package dev.lomicontrol.ipc;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Helper → broker inside TLS: one tool call. Exactly one may be in flight per connection. */
public record CallRequest(int ipcVersion, String requestId, String tool, JsonNode arguments) {

    /** The frame, written without a mapper (the helper's per-call path): the bytes {@code IpcJson.write(this)} gives. */
    public byte[] toFrame() {
        ObjectNode tree = JsonNodeFactory.instance
                .objectNode()
                .put("ipcVersion", ipcVersion)
                .put("requestId", requestId)
                .put("tool", tool);
        tree.set("arguments", arguments);
        return IpcJson.writeTree(tree);
    }
}
