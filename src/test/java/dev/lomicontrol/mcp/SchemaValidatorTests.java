package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class SchemaValidatorTests {

    static final JsonNode SCHEMA = json(
            "{\"type\":\"object\",\"additionalProperties\":false,\"required\":[\"id\"],\"properties\":{"
                    + "\"id\":{\"type\":\"string\",\"minLength\":2,\"maxLength\":4,\"pattern\":\"^[a-z]+$\"},"
                    + "\"n\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":500},"
                    + "\"mode\":{\"type\":\"string\",\"enum\":[\"a\",\"b\"]},"
                    + "\"v\":{\"type\":\"integer\",\"const\":1},"
                    + "\"maybe\":{\"type\":[\"string\",\"null\"]},"
                    + "\"list\":{\"type\":\"array\",\"maxItems\":2,\"items\":{\"type\":\"object\",\"required\":[\"x\"],\"properties\":{\"x\":{\"type\":\"boolean\"}}}}}}");

    @Test
    void aConformingValueHasNoViolation() {
        assertThat(
                        violation(
                                "{\"id\":\"ab\",\"n\":500,\"mode\":\"b\",\"v\":1,\"maybe\":null,\"list\":[{\"x\":true,\"extra\":1}]}"))
                .isNull();
        assertThat(violation("{\"id\":\"abcd\",\"n\":1.0,\"maybe\":\"s\"}")).isNull();
    }

    @Test
    void eachKeywordReportsThePathOfTheOffendingField() {
        assertThat(violation("{}")).contains("arguments.id: is required");
        assertThat(violation("{\"id\":\"ab\",\"zzz\":1}")).startsWith("arguments.zzz: unknown field");
        assertThat(violation("{\"id\":7}")).startsWith("arguments.id: must be string");
        assertThat(violation("{\"id\":\"a\"}")).contains("at least 2");
        assertThat(violation("{\"id\":\"abcde\"}")).contains("at most 4");
        assertThat(violation("{\"id\":\"AB\"}")).contains("pattern");
        assertThat(violation("{\"id\":\"ab\",\"n\":0}")).startsWith("arguments.n: must be at least 1");
        assertThat(violation("{\"id\":\"ab\",\"n\":501}")).startsWith("arguments.n: must be at most 500");
        assertThat(violation("{\"id\":\"ab\",\"n\":1.5}")).startsWith("arguments.n: must be integer");
        assertThat(violation("{\"id\":\"ab\",\"mode\":\"c\"}")).startsWith("arguments.mode: must be one of");
        assertThat(violation("{\"id\":\"ab\",\"v\":2}")).startsWith("arguments.v: must be 1");
        assertThat(violation("{\"id\":\"ab\",\"maybe\":3}")).contains("string or null");
        assertThat(violation("{\"id\":\"ab\",\"list\":[{\"x\":1}]}"))
                .startsWith("arguments.list[0].x: must be boolean");
        assertThat(violation("{\"id\":\"ab\",\"list\":[{}]}")).startsWith("arguments.list[0].x: is required");
        assertThat(violation("{\"id\":\"ab\",\"list\":[{\"x\":true},{\"x\":true},{\"x\":true}]}"))
                .contains("at most 2 items");
        assertThat(SchemaValidator.firstViolation(SCHEMA, json("[]"), "arguments"))
                .contains("arguments: must be object, got an array");
    }

    @Test
    void lengthsCountCharactersNotUtf16Units() {
        assertThat(violation("{\"id\":\"\uD83D\uDC34\uD83D\uDC34\"}")).contains("pattern"); // 2 code points: length ok
        JsonNode schema = json("{\"type\":\"string\",\"maxLength\":2}");
        assertThat(SchemaValidator.firstViolation(schema, json("\"\uD83D\uDC34\uD83D\uDC34\""), "s"))
                .isEmpty();
    }

    @Test
    void aDollarMatchesOnlyAtTheEndOfTheValueAsInJsonSchema() {
        JsonNode schema = json("{\"type\":\"string\",\"pattern\":\"^[a-z]{1,3}$\"}");
        assertThat(SchemaValidator.firstViolation(schema, json("\"abc\""), "v")).isEmpty();
        assertThat(SchemaValidator.firstViolation(schema, json("\"abc\\n\""), "v"))
                .isPresent();
        assertThat(SchemaValidator.firstViolation(schema, json("\"abc\\r\\n\""), "v"))
                .isPresent();
        assertThat(SchemaValidator.firstViolation(json("{\"pattern\":\"^[$]+$\"}"), json("\"$$\""), "v"))
                .isEmpty();
        assertThat(SchemaValidator.endOfInput("^a\\$[$]$")).isEqualTo("^a\\$[$]\\z");
    }

    @Test
    void oneOfNeedsExactlyOneAlternativeAndSaysWhyEachFailed() {
        JsonNode union = json(
                "{\"oneOf\":[{\"description\":\"by id\",\"type\":\"object\",\"required\":[\"a\"],\"properties\":{\"a\":{}},"
                        + "\"additionalProperties\":false},{\"description\":\"by key\",\"type\":\"object\",\"required\":[\"b\"],\"properties\":{\"b\":{},\"c\":{}},"
                        + "\"additionalProperties\":false}]}");

        assertThat(SchemaValidator.firstViolation(union, json("{\"a\":1}"), "args"))
                .isEmpty();
        assertThat(SchemaValidator.firstViolation(union, json("{\"b\":1,\"c\":2}"), "args"))
                .isEmpty();
        assertThat(SchemaValidator.firstViolation(union, json("{\"a\":1,\"b\":1}"), "args")
                        .orElseThrow())
                .contains("exactly one")
                .contains("by id → args.b: unknown field")
                .contains("by key → args.a: unknown field");
        assertThat(SchemaValidator.firstViolation(union, json("{}"), "args").orElseThrow())
                .contains("args.a: is required")
                .contains("args.b: is required");
        JsonNode overlapping = json("{\"oneOf\":[{\"type\":\"object\"},{\"type\":\"object\"}]}");
        assertThat(SchemaValidator.firstViolation(overlapping, json("{}"), "x").orElseThrow())
                .contains("more than one");
    }

    @Test
    void anyOfNeedsAtLeastOneAlternative() {
        JsonNode either = json("{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"integer\",\"minimum\":0}]}");

        assertThat(SchemaValidator.firstViolation(either, json("\"s\""), "x")).isEmpty();
        assertThat(SchemaValidator.firstViolation(either, json("3"), "x")).isEmpty();
        assertThat(SchemaValidator.firstViolation(either, json("-1"), "x").orElseThrow())
                .contains("at least one")
                .contains("at least 0");
    }

    @Test
    void aKeywordOutsideTheSubsetIsRefusedRatherThanIgnored() {
        assertThatThrownBy(() -> SchemaValidator.requireSupported(
                        json("{\"type\":\"object\",\"properties\":{\"a\":{\"format\":\"uri\"}}}")))
                .hasMessageContaining("format");
        assertThatThrownBy(() -> SchemaValidator.firstViolation(json("{\"allOf\":[]}"), json("1"), "x"))
                .hasMessageContaining("allOf");
    }

    /** The violation message, or null when the value conforms. */
    private static String violation(String value) {
        return SchemaValidator.firstViolation(SCHEMA, json(value), "arguments").orElse(null);
    }

    static JsonNode json(String text) {
        return McpMapper.MAPPER.readTree(text);
    }
}
