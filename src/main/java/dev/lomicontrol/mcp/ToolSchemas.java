package dev.lomicontrol.mcp;

import dev.lomicontrol.catalog.ToolCatalog;
import dev.lomicontrol.tools.ToolSpec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Every declared tool's published schemas, derived from the declarations by the build (the
 * {@code tool-schemas} step of {@code pom.xml} runs {@link #main}) and read back by the helper at
 * start. Deriving them walks every input and output record by reflection — about 150 ms of a new
 * helper's CPU, and hundreds of methods for its one compiler thread while an agent's first calls
 * arrive; reading them back is splitting lines, and {@code tools/list} sends the bytes as they are.
 * The declarations stay the only source: the file is a build output, never edited, and
 * {@code ToolSchemasTests} holds it equal to what the declarations derive now.
 *
 * <p>The file ({@value #RESOURCE}, next to this class) has one line per tool in catalog order:
 * {@code name TAB inputSchema TAB outputSchema}, each schema compact JSON (which never holds a raw
 * tab or newline: control characters in strings are escaped).
 */
final class ToolSchemas {

    static final String RESOURCE = "tool-schemas.tsv";

    /** One tool's schemas as built: compact JSON, written by {@link ToolDefinition#of} (which checked them). */
    record Built(String name, byte[] inputJson, byte[] outputJson) {}

    private ToolSchemas() {}

    /** Build step: writes the schemas of every declared tool to {@code args[0]}. */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: ToolSchemas OUTPUT_FILE");
        }
        Path file = Path.of(args[0]);
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.write(file, derived(ToolCatalog.standard().all()));
    }

    /** The file's bytes for these declarations, deriving each one's schemas. */
    static byte[] derived(List<ToolSpec<?>> specs) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 19);
        for (ToolSpec<?> spec : specs) {
            byte[] name = spec.name().getBytes(StandardCharsets.UTF_8);
            out.write(name, 0, name.length);
            out.write('\t');
            ToolDefinition tool = ToolDefinition.of(spec);
            byte[] input = tool.inputJson();
            out.write(input, 0, input.length);
            out.write('\t');
            byte[] output = tool.outputJson();
            out.write(output, 0, output.length);
            out.write('\n');
        }
        return out.toByteArray();
    }

    /**
     * The built schemas of exactly these declarations, in their order; empty when the class path has
     * no built file (a class path the build did not make) or when it names other tools than {@code specs}
     * (a file left from an older build).
     */
    static Optional<List<Built>> built(List<ToolSpec<?>> specs) {
        byte[] file;
        try (InputStream in = ToolSchemas.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return Optional.empty();
            }
            file = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return read(specs, file);
    }

    /** {@link #built} of a file's bytes. */
    static Optional<List<Built>> read(List<ToolSpec<?>> specs, byte[] file) {
        List<Built> built = new ArrayList<>(specs.size());
        int at = 0;
        for (ToolSpec<?> spec : specs) {
            int end = indexOf(file, (byte) '\n', at);
            int firstTab = indexOf(file, (byte) '\t', at);
            int secondTab = firstTab < 0 ? -1 : indexOf(file, (byte) '\t', firstTab + 1);
            if (end < 0 || firstTab < 0 || secondTab < 0 || secondTab > end) {
                return Optional.empty();
            }
            String name = new String(file, at, firstTab - at, StandardCharsets.UTF_8);
            if (!name.equals(spec.name())) {
                return Optional.empty();
            }
            byte[] input = Arrays.copyOfRange(file, firstTab + 1, secondTab);
            byte[] output = Arrays.copyOfRange(file, secondTab + 1, end);
            if (!looksLikeAnObject(input) || !looksLikeAnObject(output)) {
                return Optional.empty();
            }
            built.add(new Built(name, input, output));
            at = end + 1;
        }
        return at == file.length ? Optional.of(List.copyOf(built)) : Optional.empty();
    }

    /** Braces at both ends: a cut line is refused here; the bytes themselves are the build's (ToolSchemasTests). */
    private static boolean looksLikeAnObject(byte[] json) {
        return json.length >= 2 && json[0] == '{' && json[json.length - 1] == '}';
    }

    private static int indexOf(byte[] bytes, byte wanted, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == wanted) {
                return i;
            }
        }
        return -1;
    }
}
