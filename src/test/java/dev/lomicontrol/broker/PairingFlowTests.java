package dev.lomicontrol.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.BrokerApplication;
import dev.lomicontrol.ipc.BrokerClient;
import dev.lomicontrol.ipc.Envelope;
import dev.lomicontrol.pairing.PairingRequest;
import dev.lomicontrol.pairing.Pairings;
import dev.lomicontrol.pairing.Sessions;
import dev.lomicontrol.pairing.YoloPolicy;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.testing.Eventually;
import dev.lomicontrol.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.test.annotation.DirtiesContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A real broker (in-process Spring context, real Unix socket, real mutual TLS) and the real helper-side client. */
@SpringBootTest(
        classes = {BrokerApplication.class, PairingFlowTests.TestClock.class},
        properties = {
            "lomi.data-dir=${java.io.tmpdir}/lomi-pairing-flow-${random.uuid}",
            "spring.main.allow-bean-definition-overriding=true"
        })
@DirtiesContext
class PairingFlowTests {

    @TestConfiguration
    static class TestClock {
        @Bean
        @Primary
        MutableClock testClock() {
            return new MutableClock(Clock.systemUTC().instant());
        }
    }

    static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    BrokerRuntime runtime;

    @Autowired
    Pairings pairings;

    @Autowired
    Sessions sessions;

    @Autowired
    Projects projects;

    @Autowired
    YoloPolicy yolo;

    @Autowired
    MutableClock clock;

    BrokerClient client;

    @AfterEach
    void closeClient() {
        pairings.pending().forEach(p -> pairings.deny(p.id()));
        if (client != null) {
            client.close();
        }
        if (yolo.isOn()) {
            yolo.set(false);
        }
        sessions.revokeAll("test finished");
    }

    @Test
    void aClientIsPairingRequiredUntilTheAdminApprovesThenItsCallsSucceed() throws Exception {
        Project project = projects.add(Files.createTempDirectory("lomi-project").toRealPath(), Optional.of("demo"));
        client = newClient();
        CompletableFuture<BrokerClient.State> connecting =
                CompletableFuture.supplyAsync(() -> client.connect(Duration.ofSeconds(60)));

        PairingRequest request = awaitPending();
        awaitPhase(BrokerClient.Phase.PAIRING_REQUIRED);
        assertThat(client.state().pairingRequestId()).contains(request.id());
        assertThat(request.peerPid()).isEqualTo(ProcessHandle.current().pid());
        AttackCalls.approveAsAsked(pairings, projects, request.id()).scopes();

        assertThat(connecting.get(30, TimeUnit.SECONDS).phase()).isEqualTo(BrokerClient.Phase.CONNECTED);
        JsonNode list = client.call("lomi_workspace_list", JSON.readTree("{}"), Duration.ofSeconds(10))
                .envelope();
        assertThat(Envelope.isOk(list)).isTrue();
        String workspaceId =
                list.path("data").path("workspaces").get(0).path("workspaceId").asString();
        JsonNode connect = client.call(
                        "lomi_connect",
                        JSON.readTree("{\"workspaceId\":\"" + workspaceId + "\"}"),
                        Duration.ofSeconds(10))
                .envelope();
        assertThat(connect.path("data").path("projectId").asString())
                .isEqualTo(project.id().value());
        assertThat(connect.path("data").path("retryEpoch").asString()).hasSize(40);
        assertThat(sessions.list())
                .as("a call was served, so the session is registered")
                .hasSize(1);
    }

    @Test
    void aDeniedRequestNeverConnects() throws Exception {
        client = newClient();
        CompletableFuture<BrokerClient.State> connecting =
                CompletableFuture.supplyAsync(() -> client.connect(Duration.ofSeconds(60)));

        pairings.deny(awaitPending().id());

        BrokerClient.State state = connecting.get(30, TimeUnit.SECONDS);
        assertThat(state.phase()).isEqualTo(BrokerClient.Phase.DISCONNECTED);
        assertThat(state.detail()).contains("denied");
        assertThat(sessions.list()).isEmpty();
    }

