package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/OPERATIONS.md "Scripting: --json" names, for each command below, the fields of its document
 * and of each row of a list (inside {@code [{…}]}); they are exactly the components of the {@link ConsoleJson}
 * records the command prints, in the same order. A field added, renamed or dropped on one side only
 * fails here.
 */
class ConsoleJsonDocsTests {

    private static final Pattern NAME = Pattern.compile("`([A-Za-z][A-Za-z0-9]*)`");

    static Stream<Arguments> documented() {
        return Stream.of(
                Arguments.of("workspace list", ConsoleJson.WorkspaceList.class),
                Arguments.of("panel list", ConsoleJson.PanelList.class),
                Arguments.of("episodes list", ConsoleJson.EpisodeList.class),
                Arguments.of("browser origins list", ConsoleJson.BrowserOrigins.class),
                Arguments.of("chat connection list", ConsoleJson.ChatConnections.class),
                Arguments.of("chat list", ConsoleJson.Chats.class),
                Arguments.of("session list", ConsoleJson.Sessions.class),
                Arguments.of("pairing list", ConsoleJson.Pairings.class),
                Arguments.of("terminal new", ConsoleJson.TerminalCreated.class),
                Arguments.of("browser screenshot", ConsoleJson.Screenshot.class),
                Arguments.of("terminal screen", ConsoleJson.TerminalScreen.class));
    }

    @ParameterizedTest(name = "{0} --json")
    @MethodSource("documented")
    void theDocumentedFieldsAreTheRecordsComponents(String command, Class<? extends Record> document)
            throws IOException {
        String cell = cell(command);
        int rows = cell.indexOf("[{");
        List<String> top =
                rows < 0 ? names(cell) : names(cell.substring(0, rows) + cell.substring(cell.lastIndexOf("}]") + 2));

        List<String> fields = new ArrayList<>();
        Class<?> row = null;
        for (RecordComponent component : document.getRecordComponents()) {
            fields.add(component.getName());
            if (component.getGenericType() instanceof ParameterizedType list
                    && list.getRawType() == List.class
                    && list.getActualTypeArguments()[0] instanceof Class<?> element
                    && element.isRecord()) {
                row = element;
            }
        }
        assertThat(top).as(command + " --json: the document's fields").isEqualTo(fields);
        assertThat(rows >= 0)
                .as(command + ": rows [{…}] are documented exactly when the record has a list of row records")
                .isEqualTo(row != null);
        if (row != null) {
            assertThat(names(cell.substring(rows + 2, cell.lastIndexOf("}]"))))
                    .as(command + " --json: each row's fields")
                    .isEqualTo(Stream.of(row.getRecordComponents())
                            .map(RecordComponent::getName)
                            .toList());
        }
    }

    /** The "document fields" cell of the command's row in the Scripting table. */
    private static String cell(String command) throws IOException {
        String docs = Files.readString(Path.of("docs/OPERATIONS.md"));
        String section = docs.substring(docs.indexOf("## Scripting: `--json`"));
        section = section.substring(0, section.indexOf("\n## ", 1));
        for (String line : section.lines().toList()) {
            if (line.startsWith("| `" + command + " ") && line.contains(" --json` |")) {
                return line.substring(line.indexOf("--json` |") + "--json` |".length(), line.lastIndexOf('|'));
            }
        }
        throw new AssertionError("docs/OPERATIONS.md \"Scripting: --json\" has no row for " + command + " --json");
    }

    /** The backquoted field names of {@code text}, leaving out what parentheses explain (values, notes). */
    private static List<String> names(String text) {
        StringBuilder outside = new StringBuilder();
        int depth = 0;
        for (char c : text.toCharArray()) {
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (depth == 0) {
                outside.append(c);
            }
        }
        List<String> names = new ArrayList<>();
        Matcher matcher = NAME.matcher(outside);
        while (matcher.find()) {
            names.add(matcher.group(1));
        }
        return names;
    }
}
