package dev.lomicontrol.android.tools;

import dev.lomicontrol.android.AndroidDevices;
import dev.lomicontrol.android.Emulators;
import dev.lomicontrol.android.api.AndroidSpecs;
import dev.lomicontrol.artifacts.ArtifactStore;
import dev.lomicontrol.operations.LivePanels;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.PanelControl;
import dev.lomicontrol.operations.PanelTargets;
import dev.lomicontrol.operations.ToolFeature;
import dev.lomicontrol.operations.ToolHandlers;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.PanelKind;
import dev.lomicontrol.tools.HostProbe;
import dev.lomicontrol.tools.HostQualification;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;

/**
 * The Android tools. Served: {@code lomi_android_list} ({@link AndroidList}: the devices of the
 * user's adb server and the user's AVDs), {@code lomi_android_open} ({@link AndroidOpen}: a panel
 * bound to a device; {@link AndroidPanels} keeps the panels, the device generations and the one
 * observation at a time per device), and the observations {@code lomi_android_snapshot}
 * ({@link AndroidSnapshots}), {@code lomi_android_screenshot} ({@link AndroidScreenshots}) and
 * {@code lomi_android_logcat} ({@link AndroidLogcat}); the input lease (lomi_panel_control's Android
 * form, {@link AndroidControls}, handed over by the terminal feature that serves that tool) and
 * {@code lomi_android_input} ({@link AndroidInputCalls}); {@code lomi_android_launch}
 * ({@link AndroidLaunches}); {@code lomi_android_install_apk} ({@link AndroidInstalls});
 * {@code lomi_android_start} and {@code lomi_android_stop} ({@link AndroidRuntimes});
 * {@code lomi_android_setup_plan} ({@link AndroidSetupPlans}), {@code lomi_android_setup_apply}
 * ({@link AndroidSetupApply}) and {@code lomi_android_device_manage} ({@link AndroidDeviceManage}) on
 * the SDK the host probe finds ({@link AndroidSdk}). Where the host lacks what a tool needs, the
 * broker's host check answers HOST_UNQUALIFIED with the reason ({@link HostQualification}) before
 * these handlers run.
 */
@Component
public final class AndroidFeature implements ToolFeature {

    private final AndroidList list;
    private final AndroidPanels live;
    private final AndroidOpen open;
    private final AndroidSnapshots snapshots;
    private final AndroidScreenshots screenshots;
    private final AndroidLogcat logcat;
    private final AndroidLeases leases = new AndroidLeases();
    private final AndroidControls controls;
    private final AndroidInputCalls inputs;
    private final AndroidLaunches launches;
    private final AndroidInstalls installs;
    private final AndroidRuntimes runtimes;
    private final AndroidSetupPlans setupPlans;
    private final AndroidDeviceManage deviceManage;
    private final AndroidSetupApply setupApply;
    private final LivePanels kind;

    /** The emulator engine of the probed host (for lomi_android_start and lomi_android_stop). */
    final AndroidEmulators emulators;

    /** The user's devices on this host: the adb server and AVD home of the broker's environment, the adb the host probe finds. */
    @Autowired
    public AndroidFeature(
            WorkspaceAccess access,
            Layout layout,
            PanelTargets panels,
            OperationRunner runner,
            ArtifactStore artifacts) {
        this(
                access,
                layout,
                panels,
                runner,
                artifacts,
                () -> AndroidDevices.ofHost(
                        System.getenv(),
                        Path.of(System.getProperty("user.home", "/")),
                        HostProbe.current().adb()),
                HostProbe::current,
                () -> Emulators.BOOT_DEADLINE);
    }

    /**
     * The devices {@code devices} gives (built per call, so an adb installed later is found); the SDK
     * (its emulator, sdkmanager, avdmanager) and the adb the input lease needs are the ones {@code host}
     * probes, the same the dispatch checks calls against; an emulator's boot bounded by {@code
     * bootDeadline} (the reference's 180 s; shorter in tests).
     */
    public AndroidFeature(
            WorkspaceAccess access,
            Layout layout,
            PanelTargets panels,
            OperationRunner runner,
            ArtifactStore artifacts,
            Supplier<AndroidDevices> devices,
            Supplier<HostProbe> host,
            Supplier<Duration> bootDeadline) {
        this.emulators = new AndroidEmulators(host, devices);
        this.live = new AndroidPanels(panels, devices);
        this.list = new AndroidList(access, layout, devices, live);
        this.open = new AndroidOpen(layout, panels, runner, live);
        this.snapshots = new AndroidSnapshots(live);
        this.screenshots = new AndroidScreenshots(artifacts, panels, live);
        this.logcat = new AndroidLogcat(live);
        this.controls = new AndroidControls(layout, runner, live, leases, host);
        this.inputs = new AndroidInputCalls(runner, live, leases, devices);
        this.launches = new AndroidLaunches(layout, runner, live);
        this.installs = new AndroidInstalls(artifacts, runner, live);
        this.runtimes = new AndroidRuntimes(layout, panels, runner, live, devices, emulators, bootDeadline);
        AndroidSdk sdk = new AndroidSdk(host, devices);
        this.setupPlans = new AndroidSetupPlans(access, sdk, runner.clock());
        this.deviceManage = new AndroidDeviceManage(access, runner, sdk);
        this.setupApply = new AndroidSetupApply(access, runner, sdk, setupPlans);
        this.kind = new LivePanels() {
            @Override
            public Optional<JsonNode> view(Panel panel) {
                return live.view(panel);
            }

            @Override
            public boolean controlledBy(Session session, Panel panel) {
                return AndroidPanels.deviceOf(panel)
                        .filter(device -> leases.heldBy(device, session.id().value()))
                        .isPresent();
            }

            @Override
            public Object control(Session session, PanelControl request) {
                return controls.control(session, request);
            }
        };
    }

    @Override
    public void register(Wiring wiring) {
        ToolHandlers handlers = wiring.handlers();
        handlers.on(AndroidSpecs.LIST, list::list);
        handlers.on(AndroidSpecs.OPEN, open::open);
        handlers.on(AndroidSpecs.SNAPSHOT, snapshots::snapshot);
        handlers.on(AndroidSpecs.SCREENSHOT, screenshots::screenshot);
        handlers.on(AndroidSpecs.LOGCAT, logcat::logcat);
        handlers.on(AndroidSpecs.INPUT, inputs::input);
        handlers.on(AndroidSpecs.LAUNCH, launches::launch);
        handlers.on(AndroidSpecs.INSTALL_APK, installs::install);
        handlers.on(AndroidSpecs.START, runtimes::start);
        handlers.on(AndroidSpecs.STOP, runtimes::stop);
        handlers.on(AndroidSpecs.SETUP_PLAN, setupPlans::plan);
        handlers.on(AndroidSpecs.SETUP_APPLY, setupApply::apply);
        handlers.on(AndroidSpecs.DEVICE_MANAGE, deviceManage::manage);
    }

    /** The session's connection ended: its Android input leases end. */
    @Override
    public void sessionEnded(Session session) {
        leases.sessionEnded(session.id().value());
    }

    /** A boot in flight ends its emulator's process group (emulators that booted keep running). */
    @Override
    public void close() {
        runtimes.close();
    }

    @Override
    public Map<PanelKind, LivePanels> panels() {
        return Map.of(PanelKind.ANDROID, kind);
    }
}
