package dev.lomicontrol.mcp;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The helper's JSON rules ({@link McpJson#FACTORY}: strict duplicates, nesting depth) as a Jackson
 * mapper, for tests that read or write the helper's lines with databind. The helper itself builds
 * no mapper (ADR 0015); {@code McpJsonTests} holds the two to the same trees and bytes.
 */
final class McpMapper {

    static final JsonMapper MAPPER = JsonMapper.builder(McpJson.FACTORY)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private McpMapper() {}
}
