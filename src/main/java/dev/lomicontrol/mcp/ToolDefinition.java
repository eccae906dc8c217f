package dev.lomicontrol.mcp;

import dev.lomicontrol.tools.Effect;
import dev.lomicontrol.tools.Hints;
import dev.lomicontrol.tools.ToolSpec;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * One catalog entry as the helper serves it: a tool's declaration ({@link ToolSpec}) with its
 * schemas derived once. Invariants checked at construction: the input schema is a closed object
 * with no composition keyword at its root (several model APIs refuse a top-level oneOf/anyOf), the
 * output schema's root is an object, and both use only the subset {@link SchemaValidator} checks.
 */
record ToolDefinition(ToolSpec<?> spec, ObjectNode inputSchema, ObjectNode outputSchema) {

    enum AnsweredBy {
        HELPER,
        BROKER
    }

    ToolDefinition {
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
    }

    /** The catalog entry of a declared tool: schemas and annotations derived from its declaration. */
    static ToolDefinition of(ToolSpec<?> spec) {
        return new ToolDefinition(spec, spec.inputSchema(), spec.outputSchema());
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
        return Optional.of(spec.scope()).filter(scope -> !scope.isEmpty());
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

    /** The {@code tools/list} entry as the negotiated version knows it (older revisions lack titles, output schemas, annotations). */
    ObjectNode listEntry(ProtocolVersion version) {
        ObjectNode entry = McpJson.object();
        entry.put("name", spec.name());
        if (version.hasStructuredOutput()) {
            entry.put("title", spec.title());
        }
        entry.put("description", spec.description());
        entry.set("inputSchema", inputSchema);
        if (version.hasStructuredOutput()) {
            entry.set("outputSchema", outputSchema);
        }
        if (version.hasToolAnnotations()) {
            entry.set("annotations", annotations());
        }
        return entry;
    }
}
