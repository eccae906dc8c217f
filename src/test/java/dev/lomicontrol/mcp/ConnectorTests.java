package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.ipc.BrokerClient.Phase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConnectorTests {

    @Test
    void theBackoffStartsAtOneSecondDoublesAndStopsAtTen() {
        assertThat(new long[] {
                    Connector.backoff(0).toSeconds(),
                    Connector.backoff(1).toSeconds(),
                    Connector.backoff(2).toSeconds(),
                    Connector.backoff(3).toSeconds(),
                    Connector.backoff(4).toSeconds(),
                    Connector.backoff(5).toSeconds(),
                    Connector.backoff(60).toSeconds()
                })
                .containsExactly(1, 1, 2, 4, 8, 10, 10);
    }

    @Test
    void thePairingLabelNamesTheClientInOneShortLine() {
        assertThat(Connector.label("claude-code", "2.1.0")).isEqualTo("lomi-control mcp (claude-code 2.1.0)");
        assertThat(Connector.label("evil\nname\u0007", "")).isEqualTo("lomi-control mcp (evilname)");
        assertThat(Connector.label("  ", null)).isEqualTo("lomi-control mcp");
        assertThat(Connector.label("x".repeat(200), "1")).hasSize(80).endsWith(")");
    }

    @Test
    void withoutADiscoveryKeyTheHelperIsAppUnavailableAndSaysWhy() throws Exception {
        try (Connector connector =
                new Connector(Optional.of(Path.of("/tmp/discovery.json")), Optional.empty(), Duration.ZERO)) {
            connector.start();

            assertThat(connector.state().phase()).isEqualTo(Phase.APP_UNAVAILABLE);
            assertThat(connector.state().detail()).contains("--discovery-key");
            assertThat(connector.awaitConnected(Duration.ofMillis(100))).isEmpty();
        }
    }
}
