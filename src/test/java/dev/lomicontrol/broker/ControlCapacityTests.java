package dev.lomicontrol.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.BrokerApplication;
import dev.lomicontrol.ipc.BrokerClient;
import dev.lomicontrol.ipc.BrokerClient.Phase;
import dev.lomicontrol.ipc.BrokerFull;
import dev.lomicontrol.pairing.Pairings;
import dev.lomicontrol.pairing.Sessions;
import dev.lomicontrol.pairing.YoloPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

/**
 * The control socket's caps as settings (issue 44), with a real broker in-process (real socket, real TLS) and the
 * real helper-side client: a connection over {@code lomi.control.max-connections} is answered {@code broker_full}
 * with the cap and the count before TLS, and a pairing request over {@code lomi.control.max-pending-pairings} is
 * refused naming that setting. The helper processes around them: {@code ManyAgentsIT}.
 */
@SpringBootTest(
        classes = BrokerApplication.class,
        properties = {
            "lomi.data-dir=${java.io.tmpdir}/lomi-control-capacity-${random.uuid}",
            "lomi.control.max-connections=2",
            "lomi.control.max-pending-pairings=1"
        })
@DirtiesContext
class ControlCapacityTests {

    @Autowired
    BrokerRuntime runtime;

    @Autowired
    ControlEndpoint control;

    @Autowired
    Pairings pairings;

    @Autowired
    Sessions sessions;

    @Autowired
    YoloPolicy yolo;

    final List<BrokerClient> clients = new ArrayList<>();

    @AfterEach
    void closeClients() {
        pairings.pending().forEach(p -> pairings.deny(p.id()));
        clients.forEach(BrokerClient::close);
        if (yolo.isOn()) {
            yolo.set(false);
        }
        sessions.revokeAll("test finished");
        Awaitility.await("every slot is free")
                .atMost(Duration.ofSeconds(10))
                .until(() -> control.openConnections() == 0);
    }

    @Test
    void aConnectionOverTheCapIsToldTheBrokerIsFullWithTheCapAndTheCountAndGetsAFreedSlot() {
        yolo.set(true);
        for (int i = 0; i < 2; i++) {
            assertThat(client().connect(Duration.ofSeconds(30)).phase()).isEqualTo(Phase.CONNECTED);
        }
        long refusedBefore = control.refusedConnections();
        BrokerClient third = client();

        BrokerClient.State full = third.connect(Duration.ofSeconds(30));

        assertThat(full.phase()).isEqualTo(Phase.BROKER_FULL);
        assertThat(full.phase().wire()).isEqualTo("broker_full");
        assertThat(full.brokerFull()).contains(BrokerFull.of(2, 2));
        assertThat(full.detail())
                .contains("the broker is full: 2 of 2 connections are in use (lomi.control.max-connections=2)");
        assertThat(control.refusedConnections()).isEqualTo(refusedBefore + 1);
        assertThat(ControlEndpoint.capacityWarning(control.openConnections(), control.maxConnections()))
                .hasValueSatisfying(warning -> assertThat(warning)
                        .contains("2 of 2 agent connections are in use", "refused with broker_full"));
        assertThat(control.openConnections()).isEqualTo(2);

        sessions.revoke(sessions.list().get(0).id(), "revoked by the admin");
        Awaitility.await("the slot is free").atMost(Duration.ofSeconds(10)).until(() -> control.openConnections() == 1);
        assertThat(third.connect(Duration.ofSeconds(30)).phase()).isEqualTo(Phase.CONNECTED);
    }

    @Test
    void theWarningStartsAtEightyPercentOfTheCap() {
        assertThat(ControlEndpoint.capacityWarning(101, 128)).isEmpty();
        assertThat(ControlEndpoint.capacityWarning(103, 128))
                .hasValueSatisfying(warning -> assertThat(warning)
                        .contains("103 of 128 agent connections are in use (80 % or more)", "session list"));
    }

    @Test
    void aPairingRequestOverThePendingCapIsRefusedNamingTheSetting() throws Exception {
        BrokerClient first = client();
        CompletableFuture<BrokerClient.State> waiting =
                CompletableFuture.supplyAsync(() -> first.connect(Duration.ofSeconds(60)));
        Awaitility.await("one request pending")
                .atMost(Duration.ofSeconds(10))
                .until(() -> pairings.pending().size() == 1);

        BrokerClient.State refused = client().connect(Duration.ofSeconds(30));

        assertThat(refused.phase()).isEqualTo(Phase.DISCONNECTED);
        assertThat(refused.detail())
                .contains(
                        "1 pairing requests are already pending (lomi.control.max-pending-pairings=1)",
                        "asks again by itself");
        pairings.deny(pairings.pending().get(0).id());
        assertThat(waiting.get(30, TimeUnit.SECONDS).phase()).isEqualTo(Phase.DISCONNECTED);
    }

    private BrokerClient client() {
        BrokerClient client = new BrokerClient(
                runtime.discoveryFile().orElseThrow(),
                runtime.registrationKeyHex().orElseThrow(),
                "capacity test");
        clients.add(client);
        return client;
    }
}
