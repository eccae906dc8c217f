package dev.lomicontrol.pairing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The Android part of a grant as the reference's approval checks it: devices for the android.* scopes
 * (except setup/manage alone), packages for launch and logs, at most 16 of each; an AVD named covers
 * the emulator serial it runs as; YOLO's grant covers every device and package.
 */
class AndroidGrantTests {

    static final Set<String> CONTROL = Set.of("workspace.read", "android.read", "android.control", "android.interact");
    static final Set<String> LAUNCH = Set.of("workspace.read", "android.read", "android.control", "android.launch");

    static void refused(Runnable select, String... parts) {
        assertThatThrownBy(select::run).isInstanceOfSatisfying(LomiException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
            assertThat(e.getMessage()).contains(parts);
        });
    }

    @Test
    void theDeviceScopesNeedOneToSixteenDevicesAndLaunchOrLogsAPackage() {
        AndroidGrant grant = AndroidGrant.select(CONTROL, List.of("emulator-5554", "Pixel_8"), List.of());
        assertThat(grant.devices()).containsExactlyInAnyOrder("emulator-5554", "Pixel_8");
        assertThat(grant.allDevices()).isFalse();

        refused(() -> AndroidGrant.select(CONTROL, List.of(), List.of()), "need 1-16 Android devices");
        refused(
                () -> AndroidGrant.select(Set.of("workspace.read", "android.read"), List.of(), List.of()),
                "android.read");
        refused(
                () -> AndroidGrant.select(LAUNCH, List.of("R58M12"), List.of()),
                "android.launch need 1-16 Android packages");
        assertThat(AndroidGrant.select(LAUNCH, List.of("R58M12"), List.of("com.example.app"))
                        .packages())
                .containsExactly("com.example.app");
    }

    @Test
    void setupOrManageAloneNeedNoDevice() {
        assertThat(AndroidGrant.select(Set.of("workspace.read", "android.read", "android.setup"), List.of(), List.of()))
                .isEqualTo(AndroidGrant.NONE);
        assertThat(AndroidGrant.select(
                        Set.of("workspace.read", "android.read", "android.manage"), List.of(), List.of()))
                .isEqualTo(AndroidGrant.NONE);
        assertThat(AndroidGrant.select(Set.of("workspace.read", "files.read"), List.of(), List.of()))
                .as("no Android scope, nothing named")
                .isEqualTo(AndroidGrant.NONE);
    }

    @Test
    void moreThanSixteenAMalformedNameOrNamesWithoutTheirScopesAreRefused() {
        List<String> seventeen = IntStream.range(0, 17)
                .mapToObj(i -> "emulator-" + (5554 + 2 * i))
                .toList();
        refused(() -> AndroidGrant.select(CONTROL, seventeen, List.of()), "at most 16 Android devices (17 given)");
        List<String> packages =
                IntStream.range(0, 17).mapToObj(i -> "com.example.app" + i).toList();
        refused(
                () -> AndroidGrant.select(LAUNCH, List.of("Pixel_8"), packages),
                "at most 16 Android packages (17 given)");
        refused(
                () -> AndroidGrant.select(CONTROL, List.of("a phone"), List.of()),
                "not an adb serial or AVD name: 'a phone'");
        refused(() -> AndroidGrant.select(LAUNCH, List.of("Pixel_8"), List.of("nodot")), "not an Android package name");
        refused(
                () -> AndroidGrant.select(Set.of("workspace.read"), List.of("Pixel_8"), List.of()),
                "granted with android.* scopes");
        refused(
                () -> AndroidGrant.select(CONTROL, List.of("Pixel_8"), List.of("com.example.app")),
                "android.launch or android.logs");
    }

    @Test
    void aSerialOrTheAvdItRunsCoversADeviceAndYoloCoversEvery() {
        AndroidGrant byAvd = new AndroidGrant(false, Set.of("Pixel_8"), false, Set.of("com.example.app"));
        assertThat(byAvd.coversDevice(Optional.of("emulator-5554"), Optional.of("Pixel_8")))
                .isTrue();
        assertThat(byAvd.coversDevice(Optional.empty(), Optional.of("Pixel_8"))).isTrue();
        assertThat(byAvd.coversDevice(Optional.of("emulator-5556"), Optional.of("Tablet")))
                .isFalse();
        assertThat(byAvd.coversDevice(Optional.of("Pixel_8x"), Optional.empty()))
                .isFalse();
        AndroidGrant bySerial = new AndroidGrant(false, Set.of("emulator-5554"), false, Set.of());
        assertThat(bySerial.coversDevice(Optional.of("emulator-5554"), Optional.of("Pixel_8")))
                .isTrue();
        assertThat(byAvd.coversPackage("com.example.app")).isTrue();
        assertThat(byAvd.coversPackage("com.example.other")).isFalse();

        Pairings pairings = new Pairings(Clock.systemUTC(), new SecureRandom());
        pairings.setYolo(true);
        Grant yolo = ((Decision.Approved)
                        pairings.submit("yolo", "ab".repeat(32), 1).decision().join())
                .grant();
        assertThat(yolo.android()).isEqualTo(AndroidGrant.EVERYTHING);
        assertThat(yolo.android().coversDevice(Optional.of("any-serial"), Optional.empty()))
                .isTrue();
        assertThat(yolo.android().coversPackage("com.any.app")).isTrue();
        assertThat(new Grant(true, Set.of(), Scopes.known()).android())
                .as("a grant that names none holds none")
                .isEqualTo(AndroidGrant.NONE);
    }

    @Test
    void anApprovalCarriesTheSelectionAndARefusedOneStaysPending() {
        Pairings pairings = new Pairings(Clock.systemUTC(), new SecureRandom());
        Pairings.Pending pending = pairings.submit("agent", "cd".repeat(32), 2);
        String id = pending.request().id();
        Optional<List<String>> scopes = Optional.of(List.copyOf(LAUNCH));
        refused(
                () -> pairings.approve(id, Optional.empty(), scopes, name -> Optional.empty(), Set::of),
                "need 1-16 Android devices");
        assertThat(pairings.pending()).extracting(PairingRequest::id).containsExactly(id);

        Grant grant = pairings.approve(
                id,
                Optional.empty(),
                scopes,
                List.of("Pixel_8"),
                List.of("com.example.app"),
                name -> Optional.empty(),
                Set::of);
        assertThat(grant.android().devices()).containsExactly("Pixel_8");
        assertThat(grant.android().packages()).containsExactly("com.example.app");
        assertThat(pending.decision().join()).isEqualTo(new Decision.Approved(grant));
        Session session = new Session(
                dev.lomicontrol.core.SessionId.random(new SecureRandom()),
                pending.request(),
                grant,
                java.time.Instant.now(),
                () -> {});
        session.extendGrant(new dev.lomicontrol.core.ProjectId("prj-0123456789abcdef"));
        assertThat(session.grant().android())
                .as("a project added keeps the devices")
                .isEqualTo(grant.android());
    }
}
