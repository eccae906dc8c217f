package dev.lomicontrol.mcp;

import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The helper's verdict on a call's arguments, from the real helper session (in process, no broker): for tests in other packages. */
public final class HelperValidation {

    private final InProcessServer server = new InProcessServer();
    private int id;

    /** The INVALID_ARGUMENT (or PAYLOAD_TOO_LARGE) message the helper answers, or empty when it let the call through. */
    public Optional<String> refusal(String tool, JsonNode arguments) throws InterruptedException {
        ObjectNode request = McpJson.object();
        request.put("jsonrpc", "2.0");
        request.put("id", ++id);
        request.put("method", "tools/call");
        ObjectNode params = request.putObject("params");
        params.put("name", tool);
        params.set("arguments", arguments);
        JsonNode answer = server.call(McpMapper.MAPPER.writeValueAsString(request));
        JsonNode envelope = answer.at("/result/structuredContent");
        String code = envelope.path("code").asString("");
        if (code.equals("INVALID_ARGUMENT") || code.equals("PAYLOAD_TOO_LARGE")) {
            return Optional.of(
                    envelope.path("message").asString().replaceFirst("^invalid arguments for " + tool + ": ", ""));
        }
        if (answer.has("error")) {
            throw new AssertionError("protocol error for " + tool + ": " + answer);
        }
        return Optional.empty();
    }
}
