package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/** The bridge in-process against the real-protocol broker, with a small frame limit so that "over the frame" is cheap to reach. */
class BridgeFrameLimitTests {

    @TempDir
    Path temp;

    @Test
    void aCallOverTheFrameLimitIsPayloadTooLargeNeverSentAndCausesNoReconnect() throws Exception {
        try (MisbehavingBroker broker = new MisbehavingBroker(temp.resolve("store"));
                Connector connector =
                        new Connector(Optional.of(broker.discoveryFile), Optional.of(broker.keyHex), Duration.ZERO)) {
            connector.start();
            assertThat(connector.awaitConnected(Duration.ofSeconds(60))).isPresent();
            Bridge bridge = new Bridge(connector, Duration.ofSeconds(10), 4096);
            ToolDefinition mutating =
                    Catalog.standard().find("lomi_operation_cancel").orElseThrow();
            ObjectNode big = McpJson.object().put("operationId", "x".repeat(5000));

            Bridge.Forwarded tooLarge = bridge.forward(mutating, big);
            Bridge.Forwarded normal = bridge.forward(
                    mutating, McpJson.object().put("operationId", "0123456789abcdef0123456789abcdef01234567"));

            assertThat(tooLarge).isInstanceOf(Bridge.Forwarded.Refused.class);
            assertThat(((Bridge.Forwarded.Refused) tooLarge).message()).startsWith("payload too large");
            assertThat(normal).isInstanceOf(Bridge.Forwarded.Answered.class);
            assertThat(broker.received("lomi_operation_cancel")).isEqualTo(1);
            assertThat(broker.enrollments.get()).isEqualTo(1);
        }
    }
}
