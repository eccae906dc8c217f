package dev.lomicontrol.tools;

import java.nio.charset.StandardCharsets;
import java.util.List;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a tool costs a model: the bytes a client puts into every model request for it — its name,
 * description and input schema as one compact JSON object (the shape the Anthropic and OpenAI APIs
 * take; {@code title}, annotations and the output schema never reach the model). The catalog's
 * budgets are held in these bytes.
 */
public final class ModelFacing {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ModelFacing() {}

    /** The model-facing bytes of one tool. */
    public static int bytes(ToolSpec<?> spec) {
        ObjectNode tool = JsonNodeFactory.instance.objectNode();
        tool.put("name", spec.name());
        tool.put("description", spec.description());
        tool.set("input_schema", spec.inputSchema());
        return JSON.writeValueAsString(tool).getBytes(StandardCharsets.UTF_8).length;
    }

    /** The model-facing bytes of these tools together. */
    public static int bytes(List<ToolSpec<?>> specs) {
        int total = 0;
        for (ToolSpec<?> spec : specs) {
            total += bytes(spec);
        }
        return total;
    }
}
