package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Seeded random JSONC files (comments and blank runs between every token, trailing commas, tabs or
 * spaces, CRLF or LF, one-line or spread-out objects, the server map and our entry absent, empty,
 * partial or stale): every merge succeeds, parses, keeps every comment, and a second merge is a
 * no-op.
 */
class JsoncMergeSimulationTests {

    static final Path FILE = Path.of("/home/u/.config/Code/User/mcp.json");
    static final McpEntry ENTRY = new McpEntry(
            "/opt/lomi/bin/lomi-control",
            List.of(
                    "--mcp",
                    "--discovery-file",
                    "/d/agent-control/discovery.json",
                    "--discovery-key",
                    "ab".repeat(32)));
    static final JsonMapper LENIENT = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
            .enable(JsonReadFeature.ALLOW_TRAILING_COMMA)
            .build();

    @Test
    void randomJsoncFilesMergeValidlyKeepTheirCommentsAndSettle() {
        Random random = new Random(17);
        for (int run = 0; run < 400; run++) {
            Generator g = new Generator(random);
            String text = g.document();
            JsonMcpConfig config = new JsonMcpConfig(McpClient.Format.VSCODE_SERVERS, true);

            String merged = config.merge(FILE, Optional.of(text), ENTRY).orElse(text);

            assertThat(LENIENT.readTree(merged)
                            .get("servers")
                            .get(McpEntry.NAME)
                            .get("command")
                            .asString())
                    .as("run %d:\n%s", run, text)
                    .isEqualTo(ENTRY.command());
            assertThat(config.state(FILE, merged, Optional.of(ENTRY)).state()).isEqualTo(EntryState.CURRENT);
            assertThat(config.merge(FILE, Optional.of(merged), ENTRY))
                    .as("run %d:\n%s\n->\n%s", run, text, merged)
                    .isEmpty();
            for (String comment : g.comments) {
                assertThat(merged).as("run %d", run).contains(comment);
            }
        }
    }

    /** Builds one random document; every comment it writes is recorded. */
    static final class Generator {
        final Random random;
        final List<String> comments = new ArrayList<>();
        final String nl;
        final String unit;
        final boolean oneLine;
        int counter;

        Generator(Random random) {
            this.random = random;
            this.nl = random.nextBoolean() ? "\n" : "\r\n";
            this.unit = random.nextInt(3) == 0 ? "\t" : "  ";
            this.oneLine = random.nextInt(5) == 0;
        }

        String document() {
            List<String> members = new ArrayList<>();
            if (random.nextBoolean()) {
                members.add("\"theme\": \"dark\"");
            }
            int servers = random.nextInt(4);
            if (servers > 0) {
                List<String> entries = new ArrayList<>();
                if (servers > 1) {
                    entries.add("\"other\": {\"command\": \"/x\", \"args\": [\"1\"]}");
                }
                if (servers > 2) {
                    entries.add("\"lomi-control\": " + object(ours(), 3));
                }
                members.add(random.nextInt(members.size() + 1), "\"servers\": " + object(entries, 2));
            }
            if (random.nextBoolean()) {
                members.add("\"inputs\": []");
            }
            return trivia() + object(members, 1) + trivia() + nl;
        }

        private List<String> ours() {
            List<String> fields = new ArrayList<>();
            if (random.nextBoolean()) {
                fields.add("\"command\": \"/old/lomi-control\"");
            }
            if (random.nextBoolean()) {
                fields.add("\"env\": {\"A\": \"1\"}");
            }
            if (random.nextBoolean()) {
                fields.add("\"type\": \"stdio\"");
            }
            return fields;
        }

        private String object(List<String> members, int depth) {
            if (members.isEmpty()) {
                return random.nextBoolean() ? "{}" : "{" + trivia() + "}";
            }
            String indent = oneLine ? "" : unit.repeat(depth);
            String close = oneLine ? "" : nl + unit.repeat(depth - 1);
            StringBuilder out = new StringBuilder("{");
            for (int i = 0; i < members.size(); i++) {
                out.append(oneLine ? " " : nl + indent).append(trivia()).append(members.get(i));
                boolean last = i == members.size() - 1;
                if (!last || random.nextInt(3) == 0) {
                    out.append(',');
                }
                out.append(trivia());
            }
            return out.append(close).append(oneLine ? " }" : "}").toString();
        }

        /** Nothing, blanks, or a comment (line comments only where a line break follows). */
        private String trivia() {
            int kind = random.nextInt(oneLine ? 3 : 4);
            if (kind == 0) {
                return "";
            }
            if (kind == 1) {
                return " ";
            }
            String id = "c" + counter++;
            if (kind == 2) {
                String comment = "/* " + id + " */";
                comments.add(comment);
                return " " + comment + " ";
            }
            String comment = "// " + id;
            comments.add(comment);
            return " " + comment + nl + unit;
        }
    }
}
