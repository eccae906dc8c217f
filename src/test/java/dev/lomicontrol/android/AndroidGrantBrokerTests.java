package dev.lomicontrol.android;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.pairing.AndroidGrant;
import dev.lomicontrol.pairing.Decision;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.Pairings;
import dev.lomicontrol.pairing.Scopes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The Android devices and packages of a pairing grant, enforced by the Android tools through the
 * broker's dispatch against the real adb server and test devices: a narrow grant lists only its
 * devices, every tool naming another device answers SCOPE_DENIED before anything reaches that device
 * (its recorded services stay as they were), launch and logcat refuse a package outside the grant, an
 * AVD granted by name covers the emulator serial it runs as, and YOLO's grant covers every device.
 * Our bookkeeping through the real adb, not Android behaviour.
 */
class AndroidGrantBrokerTests extends AndroidBrokerTest {

    static final String APP = "com.example.app";

    /** An agent in the calls' project holding every scope, the devices {@code devices} and the packages {@code packages}. */
    AndroidCalls narrow(List<String> devices, List<String> packages) {
        Set<String> scopes = Scopes.known();
        return new AndroidCalls(
                broker,
                calls.project,
                new Grant(true, Set.of(), scopes, AndroidGrant.select(scopes, devices, packages)));
    }

    static FakeAdbd appDevice() throws Exception {
        return FakeAdbd.open().onShell(argv -> switch (argv.get(0)) {
            case "pidof" -> FakeAdbd.Answer.out("77\n");
            case "logcat" -> FakeAdbd.Answer.out(String.join("\n", AndroidObserveBrokerTests.logLines(5)) + "\n");
            default -> AppLauncherTests.answer(argv);
        });
    }

    static List<String> names(JsonNode listing) {
        List<String> names = new ArrayList<>();
        listing.path("devices").forEach(device -> names.add(device.path("name").asString()));
        return names;
    }

    /** The arguments of an observation or effect on {@code panel} as {@code agent}, plus {@code more}. */
    static String on(AndroidCalls agent, AndroidCalls.Opened panel, Object... more) {
        Object[] pairs = new Object[8 + more.length];
        System.arraycopy(
                new Object[] {
                    "workspaceId", agent.workspace(),
                    "panelId", panel.panelId(),
                    "deviceId", panel.deviceId(),
                    "generation", panel.generation()
                },
                0,
                pairs,
                0,
                8);
        System.arraycopy(more, 0, pairs, 8, more.length);
        return json(pairs);
    }

    @Test
    void aNarrowGrantListsOnlyItsDevicesAndEveryToolRefusesAnotherBeforeReachingIt() throws Exception {
        try (FakeAdbd granted = appDevice();
                FakeAdbd foreign = appDevice()) {
            server.connect(granted, DeviceState.DEVICE);
            server.connect(foreign, DeviceState.DEVICE);
            AndroidCalls.Opened theirs = calls.opened(foreign.serial()); // a panel the full grant opened
            AndroidCalls agent = narrow(List.of(granted.serial()), List.of(APP));

            assertThat(names(agent.list()))
                    .contains(granted.serial() + " (adb: device)")
                    .noneMatch(name -> name.startsWith(foreign.serial()));
            int services = foreign.services().size();

            JsonNode open = agent.open(theirs.deviceId(), "open-foreign");
            assertThat(open.path("code").asString()).as("%s", open).isEqualTo("SCOPE_DENIED");
            assertThat(open.path("message").asString()).contains("not one of the Android devices this session's grant");
            String revision = broker.revision();
            List<String[]> refusedCalls = List.of(
                    new String[] {"lomi_android_snapshot", on(agent, theirs)},
                    new String[] {"lomi_android_screenshot", on(agent, theirs)},
                    new String[] {
                        "lomi_android_logcat", on(agent, theirs, "packageName", APP, "minPriority", "V", "limit", 10)
                    },
                    new String[] {
                        "lomi_android_launch", agent.launch(theirs, theirs.generation(), APP, "launch-foreign")
                    },
                    new String[] {
                        "lomi_android_input", agent.input(theirs, "ab".repeat(16), 1, AndroidInputBrokerTests.text("x"))
                    },
                    new String[] {
                        "lomi_android_install_apk",
                        on(
                                agent,
                                theirs,
                                "artifactId",
                                "art-foreign",
                                "sha256",
                                "ab".repeat(32),
                                "retryEpoch",
                                agent.epoch.value(),
                                "requestKey",
                                "install-foreign")
                    },
                    new String[] {
                        "lomi_panel_control",
                        on(
                                agent,
                                theirs,
                                "action",
                                "claim",
                                "expectedRevision",
                                broker.revision(),
                                "retryEpoch",
                                agent.epoch.value(),
                                "requestKey",
                                "claim-foreign")
                    });
            for (String[] call : refusedCalls) {
                JsonNode refused = broker.call(agent.session, call[0], call[1]);
                assertThat(refused.path("code").asString())
                        .as("%s: %s", call[0], refused)
                        .isEqualTo("SCOPE_DENIED");
            }
            assertThat(foreign.services())
                    .as("nothing reached the device outside the grant")
                    .hasSize(services);
            assertThat(broker.revision()).as("no panel was added").isEqualTo(revision);

            String unknown = UUID.randomUUID().toString();
            JsonNode none = agent.open(unknown, "open-unknown");
            assertThat(none.path("code").asString()).isEqualTo("SCOPE_DENIED");
            assertThat(none.path("message").asString())
                    .as("an id no device has answers as a device outside the grant does")
                    .isEqualTo(open.path("message").asString().replace(theirs.deviceId(), unknown));

            AndroidCalls.Opened mine = agent.opened(granted.serial());
            JsonNode logs = broker.ok(
                    agent.session,
                    "lomi_android_logcat",
                    on(agent, mine, "packageName", APP, "minPriority", "V", "limit", 10));
            assertThat(logs.path("lines")).as("the granted device answers").isNotEmpty();
        } finally {
            server.run("disconnect");
        }
    }

