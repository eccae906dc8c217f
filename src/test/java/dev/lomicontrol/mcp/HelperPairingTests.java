package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.McpHelperProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** The real helper against a real-protocol broker: before approval only status and diagnostics answer; connected, it stays Spring-free. */
class HelperPairingTests {

    @TempDir
    Path temp;

    @Test
    void untilTheAdminApprovesOnlyStatusAndDiagnosticsAnswerAndTheyNameTheRequest() throws Exception {
        try (MisbehavingBroker broker = new MisbehavingBroker(temp.resolve("store"));
                McpHelperProcess helper = start(broker, List.of())) {
            broker.approve = false;
            helper.initialize("2025-11-25");
            JsonNode status = helper.awaitPhase("pairing_required");
            JsonNode diagnostics = helper.callTool(1, "lomi_diagnostics", "{}").at("/result/structuredContent/data");
            JsonNode list = helper.callTool(2, "lomi_workspace_list", "{}").get("result");
            JsonNode attach = helper.callTool(3, "lomi_session_attach", "{\"externalId\":\"thread-1\"}")
                    .get("result");

            assertThat(status.get("pairingRequestId").asString()).isEqualTo("pairing-1");
            assertThat(status.get("instanceId").asString()).hasSize(32);
            assertThat(status.toString()).doesNotContain("workspaces");
            assertThat(diagnostics.get("nextStep").asString())
                    .contains("lomi-control console pairing approve pairing-1");
            assertThat(list.get("isError").asBoolean()).isTrue();
            assertThat(list.at("/structuredContent/code").asString()).isEqualTo("PAIRING_REQUIRED");
            assertThat(attach.at("/structuredContent/code").asString()).isEqualTo("PAIRING_REQUIRED");
            assertThat(broker.received("lomi_workspace_list") + broker.received("lomi_session_attach"))
                    .isZero();
        }
    }

    @Test
    void aConnectedHelperLoadsNoSpringSqliteFlywayNettyOrReactorClass() throws Exception {
        String loaded = classesLoadedDuring("classes.log", helper -> {
            helper.awaitPhase("connected");
            assertListAnswers(helper, 1);
        });

        assertThat(loaded)
                .contains("dev.lomicontrol.ipc.BrokerClient")
                .contains("dev.lomicontrol.transport.SocketFrameChannel")
                .doesNotContain("io.netty")
                .doesNotContain("reactor.")
                .doesNotContain("org.springframework")
                .doesNotContain("org.sqlite")
                .doesNotContain("org.flywaydb");
    }

    /**
     * The helper reads and writes all of its JSON without an ObjectMapper (ADR 0015): building one costs a new JVM
     * most of jackson-databind's initialisation and ~1,000 C1 compilations, queued ahead of the first calls.
     */
    @Test
    void aWholeSessionBuildsNoObjectMapper() throws Exception {
        String loaded = classesLoadedDuring("mapper-classes.log", helper -> {
            assertThat(helper.request(2, "tools/list", "{}").at("/result/tools").size())
                    .isGreaterThan(40);
            helper.awaitPhase("connected");
            for (int call = 0; call < 12; call++) {
                assertListAnswers(helper, 10 + call);
            }
            assertThat(helper.callTool(30, "lomi_files_read", "{\"workspaceId\":\"ws-none\",\"relativePath\":\"a\"}")
                            .has("result"))
                    .isTrue();
        });

        assertThat(loaded)
                .contains("dev.lomicontrol.ipc.CallAnswer")
                .contains("dev.lomicontrol.mcp.HotPathWarmup")
                .doesNotContain("tools.jackson.databind.ObjectMapper ")
                .doesNotContain("tools.jackson.databind.json.JsonMapper ");
    }

    /**
     * Runs {@code steps} on an initialized helper that logs each class it loads (to {@code logName}
     * under the temporary folder); the log once the helper has exited 0.
     */
    private String classesLoadedDuring(String logName, HelperSteps steps) throws Exception {
        Path classLog = temp.resolve(logName);
        try (MisbehavingBroker broker = new MisbehavingBroker(temp.resolve("store"));
                McpHelperProcess helper = start(broker, List.of("-Xlog:class+load=info:file=" + classLog))) {
            helper.initialize("2025-11-25");
            steps.run(helper);
            assertThat(helper.closeAndWait()).isZero();
            return Files.readString(classLog);
        }
    }

    /** What a test does with the initialized helper. */
    private interface HelperSteps {
        void run(McpHelperProcess helper) throws Exception;
    }

    /** {@code lomi_workspace_list} answers without an error. */
    private static void assertListAnswers(McpHelperProcess helper, int id) throws Exception {
        assertThat(helper.callTool(id, "lomi_workspace_list", "{}")
                        .at("/result/isError")
                        .asBoolean(true))
                .isFalse();
    }

    private McpHelperProcess start(MisbehavingBroker broker, List<String> jvmOptions) throws Exception {
        return McpHelperProcess.launch(temp.resolve("helper.err"))
                .args(List.of("--discovery-file", broker.discoveryFile.toString(), "--discovery-key", broker.keyHex))
                .properties(Map.of("lomi.mcp.label-grace-ms", "0"))
                .jvmOptions(jvmOptions)
                .start();
    }
}
