package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.catalog.ToolCatalog;
import dev.lomicontrol.testing.InteropPackages;
import dev.lomicontrol.testing.InteropTest;
import dev.lomicontrol.testing.McpHelperProcess;
import dev.lomicontrol.tools.HostProbe;
import dev.lomicontrol.tools.ToolSelection;
import dev.lomicontrol.tools.ToolSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The official TypeScript SDK client ({@code interop/toolsets-client.mjs}) starts the real helper
 * with a toolset selection: {@code listTools()} succeeds (the SDK compiles every output schema it
 * lists) and lists exactly the selection's tools, and a call to a tool outside it comes back as an
 * error result naming the option. No broker: both happen in the helper, before pairing.
 */
class ToolsetsInteropTests extends InteropTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void withoutAnOptionTheSdkListsEveryTool() throws Exception {
        JsonNode result = run(List.of(), Map.of(), List.of());
        assertThat(names(result)).containsExactlyInAnyOrderElementsOf(expected(ToolSelection.all()));
        assertThat(names(result)).hasSize(ToolCatalog.standard().all().size());
    }

    @Test
    void withWhatRegistrationWritesOnThisHostTheSdkListsThoseToolsets() throws Exception {
        ToolSelection registered = HostProbe.current().toolsets();
        JsonNode result = run(registered.arguments(), Map.of(), List.of());
        assertThat(names(result))
                .containsExactlyInAnyOrderElementsOf(expected(registered))
                .contains("lomi_status", "lomi_terminal_run", "lomi_git_status");
        assertThat(names(result).stream().anyMatch(name -> name.startsWith("lomi_android_")))
                .as("the android tools exactly where adb is found")
                .isEqualTo(HostProbe.current().adb().isPresent());
    }

    @Test
    void withToolsetsAllTheSdkListsEveryTool() throws Exception {
        JsonNode result = run(List.of("--toolsets", "all"), Map.of(), List.of());
        assertThat(names(result)).containsExactlyInAnyOrderElementsOf(expected(ToolSelection.parse("all", false)));
    }

    @Test
    void withReadOnlyTheSdkListsOnlyReadOnlyToolsAndAMutatingOneIsRefusedNamingTheOption() throws Exception {
        JsonNode result = run(List.of("--read-only"), Map.of(), List.of("lomi_files_mutate"));
        List<String> expected = expected(ToolSelection.parse("all", true));
        assertThat(names(result)).containsExactlyInAnyOrderElementsOf(expected).doesNotContain("lomi_files_mutate");
        assertThat(expected)
                .contains("lomi_files_read")
                .hasSizeLessThan(ToolCatalog.standard().all().size());
        assertRefused(result, "lomi_files_mutate", "--read-only");
    }

    @Test
    void withCoreAndGitTheSdkListsThoseToolsetsAndATerminalToolIsRefusedNamingTheOption() throws Exception {
        JsonNode result = run(List.of("--toolsets", "core,git"), Map.of(), List.of("lomi_terminal_run", "lomi_status"));
        List<String> expected = expected(ToolSelection.parse("core,git", false));
        assertThat(names(result))
                .containsExactlyInAnyOrderElementsOf(expected)
                .contains("lomi_status", "lomi_git_status")
                .doesNotContain("lomi_terminal_run");
        assertRefused(result, "lomi_terminal_run", "--toolsets");
        List<String> capabilities = new ArrayList<>();
        result.at("/calls/lomi_status/structuredContent/data/capabilities")
                .forEach(capability -> capabilities.add(capability.path("name").asString()));
        assertThat(capabilities)
                .as("lomi_status lists the tools this helper serves")
                .containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void theEnvironmentChoosesTheToolsetsWhenTheClientConfigurationSetsIt() throws Exception {
        JsonNode result = run(
                List.of(),
                Map.of(ToolSelection.ENVIRONMENT, "core,git", ToolSelection.READ_ONLY_ENVIRONMENT, "1"),
                List.of("lomi_terminal_run"));
        assertThat(names(result)).containsExactlyInAnyOrderElementsOf(expected(ToolSelection.parse("core,git", true)));
        assertRefused(result, "lomi_terminal_run", "--toolsets");
    }

    private static List<String> expected(ToolSelection selection) {
        return ToolCatalog.standard().servedBy(selection).stream()
                .map(ToolSpec::name)
                .toList();
    }

    private static List<String> names(JsonNode result) {
        List<String> names = new ArrayList<>();
        result.path("tools").forEach(name -> names.add(name.asString()));
        return names;
    }

    private static void assertRefused(JsonNode result, String tool, String option) {
        JsonNode call = result.path("calls").path(tool);
        assertThat(call.path("isError").asBoolean()).as("%s", call).isTrue();
        assertThat(call.path("structuredContent").path("code").asString())
                .as("%s", call)
                .isEqualTo("UNSUPPORTED_CAPABILITY");
        assertThat(call.path("content").path(0).path("text").asString())
                .as("%s", call)
                .contains(tool)
                .contains(option);
    }

    /** Runs the SDK client on a helper with {@code args} and {@code env}, calling {@code calls}; its RESULT. */
    private JsonNode run(List<String> args, Map<String, String> env, List<String> calls) throws Exception {
        Path discovery = temp.resolve("no-broker").resolve("discovery.json");
        List<String> helperArgs = new ArrayList<>(List.of("--discovery-file", discovery.toString()));
        helperArgs.addAll(args);
        String plan = JSON.writeValueAsString(Map.of("env", env, "calls", calls));
        List<String> command = new ArrayList<>(List.of(
                "node", InteropPackages.DIRECTORY.resolve("toolsets-client.mjs").toString(), plan));
        command.addAll(McpHelperProcess.command(helperArgs));
        Path out = temp.resolve("client.out");
        Path err = temp.resolve("client.err");
        Process node = new ProcessBuilder(command)
                .directory(InteropPackages.DIRECTORY.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        assertThat(node.waitFor(120, TimeUnit.SECONDS))
                .as("the SDK client finished")
                .isTrue();
        String stdout = Files.readString(out);
        assertThat(node.exitValue()).as("%s%n%s", stdout, Files.readString(err)).isZero();
        String line = stdout.lines()
                .filter(l -> l.startsWith("RESULT "))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no RESULT line: " + stdout));
        JsonNode result = JSON.readTree(line.substring("RESULT ".length()));
        System.err.println("SDK client, helper " + args + " " + env + ": listed "
                + result.path("tools").size() + " tools; calls " + result.path("calls"));
        return result;
    }
}
