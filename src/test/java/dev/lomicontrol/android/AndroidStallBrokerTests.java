package dev.lomicontrol.android;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.testing.Eventually;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Every served Android tool against a device that accepts each stream and then never answers nor
 * acknowledges ({@link FakeAdbd#silence}), through the broker's dispatch and the real adb server:
 * each answers a typed error within its documented deadline (docs/MCP.md), one observation at a time
 * per device without wedging, while the broker and a second, healthy device keep answering at once.
 * Our deadlines and bookkeeping against the real adb — not Android behaviour.
 */
class AndroidStallBrokerTests extends AndroidBrokerTest {

    /** What a loaded machine may add to a deadline (two cores, other builds running). */
    static final long MARGIN_MS = 3_000;

    /** How fast "at once" is for a call that does not wait on the stalled device. */
    static final long PROMPT_MS = 3_000;

    record Timed(JsonNode answer, long ms) {}

    /** A thread per call in flight (the common pool may have one thread on this machine). */
    static final ExecutorService CALLERS = Executors.newCachedThreadPool(r -> {
        Thread thread = new Thread(r, "stalled-device-caller");
        thread.setDaemon(true);
        return thread;
    });

    static CompletableFuture<Timed> timed(Supplier<JsonNode> call) {
        return CompletableFuture.supplyAsync(
                () -> {
                    long start = System.nanoTime();
                    JsonNode answer = call.get();
                    return new Timed(answer, (System.nanoTime() - start) / 1_000_000);
                },
                CALLERS);
    }

    static Timed now(Supplier<JsonNode> call) {
        return timed(call).join();
    }

    /** The answer's error code: the envelope's, or the settled operation's. */
    static String code(JsonNode answer) {
        String code = answer.path("code").asString("");
        return code.isEmpty()
                ? answer.at("/data/errorCode").asString(answer.path("errorCode").asString(""))
                : code;
    }

    static FakeAdbd healthy() throws Exception {
        byte[] dump = AndroidObserveBrokerTests.loginDump();
        return FakeAdbd.open()
                .onShell(AppLauncherTests::answer)
                .onExec(argv -> argv.equals(List.of("uiautomator", "dump", "/dev/tty")) ? dump : new byte[0]);
    }

    String observed(AndroidCalls.Opened panel) {
        return json(
                "workspaceId", calls.workspace(),
                "panelId", panel.panelId(),
                "deviceId", panel.deviceId(),
                "generation", panel.generation());
    }

    /** Imports an APK and asks to install it on {@code panel}'s device: the operation awaiting the admin. */
    String installAsked(AndroidCalls.Opened panel) throws Exception {
        byte[] apk = AndroidInstallBrokerTests.apk(300_000);
        String sha256 = AndroidInstallBrokerTests.sha256(apk);
        String artifactId = AndroidInstallBrokerTests.imported(broker, calls, "stall.apk", apk);
        JsonNode asked = broker.ok(
                calls.session,
                "lomi_android_install_apk",
                AndroidInstallBrokerTests.install(calls, panel, artifactId, sha256, "install-stall"));
        assertThat(asked.path("state").asString()).as("%s", asked).isEqualTo("awaiting_user");
        return asked.path("operationId").asString();
    }

    @Test
    void everyServedToolAnswersAStalledDeviceByItsDeadlineWhileTheBrokerAndAHealthyDeviceKeepServing()
            throws Exception {
        try (FakeAdbd stalled = healthy();
                FakeAdbd other = healthy()) {
            server.connect(stalled, DeviceState.DEVICE);
            server.connect(other, DeviceState.DEVICE);
            AndroidCalls.Opened panel = calls.opened(stalled.serial());
            AndroidCalls.Opened healthyPanel = calls.opened(other.serial());
            String lease = calls.lease(panel, "claim-stalled");
            String install = installAsked(panel);
            Files.writeString(calls.project.root().resolve("notes.txt"), "the broker keeps serving\n");
            stalled.silence();

            CompletableFuture<Timed> snapshot =
                    timed(() -> broker.call(calls.session, "lomi_android_snapshot", observed(panel)));
            CompletableFuture<Timed> input = timed(() -> broker.call(
                    calls.session,
                    "lomi_android_input",
                    calls.input(panel, lease, 1, AndroidInputBrokerTests.text("stalled"))));
            CompletableFuture<Timed> launch = timed(() -> broker.call(
                    calls.session,
                    "lomi_android_launch",
                    calls.launch(panel, panel.generation(), "com.example.app", "launch-stalled")));
            // the approval starts the install on a thread of its own; the decision returns at once
            CompletableFuture<Timed> installed = timed(() -> {
                broker.decisions.decide(new OperationId(install), true);
                return broker.settled(calls.session, install, Duration.ofSeconds(130));
            });
            Eventually.await(
                    "the dump, the input, the launch and the install reached the stalled device",
                    Duration.ofSeconds(10),
                    stalled::services,
                    services -> services.stream().anyMatch(s -> s.contains("uiautomator"))
                            && services.stream().anyMatch(s -> s.contains("'input'"))
                            && services.stream().anyMatch(s -> s.contains("resolve-activity"))
                            && services.stream().anyMatch(s -> s.contains("'install'")));

            Timed busy = now(() -> broker.call(calls.session, "lomi_android_screenshot", observed(panel)));
            assertThat(code(busy.answer())).as("%s", busy).isEqualTo("TARGET_BUSY");
            assertThat(busy.answer().path("message").asString()).contains("one at a time per device");
            assertThat(busy.ms()).as("refused at once, not queued").isLessThan(PROMPT_MS);
            for (Timed prompt : List.of(
                    now(() -> broker.call(
                            calls.session,
                            "lomi_files_read",
                            json("workspaceId", calls.workspace(), "relativePath", "notes.txt"))),
                    now(() -> broker.call(calls.session, "lomi_panel_list", json("workspaceId", calls.workspace()))),
                    now(() -> broker.call(calls.session, "lomi_android_list", json("workspaceId", calls.workspace()))),
                    now(() -> calls.open(panel.deviceId(), "open-again")),
                    now(() -> broker.call(calls.session, "lomi_android_snapshot", observed(healthyPanel))),
                    now(() -> broker.call(
                            calls.session,
                            "lomi_android_launch",
                            calls.launch(
                                    healthyPanel, healthyPanel.generation(), "com.example.app", "launch-healthy"))))) {
                assertThat(prompt.answer().path("status").asString())
                        .as("the broker keeps serving: %s", prompt)
                        .isEqualTo("ok");
                assertThat(prompt.ms()).as("%s", prompt).isLessThan(PROMPT_MS);
            }

            assertAnswered("snapshot", snapshot.get(), 12_000, "DEADLINE_EXCEEDED");
            assertAnswered("input", input.get(), 5_000, "DEADLINE_EXCEEDED", "OUTCOME_UNKNOWN");
            assertAnswered("launch", launch.get(), 30_000, "DEADLINE_EXCEEDED", "OUTCOME_UNKNOWN");
            assertAnswered("install_apk", installed.get(), 120_000, "DEADLINE_EXCEEDED", "OUTCOME_UNKNOWN");
            assertAnswered(
                    "screenshot",
                    now(() -> broker.call(calls.session, "lomi_android_screenshot", observed(panel))),
                    15_000,
                    "DEADLINE_EXCEEDED");
            assertAnswered(
                    "logcat",
                    now(() -> calls.logcat(
                            panel,
                            panel.generation(),
                            "packageName",
                            "com.example.app",
                            "minPriority",
                            "W",
                            "limit",
                            8)),
                    10_000,
                    "DEADLINE_EXCEEDED");

            stalled.resume();
            Timed after = now(() -> broker.call(calls.session, "lomi_android_snapshot", observed(panel)));
            assertThat(after.answer().path("status").asString())
                    .as("the device's next observation after the stall gets its answer: %s", after)
                    .isEqualTo("ok");
            assertThat(after.ms()).isLessThan(PROMPT_MS);
        } finally {
            server.run("disconnect");
        }
    }

    static void assertAnswered(String tool, Timed timed, long deadlineMs, String... codes) {
        assertThat(code(timed.answer())).as("%s: %s", tool, timed).isIn((Object[]) codes);
        assertThat(timed.answer().toString())
                .as("%s names what it was waiting on", tool)
                .contains("on 127.0.0.1:");
        assertThat(timed.ms())
                .as("%s within its %d ms deadline", tool, deadlineMs)
                .isLessThan(deadlineMs + MARGIN_MS);
    }
}
