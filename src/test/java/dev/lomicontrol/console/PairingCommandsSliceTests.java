package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.pairing.Decision;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.Pairings;
import dev.lomicontrol.pairing.YoloPolicy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Slice test of the pairing group ({@code pairing list|approve|deny}, {@code yolo status|on|off}): no broker runs. */
class PairingCommandsSliceTests extends ConsoleSliceSupport {

    @Autowired
    Pairings pairings;

    @Autowired
    YoloPolicy yolo;

    @Test
    void theGroupIsRegisteredWithHelpForEachCommand() {
        assertGroupHelp(
                "Pairing", "pairing list", "pairing approve", "pairing deny", "yolo status", "yolo on", "yolo off");
    }

    @Test
    void argumentsAreParsedStrictly() {
        assertUsage("pairing", "'pairing' needs one of: approve, deny, list");
        assertUsage("pairing approve", "missing <id>", "--all --confirm");
        assertUsage("pairing approve pr-1 --all --confirm", "either request ids or --all");
        assertUsage("pairing deny a b", "unexpected: b");
        assertUsage("yolo on --confirm=maybe", "is a flag");
    }

    @Test
    void aPendingRequestIsListedApprovedAndAnUnknownOneIsRefused() {
        Pairings.Pending pending = pairings.submit("slice client", "cd".repeat(32), 4321);
        assertThat(ok("pairing list")).contains(pending.request().id(), "slice client", "4321");
        assertThat(ok("pairing list --json"))
                .startsWith("{")
                .contains(pending.request().id());
        ok("pairing approve " + pending.request().id());
        assertThat(pending.decision()).isDone();
        assertRefused("pairing deny " + pending.request().id(), "TARGET_NOT_FOUND", "no pending pairing request");
    }

    @Test
    void approveTakesAndroidDevicesAndPackagesCheckedAgainstTheScopes() {
        Pairings.Pending pending = pairings.submit("android agent", "ef".repeat(32), 4400);
        String approve = "pairing approve " + pending.request().id()
                + " --scopes workspace.read,android.read,android.control,android.launch";
        assertRefused(approve, "INVALID_ARGUMENT", "need 1-16 Android devices", "need 1-16 Android packages");
        String seventeen = String.join(
                ",",
                java.util.stream.IntStream.range(0, 17)
                        .mapToObj(i -> "emulator-" + (5554 + 2 * i))
                        .toList());
        assertRefused(
                approve + " --android-devices " + seventeen + " --android-packages com.example.app",
                "INVALID_ARGUMENT",
                "at most 16 Android devices (17 given)");
        assertRefused(
                "pairing approve " + pending.request().id() + " --scopes workspace.read --android-devices Pixel_8",
                "granted with android.* scopes");
        assertThat(pending.decision())
                .as("a refused approval leaves the request pending")
                .isNotDone();

        assertThat(ok(approve + " --android-devices emulator-5554,Pixel_8 --android-packages com.example.app"))
                .contains(
                        "approved " + pending.request().id(),
                        "Android devices Pixel_8, emulator-5554, packages com.example.app");
        Grant grant = ((Decision.Approved) pending.decision().join()).grant();
        assertThat(grant.android().devices()).containsExactlyInAnyOrder("emulator-5554", "Pixel_8");
        assertThat(grant.android().packages()).containsExactly("com.example.app");
        assertThat(grant.android().allDevices()).isFalse();
    }

    @Test
    void aFlaglessApprovalReachesEveryAndroidDeviceAndPackageUnlessSomeAreNamed() {
        Pairings.Pending everything = pairings.submit("full", "ef".repeat(32), 4401);
        assertThat(ok("pairing approve " + everything.request().id()))
                .contains("Android devices every device, every package");
        Grant full = ((Decision.Approved) everything.decision().join()).grant();
        assertThat(full.scopes()).contains("android.interact", "android.install", "android.setup", "android.manage");
        assertThat(full.android()).isEqualTo(dev.lomicontrol.pairing.AndroidGrant.EVERYTHING);

        Pairings.Pending narrowed = pairings.submit("narrowed", "ef".repeat(32), 4402);
        assertRefused(
                "pairing approve " + narrowed.request().id() + " --android-devices bad/serial",
                "INVALID_ARGUMENT",
                "not an adb serial or AVD name");
        assertThat(ok("pairing approve " + narrowed.request().id() + " --android-devices Pixel_8"))
                .contains("Android devices Pixel_8, every package");
        Grant grant = ((Decision.Approved) narrowed.decision().join()).grant();
        assertThat(grant.android().devices()).containsExactly("Pixel_8");
        assertThat(grant.android().allDevices()).isFalse();
        assertThat(grant.android().allPackages()).isTrue();
    }

    @Test
    void approveAllApprovesWhatIsListedOnlyWithConfirm() {
        List<Pairings.Pending> listed = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            listed.add(pairings.submit("agent " + i, "ab".repeat(32), 5000 + i));
        }
        assertThat(ok("pairing list")).contains("agent 0", "agent 31");

        assertRefused("pairing approve --all", "approves the 32 pending request(s)", "repeat with --confirm");
        assertThat(listed).noneMatch(pending -> pending.decision().isDone());

        assertThat(ok("pairing approve --all --confirm")).contains("approved 32 of 32 pending request(s)");
        assertThat(listed).allMatch(pending -> pending.decision().isDone());
        assertThat(ok("pairing list")).contains("no pending pairing requests");
        assertThat(ok("pairing approve --all --confirm")).contains("nothing approved");
    }

    @Test
    void severalIdsAreApprovedInOneCommand() {
        Pairings.Pending first = pairings.submit("one", "ab".repeat(32), 11);
        Pairings.Pending second = pairings.submit("two", "cd".repeat(32), 12);
        assertThat(ok("pairing approve " + first.request().id() + " "
                        + second.request().id()))
                .contains(
                        "approved " + first.request().id(),
                        "approved " + second.request().id());
        assertThat(second.decision()).isDone();
    }

    @Test
    void yoloOnIsRefusedWithoutConfirmAndChangesNothing() {
        assertRefused("yolo on", "repeat with --confirm");
        assertThat(yolo.isOn()).isFalse();
        assertThat(ok("yolo status")).contains("off");
        ok("yolo on --confirm");
        assertThat(yolo.isOn()).isTrue();
        ok("yolo off");
        assertThat(yolo.isOn()).isFalse();
    }
}
