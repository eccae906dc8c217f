package dev.lomicontrol.android;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static dev.lomicontrol.broker.BrokerCallsFixture.workspaceOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.pairing.AndroidGrant;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.Scopes;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Project;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;

/**
 * The Android tools called through the broker's dispatch as an agent whose grant holds the android.*
 * scopes and Android devices and packages, in one project: the device id a listing gives for a
 * test device, an open panel's id and generation, and each observation's raw envelope.
 */
final class AndroidCalls {

    final BrokerCallsFixture broker;
    final Session session;
    final Project project;
    final RetryEpochId epoch;
    private final AtomicInteger keys = new AtomicInteger();

    /** The agent's grant: every project and scope, every Android device and package (YOLO's Android part: the test devices' serials are known only once they run). */
    AndroidCalls(BrokerCallsFixture broker, String projectName) {
        this(
                broker,
                broker.project(projectName),
                new Grant(true, java.util.Set.of(), Scopes.known(), AndroidGrant.EVERYTHING));
    }

    /** Another agent in {@code project} holding {@code grant}. */
    AndroidCalls(BrokerCallsFixture broker, Project project, Grant grant) {
        this.broker = broker;
        this.project = project;
        this.session = broker.session(grant);
        this.epoch = broker.connect(session, project);
    }

    /** An open Android panel and the generation its device is at. */
    record Opened(String panelId, String deviceId, String generation) {}

    String workspace() {
        return workspaceOf(project);
    }

    JsonNode list() {
        return broker.ok(session, "lomi_android_list", json("workspaceId", workspace()));
    }

    /** The listed entry of the device with adb serial {@code serial}. */
    JsonNode listed(String serial) {
        List<String> names = new ArrayList<>();
        for (JsonNode device : list().path("devices")) {
            names.add(device.path("name").asString());
            if (device.path("name").asString().startsWith(serial + " (")) {
                return device;
            }
        }
        throw new AssertionError(serial + " is not listed: " + names);
    }

    /** lomi_android_open's envelope with {@code requestKey}. */
    JsonNode open(String deviceId, String requestKey) {
        return broker.call(
                session,
                "lomi_android_open",
                json(
                        "workspaceId", workspace(),
                        "deviceId", deviceId,
                        "expectedRevision", broker.revision(),
                        "retryEpoch", epoch.value(),
                        "requestKey", requestKey));
    }

    /** Opens a panel on the device with adb serial {@code serial} and reads its generation from the list. */
    Opened opened(String serial) {
        String deviceId = listed(serial).path("deviceId").asString();
        JsonNode envelope = open(deviceId, "open-" + keys.incrementAndGet());
        assertThat(envelope.path("status").asString()).as("%s", envelope).isEqualTo("ok");
        assertThat(envelope.at("/data/state").asString()).as("%s", envelope).isEqualTo("succeeded");
        String generation = listed(serial).path("generation").asString();
        assertThat(generation).as("an opened device online has a generation").isNotBlank();
        return new Opened(envelope.at("/data/result/panelId").asString(), deviceId, generation);
    }

    /** The arguments of lomi_android_launch of {@code packageName} on {@code panel} at {@code generation}, then {@code more} pairs (an activity). */
    String launch(Opened panel, String generation, String packageName, String key, Object... more) {
        Object[] pairs = new Object[] {
            "workspaceId", workspace(),
            "panelId", panel.panelId(),
            "deviceId", panel.deviceId(),
            "generation", generation,
            "packageName", packageName,
            "expectedRevision", broker.revision(),
            "retryEpoch", epoch.value(),
            "requestKey", key
        };
        Object[] all = new Object[pairs.length + more.length];
        System.arraycopy(pairs, 0, all, 0, pairs.length);
        System.arraycopy(more, 0, all, pairs.length, more.length);
        return json(all);
    }

    /** The arguments of lomi_android_input of {@code event} on {@code panel} under {@code lease}. */
    String input(Opened panel, String lease, long sequence, JsonNode event) {
        return json(
                "workspaceId", workspace(),
                "panelId", panel.panelId(),
                "deviceId", panel.deviceId(),
                "generation", panel.generation(),
                "leaseId", lease,
                "inputSequence", Long.toString(sequence),
                "event", event,
                "retryEpoch", epoch.value());
    }

    JsonNode snapshot(Opened panel, String generation, Object... more) {
        return observe("lomi_android_snapshot", panel, generation, more);
    }

    JsonNode screenshot(Opened panel, String generation, Object... more) {
        return observe("lomi_android_screenshot", panel, generation, more);
    }

    JsonNode logcat(Opened panel, String generation, Object... more) {
        return observe("lomi_android_logcat", panel, generation, more);
    }

    private JsonNode observe(String tool, Opened panel, String generation, Object... more) {
        Object[] pairs = new Object[8 + more.length];
        pairs[0] = "workspaceId";
        pairs[1] = workspace();
        pairs[2] = "panelId";
        pairs[3] = panel.panelId();
        pairs[4] = "deviceId";
        pairs[5] = panel.deviceId();
        pairs[6] = "generation";
        pairs[7] = generation;
        System.arraycopy(more, 0, pairs, 8, more.length);
        return broker.call(session, tool, json(pairs));
    }

    /** Claims {@code panel}'s device input for this session (lomi_panel_control), the admin approving; the lease id. */
    String lease(Opened panel, String requestKey) {
        JsonNode claim = broker.ok(
                session,
                "lomi_panel_control",
                json(
                        "workspaceId", workspace(),
                        "panelId", panel.panelId(),
                        "deviceId", panel.deviceId(),
                        "generation", panel.generation(),
                        "action", "claim",
                        "expectedRevision", broker.revision(),
                        "retryEpoch", epoch.value(),
                        "requestKey", requestKey));
        broker.decisions.decide(new OperationId(claim.path("operationId").asString()), true);
        JsonNode claimed = broker.settled(session, claim.path("operationId").asString(), Duration.ofSeconds(30));
        assertThat(claimed.path("state").asString()).as("%s", claimed).isEqualTo("succeeded");
        return claimed.at("/result/leaseId").asString();
    }
}
