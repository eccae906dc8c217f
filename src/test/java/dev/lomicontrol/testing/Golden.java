package dev.lomicontrol.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Checked-in golden files for wire forms ({@code src/test/resources/golden/FAMILY/NAME.json}): the
 * wire is append-only, so any change to a field — renamed, removed, retyped, reordered — shows up
 * as a failing diff, and a deliberate change shows up as a diff of the golden file in review.
 * After a deliberate change regenerate with {@code -Dlomi.golden.update=true} (as for
 * {@code CatalogGoldenTests}) and review the diff.
 */
public final class Golden {

    public static final Path ROOT = Path.of("src/test/resources/golden");

    private static final JsonMapper PRETTY =
            JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
    private static final JsonMapper PLAIN = JsonMapper.builder().build();

    private Golden() {}

    /** Compares the wire bytes {@code json} (as the real writer produced them) with the golden file, pretty-printed in field order. */
    public static String pin(String family, String name, byte[] json) {
        return pin(family, name, new String(json, StandardCharsets.UTF_8));
    }

    public static String pin(String family, String name, String json) {
        Path file = ROOT.resolve(family).resolve(name + ".json");
        String text = PRETTY.writeValueAsString(PLAIN.readTree(json)) + "\n";
        try {
            if (Boolean.getBoolean("lomi.golden.update")) {
                Files.createDirectories(file.getParent());
                Files.writeString(file, text, StandardCharsets.UTF_8);
            }
            assertThat(Files.exists(file))
                    .as("%s exists (generate it with -Dlomi.golden.update=true)", file)
                    .isTrue();
            assertThat(text)
                    .as("the wire form of %s/%s (after a deliberate change: -Dlomi.golden.update=true)", family, name)
                    .isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
            return text;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static JsonNode tree(String json) {
        return PLAIN.readTree(json);
    }
}
