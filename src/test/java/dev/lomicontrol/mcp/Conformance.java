package dev.lomicontrol.mcp;

import java.util.Optional;
import tools.jackson.databind.JsonNode;

/** For tests outside this package: the helper's own schema check of an answer against a published outputSchema. */
public final class Conformance {

    private Conformance() {}

    /** The first violation of {@code schema} by {@code value}, empty when it conforms. */
    public static Optional<String> violation(JsonNode schema, JsonNode value) {
        return SchemaValidator.firstViolation(schema, value, "structuredContent");
    }
}
