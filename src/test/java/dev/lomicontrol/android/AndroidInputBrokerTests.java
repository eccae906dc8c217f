package dev.lomicontrol.android;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.tools.HostProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * lomi_panel_control's Android form and lomi_android_input through the broker's dispatch against the
 * real adb server (private to this class) and a test device that records every command it is sent:
 * these prove our lease, receipts and bookkeeping against the real adb, not Android behaviour.
 */
class AndroidInputBrokerTests extends AndroidBrokerTest {

    static FakeAdbd inputDevice() throws IOException {
        FakeAdbd device = FakeAdbd.open();
        device.onShell(argv -> FakeAdbd.Answer.out(""));
        server.connect(device, DeviceState.DEVICE);
        return device;
    }

    String control(Session session, AndroidCalls.Opened panel, String action, String key) {
        return json(
                "workspaceId", calls.workspace(),
                "panelId", panel.panelId(),
                "deviceId", panel.deviceId(),
                "generation", panel.generation(),
                "action", action,
                "expectedRevision", broker.revision(),
                "retryEpoch", calls.epoch.value(),
                "requestKey", key);
    }

    /** Claims the device's input as the calls' session, the admin approving; the new lease id. */
    String claimApproved(AndroidCalls.Opened panel) {
        JsonNode claim =
                broker.ok(calls.session, "lomi_panel_control", control(calls.session, panel, "claim", "claim-1"));
        assertThat(claim.path("state").asString()).as("%s", claim).isEqualTo("awaiting_user");
        broker.decisions.decide(new OperationId(claim.path("operationId").asString()), true);
        JsonNode claimed =
                broker.settled(calls.session, claim.path("operationId").asString(), Duration.ofSeconds(10));
        assertThat(claimed.path("state").asString()).as("%s", claimed).isEqualTo("succeeded");
        assertThat(claimed.at("/result/deviceId").asString()).isEqualTo(panel.deviceId());
        assertThat(claimed.at("/result/controlled").asBoolean()).isTrue();
        conformsToPanelControlsOutputSchema(claimed);
        return claimed.at("/result/leaseId").asString();
    }

    /** The settled claim, as lomi_panel_control's answer, validates against its published outputSchema (the helper's own validator). */
    static void conformsToPanelControlsOutputSchema(JsonNode operation) {
        ObjectNode envelope = JsonNodeFactory.instance.objectNode();
        envelope.put("controlApiVersion", "1.0");
        envelope.put("status", "ok");
        envelope.set("data", operation);
        try {
            var validator = Class.forName("dev.lomicontrol.mcp.SchemaValidator")
                    .getDeclaredMethod("firstViolation", JsonNode.class, JsonNode.class, String.class);
            validator.setAccessible(true);
            assertThat((java.util.Optional<?>) validator.invoke(
                            null,
                            dev.lomicontrol.terminal.api.TerminalSpecs.PANEL_CONTROL.outputSchema(),
                            envelope,
                            "result"))
                    .as("%s", envelope)
                    .isEmpty();
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("the helper's schema validator", e);
        }
    }

    static JsonNode tap(long x, long y, String phase) {
        ObjectNode event = JsonNodeFactory.instance.objectNode();
        event.put("type", "touch");
        event.put("space", "hardware_display");
        event.put("identifier", 0);
        event.put("x", x);
        event.put("y", y);
        event.put("phase", phase);
        return event;
    }

    static JsonNode text(String text) {
        ObjectNode event = JsonNodeFactory.instance.objectNode();
        event.put("type", "text");
        event.put("text", text);
        return event;
    }

    static List<List<String>> inputs(FakeAdbd device) {
        return device.shellCommands().stream()
                .filter(argv -> !argv.isEmpty() && argv.get(0).equals("input"))
                .toList();
    }

    @Test
    void anApprovedClaimGivesALeaseAndARetriedInputSequenceReachesTheDeviceOnce() throws Exception {
        try (FakeAdbd device = inputDevice()) {
            AndroidCalls.Opened panel = calls.opened(device.serial());
            String lease = claimApproved(panel);
            assertThat(lease).matches("[0-9a-f]{32}");

            String tap = calls.input(panel, lease, 1, tap(120, 340, "down"));
            JsonNode sent = broker.ok(calls.session, "lomi_android_input", tap);
            assertThat(sent.path("state").asString()).as("%s", sent).isEqualTo("succeeded");
            assertThat(sent.at("/result/inputSequence").asString()).isEqualTo("1");
            JsonNode again = broker.ok(calls.session, "lomi_android_input", tap);
            assertThat(again.path("operationId").asString())
                    .isEqualTo(sent.path("operationId").asString());
            broker.ok(calls.session, "lomi_android_input", calls.input(panel, lease, 2, text("hi there")));
            JsonNode resent =
                    broker.ok(calls.session, "lomi_android_input", calls.input(panel, lease, 2, text("hi there")));
            assertThat(resent.path("state").asString()).as("%s", resent).isEqualTo("succeeded");

            assertThat(inputs(device))
                    .as("each inputSequence reached the device exactly once")
                    .containsExactly(
                            List.of("input", "motionevent", "DOWN", "120", "340"),
                            List.of("input", "text", "hi%sthere"));
            assertThat(broker.ok(calls.session, "lomi_panel_list", json("workspaceId", calls.workspace()))
                            .toString())
                    .as("the panel shows this session controls the device")
                    .contains("\"inputControlled\":true");
        }
    }

