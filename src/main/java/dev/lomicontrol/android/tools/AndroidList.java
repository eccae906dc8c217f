package dev.lomicontrol.android.tools;

import dev.lomicontrol.android.AndroidDevices;
import dev.lomicontrol.android.DeviceState;
import dev.lomicontrol.android.api.AndroidResults;
import dev.lomicontrol.android.api.AndroidSpecs;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.PanelKind;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * {@code lomi_android_list}: the user's devices ({@link AndroidDevices}) in the reference's shape,
 * only those the session's grant names ({@link GrantedDevices}: its ≤16 selected devices, or all under YOLO).
 * The reference's {@code Device} has no field for adb's state, so the state is in {@code name} —
 * {@code "<serial> (adb: unauthorized)"}, {@code "<AVD> (emulator-5554, adb: device)"},
 * {@code "<AVD> (AVD, not running)"} — and in {@code phase}: {@code device}, {@code unauthorized}
 * and {@code no permissions} are {@code running} (the device runs; the name says why it may not be
 * usable), {@code offline}/{@code connecting}/{@code authorizing} {@code booting}, other modes
 * (bootloader, recovery, …) {@code failed}, an AVD without an emulator {@code stopped}.
 * {@code deviceId} is a name-based UUID of {@code adb:<serial>} or {@code avd:<name>}: the same device
 * keeps its id across calls and broker restarts. {@code generation} is the current generation of an
 * online device an Android panel of the workspace shows (lomi_android_open, or a panel opened before a
 * broker restart, which mints a new one); the observations take it. The listing
 * asks the adb server within 10 s.
 */
final class AndroidList {

    static final Duration DEADLINE = Duration.ofSeconds(10);

    private final WorkspaceAccess access;
    private final Layout layout;
    private final Supplier<AndroidDevices> devices;
    private final AndroidPanels live;

    /** {@code live}: the generations Android panels minted; {@code layout}: the panels of the workspace listed. */
    AndroidList(WorkspaceAccess access, Layout layout, Supplier<AndroidDevices> devices, AndroidPanels live) {
        this.access = access;
        this.layout = layout;
        this.devices = devices;
        this.live = live;
    }

    AndroidResults.Devices list(Session session, AndroidSpecs.ListInput in) {
        access.resolve(session, in.workspaceId());
        List<AndroidResults.Device> out = new ArrayList<>();
        List<AndroidDevices.Listed> listing = devices.get().list(DEADLINE);
        live.seen(listing);
        Set<String> shown = layout.view(in.workspaceId()).panels().stream()
                .filter(panel -> panel.kind() == PanelKind.ANDROID)
                .flatMap(panel -> AndroidPanels.deviceOf(panel).stream())
                .collect(Collectors.toSet());
        for (AndroidDevices.Listed device : listing) {
            if (!GrantedDevices.covers(session, device)) {
                continue;
            }
            if (shown.contains(AndroidPanels.idOf(device))) {
                live.shown(device.serial());
            }
            out.add(new AndroidResults.Device(
                    new AndroidSpecs.DeviceId(AndroidPanels.idOf(device)),
                    name(device),
                    live.generationOf(device),
                    phase(device.state()),
                    device.state().isPresent() && device.state().get() != DeviceState.OFFLINE,
                    Optional.empty()));
        }
        return new AndroidResults.Devices(in.workspaceId(), revision(out), true, List.copyOf(out));
    }

    static String name(AndroidDevices.Listed device) {
        if (device.serial().isEmpty()) {
            return device.avd().orElseThrow().name() + " (AVD, not running)";
        }
        String adb = "adb: " + device.state().orElseThrow().word();
        return device.avd()
                .map(avd -> avd.name() + " (" + device.serial().get() + ", " + adb + ")")
                .orElseGet(() -> device.serial().get() + " (" + adb + ")");
    }

    static AndroidResults.Phase phase(Optional<DeviceState> state) {
        if (state.isEmpty()) {
            return AndroidResults.Phase.STOPPED;
        }
        switch (state.get()) {
            case DEVICE:
            case UNAUTHORIZED:
            case NO_PERMISSIONS:
                return AndroidResults.Phase.RUNNING;
            case OFFLINE:
            case CONNECTING:
            case AUTHORIZING:
                return AndroidResults.Phase.BOOTING;
            default:
                return AndroidResults.Phase.FAILED;
        }
    }

    /** A revision of the listing: the first 16 hex digits of the SHA-256 of its ids, names and phases. */
    static String revision(List<AndroidResults.Device> devices) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (AndroidResults.Device d : devices) {
                sha.update((d.deviceId() + "\t" + d.name() + "\t" + d.phase() + "\n").getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(sha.digest()).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
