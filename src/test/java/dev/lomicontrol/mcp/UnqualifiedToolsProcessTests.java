package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.McpHelperProcess;
import dev.lomicontrol.tools.HostQualification;
import dev.lomicontrol.tools.UnqualifiedToolsTests;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The real helper in a child JVM, without a broker: each of the 25 declared tools this host does
 * not serve is listed, checks its arguments, and then answers HOST_UNQUALIFIED itself — the 13
 * Android tools naming what their capability lacks here (adb; the SDK's emulator and /dev/kvm;
 * sdkmanager; avdmanager) or, where the host has it, that the tool is not implemented yet, the browser
 * tools "not yet available" — never an unknown tool, never APP_UNAVAILABLE, never a fake success.
 */
class UnqualifiedToolsProcessTests {

    @TempDir
    Path temp;

    @Test
    void everyUnqualifiedToolIsListedAndAnswersHostUnqualifiedWithItsReasonAfterValidation() throws Exception {
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
                if (tool.startsWith("lomi_chat_")) {
                    continue; // served since issue 16: without a broker they answer APP_UNAVAILABLE like any served
                    // tool
                }
                JsonNode result = helper.callTool(id++, tool, call.getValue()).get("result");
                if (HostQualification.reason(dev.lomicontrol.catalog.ToolCatalog.standard()
                                .find(tool)
                                .orElseThrow())
                        .isEmpty()) {
                    // the host serves it (the browser tools where Chromium is installed, lomi_android_list where adb
                    // is): the helper validated the call and would forward it; there is no broker here
                    assertThat(result.at("/structuredContent/code").asString())
                            .as(tool + ": " + result)
                            .isEqualTo("APP_UNAVAILABLE");
                    continue;
                }

                assertThat(result.get("isError").asBoolean()).as(tool).isTrue();
                assertThat(result.at("/structuredContent/status").asString())
                        .as(tool)
                        .isEqualTo("error");
                assertThat(result.at("/structuredContent/code").asString())
                        .as(tool + ": " + result)
                        .isEqualTo("HOST_UNQUALIFIED");
                String message = result.at("/structuredContent/message").asString();
                assertThat(message).as(tool).startsWith(tool + ": ");
                if (tool.startsWith("lomi_android_")) {
                    assertThat(message)
                            .as(tool)
                            .endsWith(HostQualification.reason(dev.lomicontrol.catalog.ToolCatalog.standard()
                                            .find(tool)
                                            .orElseThrow())
                                    .orElseThrow());
                    assertAndroidReasonNamesWhatIsMissing(tool, message);
                } else {
                    assertThat(message).as(tool).contains("not yet available").contains("nothing was done");
                }
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

    /** What this host lacks, each named: the reason lists every missing part of the tool's capability (or says the tool is not built yet). */
    private static void assertAndroidReasonNamesWhatIsMissing(String tool, String message) {
        boolean kvm = java.nio.file.Files.isReadable(Path.of("/dev/kvm"))
                && java.nio.file.Files.isWritable(Path.of("/dev/kvm"));
        if (!kvm && (tool.equals("lomi_android_start") || tool.equals("lomi_android_stop"))) {
            assertThat(message).contains("/dev/kvm");
        }
        if (message.contains("is not available on this host")) {
            assertThat(message).containsAnyOf("/dev/kvm", "emulator", "adb", "sdkmanager", "avdmanager");
        } else {
            assertThat(message).contains("not implemented");
        }
    }

    private McpHelperProcess start() throws Exception {
        Path discovery = temp.resolve("no-broker").resolve("discovery.json").toAbsolutePath();
        return McpHelperProcess.launch(temp.resolve("helper.err"))
                .args(List.of("--discovery-file", discovery.toString(), "--discovery-key", McpProcessTests.KEY))
                .properties(Map.of("lomi.mcp.label-grace-ms", "0"))
                .start();
    }
}
