package dev.lomicontrol.mcp;

import java.util.Optional;
import tools.jackson.databind.JsonNode;

/** The helper's schema validator, for tests in other packages: the first violation of a schema by a value. */
public final class SchemaVerdicts {

    private SchemaVerdicts() {}

    public static Optional<String> firstViolation(JsonNode schema, JsonNode value) {
        return SchemaValidator.firstViolation(schema, value, "value");
    }
}
