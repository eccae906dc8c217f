package dev.lomicontrol.mcp;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import dev.lomicontrol.tools.Hints;
import dev.lomicontrol.tools.ToolSpec;
import tools.jackson.databind.node.ObjectNode;

/**
 * One catalog entry. Invariants checked at construction: the name follows SEP-986
 * ({@code [A-Za-z0-9_.-]}, 1-128); the input schema is a closed object ({@code
 * additionalProperties:false}) with no composition keyword at its root (several model APIs refuse
 * a top-level oneOf/anyOf/allOf); the output schema's root is an object; every schema uses only the
 * subset {@link SchemaValidator} checks.
 *
 * @param constraint an extra schema the helper checks after {@code inputSchema} but does not
 *     publish — how a union input ("exactly one variant") is enforced natively (SPEC §5)
 * @param scope the grant scope the broker requires, for the status capability list
 * @param answeredBy whether the helper answers the call itself or forwards it to the broker
 * @param spec the tool's one declaration, when it has one: validation binds the arguments into its input record
 */
record ToolDefinition(
        String name,
        String title,
        String description,
        ObjectNode inputSchema,
        ObjectNode outputSchema,
        Effect effect,
        Optional<String> scope,
        Optional<ObjectNode> constraint,
        AnsweredBy answeredBy,
        Optional<ToolSpec<?>> spec) {

    enum AnsweredBy { HELPER, BROKER }

    private static final Pattern NAME = Pattern.compile("^[A-Za-z0-9_.-]{1,128}$");

    ToolDefinition {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("invalid tool name " + name);
        }
        if (!"object".equals(inputSchema.path("type").asString()) || !inputSchema.path("additionalProperties").isBoolean()
                || inputSchema.path("additionalProperties").asBoolean()) {
            throw new IllegalArgumentException(name + ": the input schema must be a closed object");
        }
        for (String keyword : List.of("oneOf", "anyOf", "allOf", "not", "if")) {
            if (inputSchema.has(keyword)) {
                throw new IllegalArgumentException(name + ": no '" + keyword + "' at the root of an input schema; use a constraint");
            }
        }
        if (!"object".equals(outputSchema.path("type").asString())) {
            throw new IllegalArgumentException(name + ": the output schema's root must be an object");
        }
        SchemaValidator.requireSupported(inputSchema);
        SchemaValidator.requireSupported(outputSchema);
        constraint.ifPresent(SchemaValidator::requireSupported);
    }

    /** A tool the broker answers. */
    static ToolDefinition broker(String name, String title, String description, Effect effect, String scope, ObjectNode input, ObjectNode data) {
        return new ToolDefinition(name, title, description, input, Schemas.envelope(data), effect, Optional.ofNullable(scope), Optional.empty(),
                AnsweredBy.BROKER, Optional.empty());
    }

    /** The catalog entry of a declared tool: schemas and annotations derived from its declaration. */
    static ToolDefinition of(ToolSpec<?> spec) {
        Effect effect = spec.effect() == dev.lomicontrol.tools.Effect.RO ? Effect.RO : spec.effect() == dev.lomicontrol.tools.Effect.OP ? Effect.OP : Effect.MUT;
        return new ToolDefinition(spec.name(), spec.title(), spec.description(), spec.inputSchema(), spec.outputSchema(), effect,
                Optional.of(spec.scope()).filter(scope -> !scope.isEmpty()), Optional.empty(), spec.helperAnswers() ? AnsweredBy.HELPER : AnsweredBy.BROKER, Optional.of(spec));
    }

    /** The MCP annotations: the declaration's hints, or (not yet declared tools) what the effect implies. */
    ObjectNode annotations() {
        if (spec.isEmpty()) {
            return effect.annotations(title);
        }
        Hints hints = spec.get().hints();
        ObjectNode annotations = McpJson.object();
        annotations.put("title", title);
        annotations.put("readOnlyHint", hints.readOnly());
        annotations.put("destructiveHint", hints.destructive());
        annotations.put("idempotentHint", hints.idempotent());
        annotations.put("openWorldHint", hints.openWorld());
        return annotations;
    }

    /** The same tool with an unpublished constraint checked after the input schema. */
    ToolDefinition withConstraint(ObjectNode extra) {
        return new ToolDefinition(name, title, description, inputSchema, outputSchema, effect, scope, Optional.of(extra), answeredBy, spec);
    }

    /** The {@code tools/list} entry as the negotiated version knows it (older revisions lack titles, output schemas, annotations). */
    ObjectNode listEntry(ProtocolVersion version) {
        ObjectNode entry = McpJson.object();
        entry.put("name", name);
        if (version.hasStructuredOutput()) {
            entry.put("title", title);
        }
        entry.put("description", description);
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
