package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.McpHelperProcess;
import dev.lomicontrol.tools.UnqualifiedToolsTests;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The real helper in a child JVM, without a broker and with a client's minimal environment (no SDK,
 * no adb, no Chromium configured): each of the declared tools that need something of the host (the
 * browser and the 13 Android tools) is listed and checks its arguments, and then needs the broker
 * (APP_UNAVAILABLE) — the helper never answers HOST_UNQUALIFIED from its own environment: the broker,
 * which runs Chromium, adb, the emulator and the SDK, decides that with its own probe.
 */
class UnqualifiedToolsProcessTests {

    @TempDir
    Path temp;

    @Test
    void everyToolNeedingTheHostIsListedValidatedAndForwardedNeverRefusedByTheHelpersOwnEnvironment() throws Exception {
        Map<String, String> valid = UnqualifiedToolsTests.VALID;
        try (McpHelperProcess helper = start()) {
            helper.initialize("2025-11-25");
            JsonNode tools = helper.request(1, "tools/list", null).at("/result/tools");
            List<String> listed =
                    tools.valueStream().map(tool -> tool.get("name").asString()).toList();
            assertThat(listed).containsAll(valid.keySet());

            int id = 10;
            for (Map.Entry<String, String> call : valid.entrySet()) {
                String tool = call.getKey();
                JsonNode result = helper.callTool(id++, tool, call.getValue()).get("result");
                assertThat(result.get("isError").asBoolean()).as(tool).isTrue();
                assertThat(result.at("/structuredContent/code").asString())
                        .as(tool + ": the helper validated the call and would forward it; there is no broker here: "
                                + result)
                        .isEqualTo("APP_UNAVAILABLE");
            }

            JsonNode broken = helper.callTool(
                            id++,
                            "lomi_android_input",
                            valid.get("lomi_android_input").replace("\"x\":100", "\"x\":-1"))
                    .get("result");
            assertThat(broken.at("/structuredContent/code").asString())
                    .as("arguments are checked before the host")
                    .isEqualTo("INVALID_ARGUMENT");
            assertThat(broken.at("/structuredContent/message").asString()).contains("arguments.event.x");
            JsonNode unknown = helper.callTool(id++, "lomi_chat_list", "{\"workspaceId\":\"w1\",\"surprise\":true}")
                    .get("result");
            assertThat(unknown.at("/structuredContent/code").asString()).isEqualTo("INVALID_ARGUMENT");
            JsonNode ordinary = helper.callTool(id, "lomi_workspace_list", "{}").get("result");
            assertThat(ordinary.at("/structuredContent/code").asString())
                    .as("a served tool still needs the broker")
                    .isEqualTo("APP_UNAVAILABLE");
        }
    }

    private McpHelperProcess start() throws Exception {
        Path discovery = temp.resolve("no-broker").resolve("discovery.json").toAbsolutePath();
        return McpHelperProcess.launch(temp.resolve("helper.err"))
                .args(List.of("--discovery-file", discovery.toString(), "--discovery-key", McpProcessTests.KEY))
                .properties(Map.of("lomi.mcp.label-grace-ms", "0"))
                .environment(UnqualifiedToolsProcessTests::withoutAnyHostProgram)
                .start();
    }

    /** A client's minimal environment: no SDK, no configured Chromium, a PATH without adb. */
    private static void withoutAnyHostProgram(Map<String, String> env) {
        List.of("ANDROID_HOME", "ANDROID_SDK_ROOT", "LOMI_BROWSER_EXECUTABLE").forEach(env::remove);
        env.put("PATH", "/nonexistent");
    }
}
