package dev.lomicontrol.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.catalog.ToolCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** A tool's name is written once: as a whole string literal it appears in exactly one main source file, its declaration. */
class ToolNamesTests {

    private static final Pattern LITERAL = Pattern.compile("\"(lomi_[a-z0-9_]+)\"");

    @Test
    void eachToolNameIsWrittenInOneMainSourceFile() throws IOException {
        Map<String, TreeSet<String>> files = new TreeMap<>();
        try (Stream<Path> sources = Files.walk(Path.of("src/main/java"))) {
            for (Path source :
                    sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher matcher = LITERAL.matcher(Files.readString(source));
                while (matcher.find()) {
                    files.computeIfAbsent(matcher.group(1), name -> new TreeSet<>())
                            .add(source.getFileName().toString());
                }
            }
        }
        List<String> repeated = new ArrayList<>();
        for (ToolSpec<?> spec : ToolCatalog.standard().all()) {
            TreeSet<String> where = files.getOrDefault(spec.name(), new TreeSet<>());
            if (where.size() != 1) {
                repeated.add(spec.name() + " in " + where);
            }
        }
        assertThat(repeated)
                .as("tool names written in more (or fewer) than one main file")
                .isEmpty();
        assertThat(files.keySet())
                .as("names that are no declared tool")
                .isSubsetOf(ToolCatalog.standard().all().stream()
                        .map(ToolSpec::name)
                        .toList());
    }
}
