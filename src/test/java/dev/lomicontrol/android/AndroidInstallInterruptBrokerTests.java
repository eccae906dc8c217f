package dev.lomicontrol.android;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.testing.Eventually;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * An approved lomi_android_install_apk that the device does not finish, through the broker's dispatch
 * and the real adb server, with the adb connections' idle limit cut to {@link #IDLE} so that a silent
 * device ends the install in seconds: the admin's decision returns at once while the install runs on
 * its own thread, and the operation says what is known of the effect — unknown once the install
 * stream was open and bytes were on their way, none when the device never opened it. Our bookkeeping
 * against the real adb, not Android behaviour.
 */
class AndroidInstallInterruptBrokerTests extends AndroidBrokerTest {

    /** How long an adb connection may hear nothing before the call is given up (10 s by default). */
    static final Duration IDLE = Duration.ofSeconds(4);

    /** What "at once" allows on a loaded machine (two cores, other builds running). */
    static final long PROMPT_MS = 2_000;

    @BeforeEach
    void shortIdleLimit() {
        broker.androidDevices = () -> new AndroidDevices(
                server.bridge(new AdbTimeouts(Duration.ofSeconds(2), IDLE, Duration.ofSeconds(15))),
                new AvdDirectory(scratch.resolve("no-avds")));
    }

    /** The install awaiting the admin on {@code device}: its operation id. */
    private String asked(FakeAdbd device, String key) throws Exception {
        server.connect(device, DeviceState.DEVICE);
        AndroidCalls.Opened panel = calls.opened(device.serial());
        byte[] bytes = AndroidInstallBrokerTests.apk(8192);
        String artifact = AndroidInstallBrokerTests.imported(broker, calls, key + ".apk", bytes);
        JsonNode asked = broker.ok(
                calls.session,
                "lomi_android_install_apk",
                AndroidInstallBrokerTests.install(
                        calls, panel, artifact, AndroidInstallBrokerTests.sha256(bytes), key));
        assertThat(asked.path("state").asString()).as("%s", asked).isEqualTo("awaiting_user");
        return asked.path("operationId").asString();
    }

    @Test
    void theDecisionReturnsAtOnceAndAnInstallCutOffAfterItsBytesWentOutIsOutcomeUnknown() throws Exception {
        try (FakeAdbd device = FakeAdbd.open()) {
            String install = asked(device, "install-silent");
            device.silence();

            long t0 = System.nanoTime();
            broker.decisions.decide(new OperationId(install), true);
            long decidedMs = (System.nanoTime() - t0) / 1_000_000;
            assertThat(decidedMs)
                    .as("approving returns while the install runs on its own thread")
                    .isLessThan(PROMPT_MS);
            Eventually.until(
                    "the install stream reached the silent device",
                    Duration.ofSeconds(10),
                    () -> device.services().stream().anyMatch(s -> s.contains("'install'")));
            JsonNode running = broker.ok(calls.session, "lomi_operation_get", json("operationId", install));
            assertThat(running.path("state").asString())
                    .as("the install is still on its way: %s", running)
                    .isEqualTo("running");

            JsonNode settled = broker.settled(calls.session, install, IDLE.plusSeconds(20));
            assertThat(settled.path("state").asString()).as("%s", settled).isEqualTo("outcome_unknown");
            assertThat(settled.path("effectState").asString()).isEqualTo("unknown");
            assertThat(settled.path("errorCode").asString()).isEqualTo("OUTCOME_UNKNOWN");
            assertThat(settled.toString()).contains("bytes were on their way");
        } finally {
            server.run("disconnect");
        }
    }

    @Test
    void anInstallTheDeviceNeverOpenedFailsWithNoEffect() throws Exception {
        try (FakeAdbd device = FakeAdbd.open()) {
            String install = asked(device, "install-stalled");
            device.stall();

            broker.decisions.decide(new OperationId(install), true);
            JsonNode settled = broker.settled(calls.session, install, IDLE.plusSeconds(20));
            assertThat(settled.path("state").asString()).as("%s", settled).isEqualTo("failed");
            assertThat(settled.path("effectState").asString()).isEqualTo("none");
            assertThat(settled.path("errorCode").asString()).isEqualTo("DEADLINE_EXCEEDED");
            assertThat(device.services()).anyMatch(s -> s.contains("'install'"));
            assertThat(device.installs).as("no byte reached the installer").isEmpty();
        } finally {
            server.run("disconnect");
        }
    }

    private static String json(Object... pairs) {
        return dev.lomicontrol.broker.BrokerCallsFixture.json(pairs);
    }
}