    @Test
    void anExpiredRequestNeverConnects() throws Exception {
        client = newClient();
        CompletableFuture<BrokerClient.State> connecting =
                CompletableFuture.supplyAsync(() -> client.connect(Duration.ofSeconds(60)));
        awaitPending();

        clock.advance(Pairings.EXPIRY);
        assertThat(pairings.pending()).isEmpty();

        assertThat(connecting.get(30, TimeUnit.SECONDS).phase()).isEqualTo(BrokerClient.Phase.DISCONNECTED);
        assertThat(sessions.list()).isEmpty();
    }

    @Test
    void aTamperedOrForeignDiscoveryRecordMeansAppUnavailableAndNoPairingRequest() throws Exception {
        Path discovery = runtime.discoveryFile().orElseThrow();
        Path dir = Files.createTempDirectory(
                "lomi-tampered", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path copy = dir.resolve("discovery.json");
        Files.copy(discovery, copy, StandardCopyOption.COPY_ATTRIBUTES);
        String text = Files.readString(copy);
        Files.writeString(copy, text.replace(runtime.instanceId(), "0".repeat(32)));

        BrokerClient tampered =
                new BrokerClient(copy, runtime.registrationKeyHex().orElseThrow(), "tampered");
        BrokerClient wrongKey = new BrokerClient(discovery, "11".repeat(32), "wrong key");

        assertThat(tampered.connect(Duration.ofSeconds(5)).phase()).isEqualTo(BrokerClient.Phase.APP_UNAVAILABLE);
        assertThat(wrongKey.connect(Duration.ofSeconds(5)).phase()).isEqualTo(BrokerClient.Phase.APP_UNAVAILABLE);
        assertThat(pairings.pending()).isEmpty();
    }

    @Test
    void revocationEndsALiveSessionAndItsNextCallFails() throws Exception {
        client = connectedClient();
        sessions.revoke(
                Eventually.await(
                                "the session is listed",
                                Duration.ofSeconds(30),
                                sessions::list,
                                list -> !list.isEmpty())
                        .get(0)
                        .id(),
                "admin revoked");

        assertThat(catchCall()).isInstanceOf(BrokerClient.CallFailure.class);
        assertThat(client.state().phase()).isEqualTo(BrokerClient.Phase.DISCONNECTED);
    }

    @Test
    void yoloApprovesAtOnceAndTurningItOffRevokesTheSession() throws Exception {
        yolo.set(true);
        client = newClient();

        assertThat(client.connect(Duration.ofSeconds(30)).phase()).isEqualTo(BrokerClient.Phase.CONNECTED);
        assertThat(Envelope.isOk(client.call("lomi_workspace_list", JSON.readTree("{}"), Duration.ofSeconds(10))
                        .envelope()))
                .isTrue();
        assertThat(yolo.set(false)).isEqualTo(1);
        assertThat(catchCall()).isInstanceOf(BrokerClient.CallFailure.class);
    }

    private Throwable catchCall() {
        try {
            client.call("lomi_workspace_list", JSON.readTree("{}"), Duration.ofSeconds(5))
                    .envelope();
            return null;
        } catch (Throwable e) {
            return e;
        }
    }

    private BrokerClient connectedClient() throws Exception {
        BrokerClient connected = newClient();
        CompletableFuture<BrokerClient.State> connecting =
                CompletableFuture.supplyAsync(() -> connected.connect(Duration.ofSeconds(60)));
        AttackCalls.approveAsAsked(pairings, projects, awaitPending().id());
        assertThat(connecting.get(30, TimeUnit.SECONDS).phase()).isEqualTo(BrokerClient.Phase.CONNECTED);
        return connected;
    }

    private BrokerClient newClient() {
        return new BrokerClient(
                runtime.discoveryFile().orElseThrow(),
                runtime.registrationKeyHex().orElseThrow(),
                "test client");
    }

    private void awaitPhase(BrokerClient.Phase phase) {
        Eventually.await(
                "the client reaches " + phase,
                Duration.ofSeconds(30),
                () -> client.state().phase(),
                phase::equals);
    }

    private PairingRequest awaitPending() {
        return Eventually.await(
                        "a pairing request arrives",
                        Duration.ofSeconds(30),
                        pairings::pending,
                        pending -> !pending.isEmpty())
                .get(0);
    }
}