    @Test
    void aTapIsOneCallAndASwipeWithoutADurationTakesTheDocumentedDefault() throws Exception {
        try (FakeAdbd device = inputDevice()) {
            AndroidCalls.Opened panel = calls.opened(device.serial());
            String lease = claimApproved(panel);
            ObjectNode tap = JsonNodeFactory.instance
                    .objectNode()
                    .put("type", "tap")
                    .put("x", 540)
                    .put("y", 1200);
            ObjectNode press = JsonNodeFactory.instance
                    .objectNode()
                    .put("type", "swipe")
                    .put("x", 5)
                    .put("y", 6)
                    .put("toX", 5)
                    .put("toY", 900);
            broker.ok(calls.session, "lomi_android_input", calls.input(panel, lease, 1, tap));
            broker.ok(calls.session, "lomi_android_input", calls.input(panel, lease, 1, tap));
            broker.ok(calls.session, "lomi_android_input", calls.input(panel, lease, 2, press));
            tap.put("x", 4294967296L);
            assertThat(broker.refused(calls.session, "lomi_android_input", calls.input(panel, lease, 3, tap)))
                    .isEqualTo(ErrorCode.INVALID_ARGUMENT);

            assertThat(inputs(device))
                    .containsExactly(
                            List.of("input", "tap", "540", "1200"),
                            List.of("input", "swipe", "5", "6", "5", "900", "300"));
        }
    }

    @Test
    void aChangedPayloadUnderTheSameNumberIsAnIdempotencyConflictAndSendsNothing() throws Exception {
        try (FakeAdbd device = inputDevice()) {
            AndroidCalls.Opened panel = calls.opened(device.serial());
            String lease = claimApproved(panel);
            broker.ok(calls.session, "lomi_android_input", calls.input(panel, lease, 1, text("abc")));

            assertThat(broker.refused(calls.session, "lomi_android_input", calls.input(panel, lease, 1, text("abd"))))
                    .isEqualTo(ErrorCode.IDEMPOTENCY_CONFLICT);
            assertThat(broker.refused(
                            calls.session, "lomi_android_input", calls.input(panel, lease, 3, text("caf\u00e9"))))
                    .as("text `input text` cannot type")
                    .isEqualTo(ErrorCode.UNSUPPORTED_CAPABILITY);
            assertThat(inputs(device)).containsExactly(List.of("input", "text", "abc"));
        }
    }

    @Test
    void inputWithoutTheLeaseIsControlRevokedAndAReleaseOrARejectedClaimLeavesNone() throws Exception {
        try (FakeAdbd device = inputDevice()) {
            AndroidCalls.Opened panel = calls.opened(device.serial());
            String forged = "0123456789abcdef0123456789abcdef";
            assertThat(broker.refused(calls.session, "lomi_android_input", calls.input(panel, forged, 1, text("x"))))
                    .isEqualTo(ErrorCode.CONTROL_REVOKED);

            JsonNode rejected =
                    broker.ok(calls.session, "lomi_panel_control", control(calls.session, panel, "claim", "claim-r"));
            assertThat(rejected.path("state").asString()).isEqualTo("awaiting_user");
            broker.decisions.decide(new OperationId(rejected.path("operationId").asString()), false);
            JsonNode denied =
                    broker.settled(calls.session, rejected.path("operationId").asString(), Duration.ofSeconds(10));
            assertThat(denied.path("errorCode").asString()).isEqualTo("SCOPE_DENIED");

            String lease = claimApproved(panel);
            JsonNode released =
                    broker.ok(calls.session, "lomi_panel_control", control(calls.session, panel, "release", "rel-1"));
            assertThat(released.path("state").asString()).as("%s", released).isEqualTo("succeeded");
            assertThat(released.at("/result/controlled").asBoolean()).isFalse();
            assertThat(broker.refused(calls.session, "lomi_android_input", calls.input(panel, lease, 1, text("x"))))
                    .isEqualTo(ErrorCode.CONTROL_REVOKED);

            Session other = broker.session();
            broker.connect(other, calls.project);
            assertThat(broker.refused(other, "lomi_android_input", calls.input(panel, lease, 1, text("x"))))
                    .as("another session, without the android scopes or the lease")
                    .isIn(ErrorCode.CONTROL_REVOKED, ErrorCode.SCOPE_DENIED);
            assertThat(inputs(device)).isEmpty();
        }
    }

    @Test
    void aClaimAsksTheDispatchsHostProbeForAdbNotThisProcesssEnvironment() throws Exception {
        try (FakeAdbd device = inputDevice()) {
            AndroidCalls.Opened panel = calls.opened(device.serial());
            Path bin = Files.createDirectories(scratch.resolve("no-adb-bin"));
            broker.host =
                    () -> new HostProbe(Map.of("PATH", bin.toString()), Optional.empty(), bin, bin.resolve("kvm"));

            JsonNode refused = broker.call(
                    calls.session, "lomi_panel_control", control(calls.session, panel, "claim", "claim-no-adb"));
            assertThat(refused.path("code").asString()).as("%s", refused).isEqualTo("HOST_UNQUALIFIED");
            assertThat(refused.path("message").asString()).contains("adb was not found", "nothing was done");
            assertThat(broker.decisions.list()).as("the admin is asked nothing").isEmpty();
        }
    }

    @Test
    void aClaimWithAnOldGenerationIsStale() throws Exception {
        try (FakeAdbd device = inputDevice()) {
            AndroidCalls.Opened panel = calls.opened(device.serial());
            AndroidCalls.Opened old =
                    new AndroidCalls.Opened(panel.panelId(), panel.deviceId(), "gen-00000000000000ff");
            assertThat(broker.refused(
                            calls.session, "lomi_panel_control", control(calls.session, old, "claim", "c-old")))
                    .isEqualTo(ErrorCode.STALE_GENERATION);
        }
    }
}
