package dev.lomicontrol.mcp;

import tools.jackson.databind.node.ObjectNode;

/** The answer to one JSON-RPC request: a result object or an error. */
sealed interface Reply permits Reply.Success, Reply.Failure {

    record Success(ObjectNode result) implements Reply {}

    record Failure(RpcError error) implements Reply {}

    static Reply success(ObjectNode result) {
        return new Success(result);
    }

    static Reply failure(int code, String message) {
        return new Failure(RpcError.of(code, message));
    }
}