    @Test
    void launchAndLogcatOfAPackageOutsideTheGrantAreRefusedBeforeTheDevice() throws Exception {
        try (FakeAdbd device = appDevice()) {
            server.connect(device, DeviceState.DEVICE);
            AndroidCalls agent = narrow(List.of(device.serial()), List.of(APP));
            AndroidCalls.Opened panel = agent.opened(device.serial());
            List<List<String>> before = List.copyOf(device.shellCommands());

            String launchOther = on(
                    agent,
                    panel,
                    "packageName",
                    "com.other.app",
                    "expectedRevision",
                    broker.revision(),
                    "retryEpoch",
                    agent.epoch.value(),
                    "requestKey",
                    "launch-other");
            JsonNode launch = broker.call(agent.session, "lomi_android_launch", launchOther);
            assertThat(launch.path("code").asString()).as("%s", launch).isEqualTo("SCOPE_DENIED");
            assertThat(launch.path("message").asString()).contains("package com.other.app is not one of");
            assertThat(broker.refused(
                            agent.session,
                            "lomi_android_logcat",
                            on(agent, panel, "packageName", "com.other.app", "minPriority", "V", "limit", 10)))
                    .isEqualTo(ErrorCode.SCOPE_DENIED);
            assertThat(device.shellCommands()).as("neither reached the device").isEqualTo(before);

            JsonNode launched = broker.ok(
                    agent.session, "lomi_android_launch", agent.launch(panel, panel.generation(), APP, "launch-app"));
            assertThat(launched.path("state").asString()).as("%s", launched).isEqualTo("succeeded");
            JsonNode logs = broker.ok(
                    agent.session,
                    "lomi_android_logcat",
                    on(agent, panel, "packageName", APP, "minPriority", "V", "limit", 10));
            assertThat(logs.path("lines")).as("%s", logs).isNotEmpty();
        } finally {
            server.run("disconnect");
        }
    }

    @Test
    void anAvdGrantedByNameCoversTheEmulatorItRunsAsAndNoOtherAvd() throws Exception {
        Path avds = Files.createDirectories(scratch.resolve("avds-" + System.nanoTime()));
        avd(avds, "Pixel_8");
        avd(avds, "Tablet");
        broker.androidDevices = () -> new AndroidDevices(server.bridge(), new AvdDirectory(avds));
        try (FakeAdbd emulator = FakeAdbd.open().property("ro.boot.qemu.avd_name", "Pixel_8")) {
            String serial = server.registerEmulator(emulator);
            server.awaitState(serial, DeviceState.DEVICE);
            AndroidCalls agent = narrow(List.of("Pixel_8"), List.of(APP));

            JsonNode listing = agent.list();
            assertThat(names(listing)).containsExactly("Pixel_8 (" + serial + ", adb: device)");
            JsonNode opened = agent.open(listing.at("/devices/0/deviceId").asString(), "open-avd");
            assertThat(opened.at("/data/state").asString()).as("%s", opened).isEqualTo("succeeded");
            String tablet = deviceIdOf(calls.list(), "Tablet (AVD, not running)");
            assertThat(agent.open(tablet, "open-tablet").path("code").asString())
                    .isEqualTo("SCOPE_DENIED");
        } finally {
            server.run("disconnect");
        }
    }

    @Test
    void yolosGrantCoversEveryDevice() throws Exception {
        Pairings pairings = new Pairings(Clock.systemUTC(), new SecureRandom());
        pairings.setYolo(true);
        Grant yolo = ((Decision.Approved) pairings.submit("yolo agent", "ab".repeat(32), 7)
                        .decision()
                        .join())
                .grant();
        assertThat(yolo.android()).isEqualTo(AndroidGrant.EVERYTHING);
        try (FakeAdbd one = FakeAdbd.open();
                FakeAdbd two = FakeAdbd.open()) {
            server.connect(one, DeviceState.DEVICE);
            server.connect(two, DeviceState.DEVICE);
            assertThat(yolo.scopes())
                    .as("YOLO's full grant holds the android.* scopes")
                    .contains("android.read");
            AndroidCalls agent = new AndroidCalls(broker, calls.project, yolo);
            assertThat(names(agent.list())).contains(one.serial() + " (adb: device)", two.serial() + " (adb: device)");
            agent.opened(two.serial());
        } finally {
            server.run("disconnect");
        }
    }

    private static String deviceIdOf(JsonNode listing, String name) {
        for (JsonNode device : listing.path("devices")) {
            if (device.path("name").asString().equals(name)) {
                return device.path("deviceId").asString();
            }
        }
        throw new AssertionError(name + " is not listed: " + names(listing));
    }

    /** An AVD as avdmanager writes one: {@code NAME.ini} pointing at {@code NAME.avd/} with its config.ini. */
    private static void avd(Path home, String name) throws java.io.IOException {
        Path folder = Files.createDirectories(home.resolve(name + ".avd"));
        Files.writeString(
                home.resolve(name + ".ini"), "avd.ini.encoding=UTF-8\npath=" + folder + "\ntarget=android-34\n");
        Files.writeString(folder.resolve("config.ini"), "avd.ini.displayname=" + name + "\nhw.ramSize=2048\n");
    }
}
