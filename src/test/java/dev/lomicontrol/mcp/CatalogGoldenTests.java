package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The whole {@code tools/list} (every tool's name, title, description, schemas and annotations) is
 * pinned in a checked-in file, so a change to any published contract shows up as a diff in review.
 * After a deliberate change, regenerate it with {@code -Dlomi.golden.update=true} and review the diff.
 */
class CatalogGoldenTests {

    static final Path GOLDEN = Path.of("src/test/resources/golden/tools-list.json");
    private static final JsonMapper PRETTY =
            JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    @Test
    void theWholeToolsListIsThePinnedOne() throws IOException {
        JsonNode listed = CatalogTests.listed(Catalog.standard(), ProtocolVersion.V2025_11_25);
        String text = PRETTY.writeValueAsString(listed) + "\n";
        if (Boolean.getBoolean("lomi.golden.update")) {
            Files.writeString(GOLDEN, text, StandardCharsets.UTF_8);
        }
        assertThat(Files.exists(GOLDEN))
                .as("%s exists (generate it with -Dlomi.golden.update=true)", GOLDEN)
                .isTrue();
        assertThat(text).isEqualTo(Files.readString(GOLDEN, StandardCharsets.UTF_8));
        assertThat(listed.get("tools").size()).isEqualTo(77);
    }
}
