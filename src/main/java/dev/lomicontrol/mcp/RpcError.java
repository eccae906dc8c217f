package dev.lomicontrol.mcp;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A JSON-RPC error object. The codes are the JSON-RPC 2.0 ones plus MCP 2026-07-28's
 * UnsupportedProtocolVersion; the helper never uses -32000/-32001 (clients use them locally for
 * a closed connection and a timeout) nor an application code.
 */
record RpcError(int code, String message, @Nullable JsonNode data) {

    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;
    static final int INTERNAL_ERROR = -32603;
    static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

    static RpcError of(int code, String message) {
        return new RpcError(code, message, null);
    }

    ObjectNode toJson() {
        ObjectNode error = McpJson.object();
        error.put("code", code);
        error.put("message", message);
        if (data != null) {
            error.set("data", data);
        }
        return error;
    }
}
