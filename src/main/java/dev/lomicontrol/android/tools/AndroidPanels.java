package dev.lomicontrol.android.tools;

import dev.lomicontrol.android.AndroidDevices;
import dev.lomicontrol.android.DeviceState;
import dev.lomicontrol.android.api.AndroidSpecs;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.operations.LivePanels;
import dev.lomicontrol.operations.PanelTargets;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.PanelKind;
import dev.lomicontrol.tools.Token;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Android panels and the device {@code generation}s (in memory: a broker restart mints new ones).
 * A generation is minted for a serial when a panel shows it (opened now, or before a broker restart) and a call sees it online
 * ({@code device} in adb's listing: the open, the list, an observation), dropped when a call sees it
 * gone or not online, and minted anew when a call sees it back;
 * {@link #mint} mints one unconditionally (for a start that sees a new boot). Every observation
 * starts with {@link #bound}: the panel, its device, in the session's grant (else SCOPE_DENIED,
 * {@link GrantedDevices}), online now, the caller's generation current (else STALE_GENERATION). One
 * observation at a time per device ({@link #observe}): a second one while the first runs answers
 * TARGET_BUSY at once rather than queueing behind a slow device.
 */
final class AndroidPanels implements LivePanels {

    /** How long resolving a device id against the adb server's listing may take. */
    static final Duration RESOLVE = Duration.ofSeconds(5);

    private static final Pattern DEVICE = Pattern.compile("\"deviceId\":\"([0-9a-f-]{36})\"");

    private final PanelTargets panels;
    private final Supplier<AndroidDevices> devices;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, String> generations = new ConcurrentHashMap<>();
    private final Set<String> observing = ConcurrentHashMap.newKeySet();
    private final Set<String> opened = ConcurrentHashMap.newKeySet();

    AndroidPanels(PanelTargets panels, Supplier<AndroidDevices> devices) {
        this.panels = panels;
        this.devices = devices;
    }

    /** A device as a call resolved it: its id, its serial when attached, its adb state when attached. */
    record Resolved(String deviceId, Optional<String> serial, Optional<DeviceState> state, String name) {
        boolean online() {
            return state.isPresent() && state.get() == DeviceState.DEVICE;
        }
    }

    /** A bound device: its serial on the adb server, its current generation, the bridge to reach it. */
    record Bound(
            String panelId,
            String deviceId,
            String serial,
            String generation,
            AndroidDevices devices,
            WorkspaceAccess.Listed listed) {}

    /** The id lomi_android_list answers for a listed device. */
    static String idOf(AndroidDevices.Listed device) {
        return idOf(device.key());
    }

    /** The id of a device key ({@code adb:<serial>}, {@code avd:<name>}). */
    static String idOf(String key) {
        return UUID.nameUUIDFromBytes(key.getBytes(StandardCharsets.UTF_8)).toString();
    }

    /**
     * The device {@code deviceId} as the adb server and the AVD home list it now, else TARGET_NOT_FOUND;
     * SCOPE_DENIED outside the session's grant ({@link GrantedDevices}).
     */
    Resolved resolve(Session session, AndroidSpecs.DeviceId deviceId) {
        Optional<AndroidDevices.Listed> found = listed(deviceId);
        GrantedDevices.require(session, deviceId, found);
        return found.map(device -> resolved(deviceId, device))
                .orElseThrow(() -> new LomiException(
                        ErrorCode.TARGET_NOT_FOUND,
                        "no device " + deviceId
                                + " on this host's adb server or AVD home now; list them (lomi_android_list)"));
    }

    /**
     * SCOPE_DENIED unless {@code deviceId} is in the session's grant (asks adb only when the grant's
     * names do not settle it).
     */
    void requireGranted(Session session, AndroidSpecs.DeviceId deviceId) {
        if (!GrantedDevices.named(session, deviceId)) {
            GrantedDevices.require(session, deviceId, listed(deviceId));
        }
    }

    private static Resolved resolved(AndroidSpecs.DeviceId deviceId, AndroidDevices.Listed device) {
        return new Resolved(deviceId.value(), device.serial(), device.state(), AndroidList.name(device));
    }

    /** The device {@code deviceId} in a listing taken now (which also ends the generations of devices gone). */
    private Optional<AndroidDevices.Listed> listed(AndroidSpecs.DeviceId deviceId) {
        java.util.List<AndroidDevices.Listed> listing = devices.get().list(RESOLVE);
        seen(listing);
        for (AndroidDevices.Listed device : listing) {
            if (idOf(device).equals(deviceId.value())) {
                return Optional.of(device);
            }
        }
        return Optional.empty();
    }

    /**
     * A listing taken now: the generation of a serial that is not online in it ends (a complete listing
     * only: one cut at {@link AndroidDevices#MAX} may leave out devices that are still there).
     */
    void seen(java.util.List<AndroidDevices.Listed> listing) {
        if (listing.size() >= AndroidDevices.MAX) {
            return;
        }
        Set<String> online = ConcurrentHashMap.newKeySet();
        for (AndroidDevices.Listed device : listing) {
            if (device.serial().isPresent() && device.state().equals(Optional.of(DeviceState.DEVICE))) {
                online.add(device.serial().get());
            }
        }
        generations.keySet().retainAll(online);
    }

    /** A new generation for {@code serial} (a new boot), replacing the current one. */
    String mint(String serial) {
        String generation = "gen-" + Ids.randomHex(random, 8);
        generations.put(serial, generation);
        return generation;
    }

    /** {@code serial} stopped (lomi_android_stop): its generation ends, and a later boot mints its own. */
    void ended(String serial) {
        opened.remove(serial);
        generations.remove(serial);
    }

    /** An Android panel was opened on {@code device}: from now on, seen online, it has a generation. */
    void opened(Resolved device) {
        device.serial().ifPresent(opened::add);
        generationOf(device);
    }

    /** A device an Android panel shows (one opened before a broker restart too): from now on, seen online, it has a generation. */
    void shown(Optional<String> serial) {
        serial.ifPresent(opened::add);
    }

    /** The current generation of a resolved device: for a device a panel was opened on, minted when online, dropped when not. */
    Optional<String> generationOf(Resolved device) {
        if (device.serial().isEmpty()) {
            return Optional.empty();
        }
        String serial = device.serial().get();
        if (!device.online()) {
            generations.remove(serial);
            return Optional.empty();
        }
        if (!opened.contains(serial)) {
            return Optional.empty();
        }
        return Optional.of(generations.computeIfAbsent(serial, s -> "gen-" + Ids.randomHex(random, 8)));
    }

    /** The generation lomi_android_list shows for a listed device (minted for an opened device seen online). */
    Optional<String> generationOf(AndroidDevices.Listed device) {
        return generationOf(new Resolved(idOf(device), device.serial(), device.state(), ""));
    }

    /** The Android panel {@code panelId} of a granted workspace showing {@code deviceId}, online, at {@code generation}. */
    Bound bound(
            Session session, WorkspaceId workspace, Token panelId, AndroidSpecs.DeviceId deviceId, Token generation) {
        PanelTargets.PanelTarget target = panels.panel(session, workspace, panelId.value(), Optional.empty());
        if (target.panel().kind() != PanelKind.ANDROID) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "panel " + panelId + " is not an Android panel");
        }
        if (!deviceOf(target.panel()).equals(Optional.of(deviceId.value()))) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND,
                    "panel " + panelId + " shows another device than " + deviceId + "; list the panels again");
        }
        Optional<AndroidDevices.Listed> found = listed(deviceId);
        GrantedDevices.require(session, deviceId, found);
        shown(found.flatMap(AndroidDevices.Listed::serial));
        Optional<Resolved> device = found.map(listed -> resolved(deviceId, listed));
        Optional<String> current = device.flatMap(this::generationOf);
        if (current.isEmpty()) {
            throw new LomiException(
                    ErrorCode.STALE_GENERATION,
                    "device " + deviceId + " is not online on the adb server now"
                            + device.map(d -> " (" + d.name() + ")").orElse(" (not attached)")
                            + ", so generation " + generation + " ended; a new one is minted when it is back"
                            + " (lomi_android_list)");
        }
        if (!current.get().equals(generation.value())) {
            throw new LomiException(
                    ErrorCode.STALE_GENERATION,
                    "device " + deviceId + " is at generation " + current.get() + ", not " + generation
                            + "; list the devices again");
        }
        return new Bound(
                panelId.value(),
                deviceId.value(),
                device.get().serial().orElseThrow(),
                current.get(),
                devices.get(),
                target.listed());
    }

    /** Runs one observation of {@code bound}'s device; TARGET_BUSY while another one of it runs. */
    <T> T observe(Bound bound, Supplier<T> observation) {
        if (!observing.add(bound.serial())) {
            throw new LomiException(
                    ErrorCode.TARGET_BUSY,
                    "another observation of device " + bound.deviceId()
                            + " is running (one at a time per device); retry when it answered");
        }
        try {
            return observation.get();
        } finally {
            observing.remove(bound.serial());
        }
    }

    /** The device id an Android panel's stored view names. */
    static Optional<String> deviceOf(Panel panel) {
        if (panel.gitView().isEmpty()) {
            return Optional.empty();
        }
        Matcher matcher = DEVICE.matcher(panel.gitView().get());
        return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
    }

    /** What panel_list shows for an Android panel: the device it is bound to. */
    @Override
    public Optional<JsonNode> view(Panel panel) {
        ObjectNode view = JsonNodeFactory.instance.objectNode();
        view.put("deviceId", deviceOf(panel).orElse(""));
        view.put("type", "android");
        return Optional.of(view);
    }
}
