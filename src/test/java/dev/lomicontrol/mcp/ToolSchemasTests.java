package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.catalog.ToolCatalog;
import dev.lomicontrol.tools.ToolSpec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The schemas the helper reads at start are the ones the declarations derive: the build's file is
 * exactly today's derivation, and a file that does not fit the declarations is never used.
 */
class ToolSchemasTests {

    private static final List<ToolSpec<?>> SPECS = ToolCatalog.standard().all();

    @Test
    void theBuiltFileIsExactlyWhatTheDeclarationsDeriveNow() throws IOException {
        byte[] built;
        try (InputStream in = ToolSchemas.class.getResourceAsStream(ToolSchemas.RESOURCE)) {
            assertThat(in)
                    .as(
                            "%s on the class path: the build's tool-schemas step makes it (./mvnw process-classes)",
                            ToolSchemas.RESOURCE)
                    .isNotNull();
            built = in.readAllBytes();
        }
        assertThat(new String(built, StandardCharsets.UTF_8))
                .isEqualTo(new String(ToolSchemas.derived(SPECS), StandardCharsets.UTF_8));
        assertThat(ToolSchemas.built(SPECS))
                .hasValueSatisfying(all -> assertThat(all).hasSize(SPECS.size()));
    }

    /** Read back, each tool's schemas are the JSON its declaration derives. */
    @Test
    void readBackEachToolHasTheSchemasItsDeclarationDerives() {
        List<ToolSchemas.Built> built =
                ToolSchemas.read(SPECS, ToolSchemas.derived(SPECS)).orElseThrow();
        for (int i = 0; i < SPECS.size(); i++) {
            ToolSpec<?> spec = SPECS.get(i);
            assertThat(built.get(i).name()).isEqualTo(spec.name());
            assertThat(new String(built.get(i).inputJson(), StandardCharsets.UTF_8))
                    .isEqualTo(McpJson.string(spec.inputSchema()));
            assertThat(new String(built.get(i).outputJson(), StandardCharsets.UTF_8))
                    .isEqualTo(McpJson.string(ToolCatalog.standard().outputSchema(spec)));
        }
    }

    @Test
    void aFileForOtherDeclarationsIsNotUsed() {
        byte[] file = ToolSchemas.derived(SPECS);
        String text = new String(file, StandardCharsets.UTF_8);
        int firstLineEnd = text.indexOf('\n');
        // a tool missing, a tool more, a tool renamed, a tool's line cut short, a schema that is not JSON
        assertThat(ToolSchemas.read(SPECS, utf8(text.substring(firstLineEnd + 1))))
                .isEmpty();
        assertThat(ToolSchemas.read(SPECS, utf8(text + "lomi_extra\t{}\t{}\n"))).isEmpty();
        assertThat(ToolSchemas.read(SPECS, utf8(text.replaceFirst(SPECS.get(0).name(), "lomi_renamed"))))
                .isEmpty();
        assertThat(ToolSchemas.read(SPECS, Arrays.copyOf(file, file.length - 10)))
                .isEmpty();
        assertThat(ToolSchemas.read(
                        SPECS,
                        utf8(text.substring(0, text.indexOf('\t') + 1) + "{\"type\":"
                                + text.substring(text.indexOf('\t', text.indexOf('\t') + 1)))))
                .isEmpty();
        assertThat(ToolSchemas.read(SPECS, utf8(text.replaceFirst("\t\\{", "\t["))))
                .isEmpty();
        assertThat(ToolSchemas.read(SPECS, new byte[0])).isEmpty();
    }

    @Test
    void withoutBuiltSchemasTheCatalogDerivesTheSameEntries() {
        List<String> derived = published(Catalog.definitions(SPECS, Optional.empty()));
        List<String> built = published(Catalog.definitions(SPECS, ToolSchemas.built(SPECS)));
        assertThat(derived).hasSize(SPECS.size()).isEqualTo(built);
    }

    /** A tree asked of an entry of the build's schemas (result checks) is its bytes parsed (a number may come back as another node type of the same value). */
    @Test
    void anEntryOfTheBuiltSchemasParsesThemWhenATreeIsAskedFor() {
        List<ToolDefinition> built = Catalog.definitions(SPECS, ToolSchemas.built(SPECS));
        for (int i = 0; i < SPECS.size(); i++) {
            assertThat(McpJson.string(built.get(i).inputSchema()))
                    .isEqualTo(McpJson.string(SPECS.get(i).inputSchema()));
            assertThat(McpJson.string(built.get(i).outputSchema()))
                    .isEqualTo(McpJson.string(ToolCatalog.standard().outputSchema(SPECS.get(i))));
            assertThat(built.get(i).outputSchema()).isSameAs(built.get(i).outputSchema());
        }
    }

    private static List<String> published(List<ToolDefinition> definitions) {
        return definitions.stream()
                .map(tool -> McpJson.string(tool.listEntry(ProtocolVersion.V2025_11_25)))
                .toList();
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
