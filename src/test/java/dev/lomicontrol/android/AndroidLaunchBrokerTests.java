package dev.lomicontrol.android;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * lomi_android_launch through the broker's dispatch against the real adb server and a test device
 * answering in {@code am start -W}'s and {@code cmd package resolve-activity}'s real output formats
 * (the answers of {@link AppLauncherTests}): our commands, receipts and bookkeeping through the real
 * adb, not that Android starts anything.
 */
class AndroidLaunchBrokerTests extends AndroidBrokerTest {

    static long starts(FakeAdbd device) {
        return device.shellCommands().stream()
                .filter(argv -> argv.size() > 1 && argv.subList(0, 2).equals(List.of("am", "start")))
                .count();
    }

    @Test
    void aLaunchDeliversTheIntentOnceAndARetryAnswersTheSameOperation() throws Exception {
        try (FakeAdbd device = FakeAdbd.open().onShell(AppLauncherTests::answer)) {
            server.connect(device, DeviceState.DEVICE);
            AndroidCalls.Opened panel = calls.opened(device.serial());

            String arguments = calls.launch(panel, panel.generation(), "com.example.app", "launch-1");
            JsonNode launched = broker.ok(calls.session, "lomi_android_launch", arguments);
            assertThat(launched.path("state").asString()).as("%s", launched).isEqualTo("succeeded");
            assertThat(launched.at("/result/activity").asString()).isEqualTo(".Home");
            assertThat(launched.at("/result/intentDelivered").asBoolean()).isTrue();
            assertThat(launched.at("/result/generation").asString()).isEqualTo(panel.generation());
            JsonNode again = broker.ok(calls.session, "lomi_android_launch", arguments);
            assertThat(again.path("operationId").asString())
                    .isEqualTo(launched.path("operationId").asString());
            assertThat(starts(device)).as("a retry starts nothing again").isEqualTo(1);
            assertThat(device.shellCommands()).contains(List.of("am", "start", "-W", "-n", "com.example.app/.Home"));

            JsonNode explicit = broker.ok(
                    calls.session,
                    "lomi_android_launch",
                    calls.launch(panel, panel.generation(), "com.example.app", "launch-2", "activity", ".Main"));
            assertThat(explicit.at("/result/activity").asString()).isEqualTo(".Main");
        }
    }

    @Test
    void aMissingActivityFailsTheOperationAndAnOldGenerationOrRevisionIsRefused() throws Exception {
        try (FakeAdbd device = FakeAdbd.open().onShell(AppLauncherTests::answer)) {
            server.connect(device, DeviceState.DEVICE);
            AndroidCalls.Opened panel = calls.opened(device.serial());

            JsonNode missing = broker.ok(
                    calls.session,
                    "lomi_android_launch",
                    calls.launch(panel, panel.generation(), "com.example.app", "launch-n", "activity", ".Nope"));
            assertThat(missing.path("state").asString()).as("%s", missing).isEqualTo("failed");
            assertThat(missing.path("errorCode").asString()).isEqualTo("TARGET_NOT_FOUND");

            assertThat(broker.refused(
                            calls.session,
                            "lomi_android_launch",
                            calls.launch(panel, "gen-00000000000000ff", "com.example.app", "launch-old")))
                    .isEqualTo(ErrorCode.STALE_GENERATION);
            String stale = calls.launch(panel, panel.generation(), "com.example.app", "launch-rev")
                    .replace("\"expectedRevision\":\"" + broker.revision() + "\"", "\"expectedRevision\":\"1\"");
            assertThat(broker.refused(calls.session, "lomi_android_launch", stale))
                    .isEqualTo(ErrorCode.REVISION_CONFLICT);
            assertThat(starts(device)).isEqualTo(1);
        }
    }
}
