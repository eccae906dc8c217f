package dev.lomicontrol.mcp;

import dev.lomicontrol.tools.Effect;
import dev.lomicontrol.tools.Hints;
import dev.lomicontrol.tools.ToolSpec;
import java.nio.charset.CharacterCodingException;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.node.ObjectNode;

/**
 * One catalog entry as the helper serves it: a tool's declaration ({@link ToolSpec}) with its
 * schemas as compact JSON. Invariants checked where the schemas are derived ({@link #of}): the input
 * schema is a closed object with no composition keyword at its root (several model APIs refuse a
 * top-level oneOf/anyOf), the output schema's root is an object, and both use only the subset
 * {@link SchemaValidator} checks. An entry of the build's schemas ({@link #built}) holds bytes that
 * {@link #of} checked and wrote at build time; it parses them only when a tree is asked for
 * ({@code tools/list} sends the bytes as they are).
 */
final class ToolDefinition {

    enum AnsweredBy {
        HELPER,
        BROKER
    }

    /** One published schema: the compact JSON it is sent as, and its tree once one was needed. */
    private static final class Schema {

        private final String tool;
        private final byte[] json;
        private volatile @Nullable ObjectNode tree;

        Schema(String tool, byte[] json, @Nullable ObjectNode tree) {
            this.tool = tool;
            this.json = json;
            this.tree = tree;
        }

        ObjectNode tree() {
            ObjectNode parsed = tree;
            if (parsed == null) {
                parsed = parse();
                tree = parsed;
            }
            return parsed;
        }

        private ObjectNode parse() {
            try {
                if (McpJson.parse(json) instanceof ObjectNode object) {
                    return object;
                }
            } catch (CharacterCodingException | JacksonException e) {
                throw new IllegalStateException(tool + ": its built schema is not JSON", e);
            }
            throw new IllegalStateException(tool + ": its built schema is not an object");
        }
    }

    private final ToolSpec<?> spec;
    private final Schema input;
    private final Schema output;

    private ToolDefinition(ToolSpec<?> spec, Schema input, Schema output) {
        this.spec = spec;
        this.input = input;
        this.output = output;
    }

    /** The catalog entry of a declared tool: schemas derived from its declaration now, and checked. */
    static ToolDefinition of(ToolSpec<?> spec) {
        ObjectNode inputSchema = spec.inputSchema();
        ObjectNode outputSchema = dev.lomicontrol.catalog.ToolCatalog.standard().outputSchema(spec);
        String name = spec.name();
        if (!"object".equals(inputSchema.path("type").asString())
                || !inputSchema.path("additionalProperties").isBoolean()
                || inputSchema.path("additionalProperties").asBoolean()) {
            throw new IllegalArgumentException(name + ": the input schema must be a closed object");
        }
        for (String keyword : List.of("oneOf", "anyOf", "allOf", "not", "if")) {
            if (inputSchema.has(keyword)) {
                throw new IllegalArgumentException(name + ": no '" + keyword + "' at the root of an input schema");
            }
        }
        if (!"object".equals(outputSchema.path("type").asString())) {
            throw new IllegalArgumentException(name + ": the output schema's root must be an object");
        }
        SchemaValidator.requireSupported(inputSchema);
        SchemaValidator.requireSupported(outputSchema);
        return new ToolDefinition(
                spec,
                new Schema(name, McpJson.line(inputSchema), inputSchema),
                new Schema(name, McpJson.line(outputSchema), outputSchema));
    }

    /** The entry of a declared tool with the schemas {@link #of} derived and wrote at build time ({@link ToolSchemas}). */
    static ToolDefinition built(ToolSpec<?> spec, byte[] inputJson, byte[] outputJson) {
        return new ToolDefinition(
                spec, new Schema(spec.name(), inputJson, null), new Schema(spec.name(), outputJson, null));
    }

    ToolSpec<?> spec() {
        return spec;
    }

    /** The published input schema (for an entry of the build's schemas parsed at its first use, then kept). */
    ObjectNode inputSchema() {
        return input.tree();
    }

    /** The published output schema (for an entry of the build's schemas parsed at its first use, then kept). */
    ObjectNode outputSchema() {
        return output.tree();
    }

    /** The input schema as the compact JSON it is published as. */
    byte[] inputJson() {
        return input.json.clone();
    }

    /** The output schema as the compact JSON it is published as. */
    byte[] outputJson() {
        return output.json.clone();
    }

    String name() {
        return spec.name();
    }

    String title() {
        return spec.title();
    }

    Effect effect() {
        return spec.effect();
    }

    /** The grant scope the broker requires; empty for the helper's own tools. */
    Optional<String> scope() {
        return Optional.of(spec.scope().name()).filter(scope -> !scope.isEmpty());
    }

    AnsweredBy answeredBy() {
        return spec.helperAnswers() ? AnsweredBy.HELPER : AnsweredBy.BROKER;
    }

    /** The MCP annotations: the declaration's hints (the reference's), never consent. */
    ObjectNode annotations() {
        Hints hints = spec.hints();
        ObjectNode annotations = McpJson.object();
        annotations.put("title", spec.title());
        annotations.put("readOnlyHint", hints.readOnly());
        annotations.put("destructiveHint", hints.destructive());
        annotations.put("idempotentHint", hints.idempotent());
        annotations.put("openWorldHint", hints.openWorld());
        return annotations;
    }

    /**
     * The {@code tools/list} entry as the negotiated version knows it (older revisions lack titles,
     * output schemas, annotations); its schemas are nodes that {@link McpJson} writes as their bytes.
     */
    ObjectNode listEntry(ProtocolVersion version) {
        ObjectNode entry = McpJson.object();
        entry.put("name", spec.name());
        if (version.hasStructuredOutput()) {
            entry.put("title", spec.title());
        }
        entry.put("description", spec.description());
        entry.set("inputSchema", RawJson.value(input.json));
        if (version.hasStructuredOutput()) {
            entry.set("outputSchema", RawJson.value(output.json));
        }
        if (version.hasToolAnnotations()) {
            entry.set("annotations", annotations());
        }
        return entry;
    }
}
