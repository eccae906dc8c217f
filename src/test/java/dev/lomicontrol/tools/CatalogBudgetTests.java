package dev.lomicontrol.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.catalog.ToolCatalog;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * What the catalog costs every model request of an agent, held in budgets ({@link ModelFacing}
 * bytes: name, description and input schema as compact JSON). A budget is the achieved figure
 * rounded up to the next 500 B, so the catalog cannot grow without a deliberate change here.
 */
class CatalogBudgetTests {

    private static final int CATALOG_BUDGET = 80_000;
    private static final int TOOL_BUDGET = 3_072;
    private static final int DESCRIPTION_BUDGET = 2_048;
    private static final int MEDIAN_DESCRIPTION_BUDGET = 300;
    private static final int NAME_LIMIT = 64;

    private static final Map<Toolset, Integer> TOOLSET_BUDGETS = new EnumMap<>(Map.ofEntries(
            Map.entry(Toolset.CORE, 3_500),
            Map.entry(Toolset.LAYOUT, 8_000),
            Map.entry(Toolset.TERMINAL, 7_000),
            Map.entry(Toolset.FILES, 5_000),
            Map.entry(Toolset.EDITOR, 5_000),
            Map.entry(Toolset.GIT, 7_500),
            Map.entry(Toolset.ARTIFACTS, 3_000),
            Map.entry(Toolset.SETTINGS, 6_000),
            Map.entry(Toolset.CHAT, 7_000),
            Map.entry(Toolset.BROWSER, 13_500),
            // 15,500 + 400 B for lomi_android_input's tap and swipe events, which save a call per tap, swipe or long
            // press
            Map.entry(Toolset.ANDROID, 16_000),
            Map.entry(Toolset.EPISODES, 1_000)));

    private final ToolCatalog catalog = ToolCatalog.standard();

    @Test
    void theWholeCatalogFitsItsBudget() {
        assertThat(ModelFacing.bytes(catalog.all())).isLessThanOrEqualTo(CATALOG_BUDGET);
    }

    @Test
    void noToolIsOverItsBudget() {
        List<String> over = new ArrayList<>();
        for (ToolSpec<?> spec : catalog.all()) {
            if (ModelFacing.bytes(spec) > TOOL_BUDGET) {
                over.add(spec.name() + " " + ModelFacing.bytes(spec) + " B > " + TOOL_BUDGET);
            }
        }
        assertThat(over).as("tools over their budgets").isEmpty();
    }

    @Test
    void noDescriptionIsOverItsBudgetAndTheTypicalOneIsShort() {
        List<Integer> sizes = new ArrayList<>();
        for (ToolSpec<?> spec : catalog.all()) {
            int size = utf8(spec.description());
            assertThat(size).as("%s's description", spec.name()).isLessThanOrEqualTo(DESCRIPTION_BUDGET);
            sizes.add(size);
        }
        assertThat(median(sizes)).as("the median description").isLessThanOrEqualTo(MEDIAN_DESCRIPTION_BUDGET);
    }

    @Test
    void eachToolsetFitsItsBudget() {
        StringBuilder table =
                new StringBuilder(String.format("%-10s %5s %8s %9s%n", "toolset", "tools", "bytes", "B/tool"));
        List<String> over = new ArrayList<>();
        for (Toolset toolset : Toolset.values()) {
            List<ToolSpec<?>> tools = catalog.all().stream()
                    .filter(spec -> catalog.toolset(spec) == toolset)
                    .toList();
            int bytes = ModelFacing.bytes(tools);
            table.append(String.format(
                    "%-10s %5d %8d %9d%n",
                    toolset.wireName(), tools.size(), bytes, tools.isEmpty() ? 0 : bytes / tools.size()));
            if (bytes > TOOLSET_BUDGETS.get(toolset)) {
                over.add(toolset.wireName() + " " + bytes + " B > " + TOOLSET_BUDGETS.get(toolset));
            }
        }
        int all = ModelFacing.bytes(catalog.all());
        table.append(String.format(
                "%-10s %5d %8d %9d%n",
                "all", catalog.all().size(), all, all / catalog.all().size()));
        System.out.print(table);
        assertThat(over).as("toolsets over their budgets").isEmpty();
    }

    @Test
    void noSchemaUsesReferences() {
        for (ToolSpec<?> spec : catalog.all()) {
            assertThat(references(spec.inputSchema()))
                    .as("%s input", spec.name())
                    .isEmpty();
            assertThat(references(ToolCatalog.standard().outputSchema(spec)))
                    .as("%s output", spec.name())
                    .isEmpty();
        }
    }

    @Test
    void toolNamesFitEveryClient() {
        for (ToolSpec<?> spec : catalog.all()) {
            assertThat(spec.name().length()).as(spec.name()).isLessThanOrEqualTo(NAME_LIMIT);
        }
    }

    /** The {@code $ref} and {@code $defs} keys anywhere in this schema. */
    private static List<String> references(JsonNode schema) {
        List<String> found = new ArrayList<>();
        if (schema.isObject()) {
            for (String key : schema.propertyNames()) {
                if (key.equals("$ref") || key.equals("$defs")) {
                    found.add(key);
                }
                found.addAll(references(schema.get(key)));
            }
        } else if (schema.isArray()) {
            schema.values().forEach(item -> found.addAll(references(item)));
        }
        return found;
    }

    private static int utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    private static int median(List<Integer> sizes) {
        List<Integer> sorted = sizes.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle) + 1) / 2;
    }
}
