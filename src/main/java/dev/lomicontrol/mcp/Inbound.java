package dev.lomicontrol.mcp;

import java.nio.charset.CharacterCodingException;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One line from the client, classified. {@link #parse} never throws: a line that is not a usable
 * message becomes {@link Invalid} carrying the error to answer and the id to answer it under
 * ({@code null} whenever the id could not be determined).
 */
sealed interface Inbound permits Inbound.Request, Inbound.Notification, Inbound.Response, Inbound.Invalid {

    /** A request: {@code id} is a string or an integer; {@code params} is an object (empty when absent). */
    record Request(JsonNode id, String method, ObjectNode params) implements Inbound {}

    /** A message without an id: never answered. */
    record Notification(String method, ObjectNode params) implements Inbound {}

    /** A response from the client (the helper sends no requests, so these are only logged). */
    record Response(JsonNode id) implements Inbound {}

    record Invalid(JsonNode id, RpcError error) implements Inbound {}

    /** Parses and classifies one line (strict UTF-8, one JSON value, JSON-RPC 2.0 envelope rules). */
    static Inbound parse(byte[] line) {
        JsonNode message;
        try {
            message = McpJson.parse(line);
        } catch (CharacterCodingException e) {
            return invalid(NullNode.instance, RpcError.PARSE_ERROR, "Parse error: the line is not valid UTF-8");
        } catch (JacksonException e) {
            return invalid(NullNode.instance, RpcError.PARSE_ERROR, "Parse error: " + e.getOriginalMessage());
        }
        if (message.isArray()) {
            return invalid(
                    NullNode.instance,
                    RpcError.INVALID_REQUEST,
                    "Invalid Request: JSON-RPC batches are not supported (removed in MCP 2025-06-18)");
        }
        if (!message.isObject()) {
            return invalid(
                    NullNode.instance, RpcError.INVALID_REQUEST, "Invalid Request: a message must be a JSON object");
        }
        return classify((ObjectNode) message);
    }

    private static Inbound classify(ObjectNode message) {
        JsonNode id = message.get("id");
        boolean hasId = id != null;
        if (hasId && !validId(id)) {
            return invalid(
                    NullNode.instance, RpcError.INVALID_REQUEST, "Invalid Request: id must be a string or an integer");
        }
        JsonNode answerId = hasId ? id : NullNode.instance;
        if (!message.path("jsonrpc").isString()
                || !"2.0".equals(message.path("jsonrpc").asString())) {
            return invalid(answerId, RpcError.INVALID_REQUEST, "Invalid Request: jsonrpc must be \"2.0\"");
        }
        if (!message.has("method")) {
            return hasId && (message.has("result") || message.has("error"))
                    ? new Response(id)
                    : invalid(answerId, RpcError.INVALID_REQUEST, "Invalid Request: method is missing");
        }
        if (!message.get("method").isString() || message.has("result") || message.has("error")) {
            return invalid(
                    answerId,
                    RpcError.INVALID_REQUEST,
                    "Invalid Request: method must be a string and a request has no result or error");
        }
        return withParams(hasId ? id : null, message.get("method").asString(), message.get("params"));
    }

    /** A request ({@code id} non-null) or notification; a malformed notification is still never answered. */
    private static Inbound withParams(@Nullable JsonNode id, String method, JsonNode params) {
        if (params == null || params.isObject()) {
            ObjectNode checked = params == null ? McpJson.object() : (ObjectNode) params;
            return id != null ? new Request(id, method, checked) : new Notification(method, checked);
        }
        if (id == null) {
            return new Notification(method, McpJson.object());
        }
        return invalid(
                id,
                params.isArray() ? RpcError.INVALID_PARAMS : RpcError.INVALID_REQUEST,
                "Invalid params: params must be an object");
    }

    private static boolean validId(JsonNode id) {
        return id.isString() || id.isIntegralNumber();
    }

    private static Invalid invalid(JsonNode id, int code, String message) {
        return new Invalid(id, RpcError.of(code, message));
    }
}
