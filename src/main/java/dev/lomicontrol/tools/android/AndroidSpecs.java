package dev.lomicontrol.tools.android;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.WireString;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Default;
import dev.lomicontrol.tools.DisplayName;
import dev.lomicontrol.tools.Doc;
import dev.lomicontrol.tools.Durable;
import dev.lomicontrol.tools.Hex32;
import dev.lomicontrol.tools.Hex64;
import dev.lomicontrol.tools.HostNeed;
import dev.lomicontrol.tools.Items;
import dev.lomicontrol.tools.LayoutBased;
import dev.lomicontrol.tools.Len;
import dev.lomicontrol.tools.Matches;
import dev.lomicontrol.tools.OperationView;
import dev.lomicontrol.tools.Range;
import dev.lomicontrol.tools.Tag;
import dev.lomicontrol.tools.Tagged;
import dev.lomicontrol.tools.Token;
import dev.lomicontrol.tools.ToolSpec;
import dev.lomicontrol.tools.WireName;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The Android tools of the reference (a managed emulator per approved device), declared with the
 * reference's inputs. This host has no managed emulator yet: every one answers HOST_UNQUALIFIED with
 * what is missing ({@code /dev/kvm}, the SDK emulator, adb — {@link dev.lomicontrol.tools.HostQualification}),
 * after its arguments were checked.
 */
public final class AndroidSpecs {

    private AndroidSpecs() {}

    /** Why every Android tool answers HOST_UNQUALIFIED here; the descriptions repeat it. */
    static final String UNQUALIFIED =
            " On this host it answers HOST_UNQUALIFIED, naming what is missing (/dev/kvm, the Android SDK emulator, "
                    + "adb), until the managed emulator is implemented; its arguments are checked first.";

    /** A managed device id: a lower-case UUID, as the reference's valid_device_id. */
    @WireString(
            minLength = 36,
            maxLength = 36,
            pattern = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
            description = "a managed Android device id (a lower-case UUID) from lomi_android_list")
    public record DeviceId(String value) {
        @Override
        public String toString() {
            return value;
        }
    }

    /** An application id as the reference accepts it: dot-separated parts, each a letter then letters, digits or '_'. */
    static final String PACKAGE = "[A-Za-z][A-Za-z0-9_]*(?:\\.[A-Za-z][A-Za-z0-9_]*)+";
    /** A Java class name, optionally starting with '.' (relative to the package). */
    static final String ACTIVITY = "\\.?[A-Za-z_][A-Za-z0-9_$]*(?:\\.[A-Za-z_][A-Za-z0-9_$]*)*";

    // ---------------------------------------------------------------- inputs

    public record ListInput(WorkspaceId workspaceId) {}

    public record OpenInput(
            WorkspaceId workspaceId,

            @Doc("the device to show, from lomi_android_list")
            DeviceId deviceId,

            @Doc("the current domainRevision (lomi_panel_list)")
            Decimal expectedRevision,

            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable, LayoutBased {}

    public record StartInput(
            WorkspaceId workspaceId,
            @Doc("the Android panel (lomi_android_open)") Token panelId,
            DeviceId deviceId,
            Decimal expectedRevision,
            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable, LayoutBased {}

    public record StopInput(
            WorkspaceId workspaceId,
            Token panelId,
            DeviceId deviceId,

            @Doc("the exact running generation this connection started")
            Token generation,

            Decimal expectedRevision,
            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable, LayoutBased {}

    /** One ordered input event (the reference's {@code type} union). */
    @Tagged("type")
    public sealed interface InputEvent {}

    @Tag("rotate")
    public record Rotate(
            @Doc("quarter turns clockwise") @Range(min = 0, max = 255)
            int quarterTurns) implements InputEvent {}

    @Tag("text")
    public record Text(
            @Doc("committed Unicode text, at most 16 KiB UTF-8; no Enter is appended") @Len(min = 1, max = 16384)
            String text)
            implements InputEvent {
        public Text {
            if (text.getBytes(StandardCharsets.UTF_8).length > 16 * 1024) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "text is more than 16 KiB of UTF-8");
            }
        }
    }

    @Tag("key")
    public record Key(
            @Doc("the Android key name") @Len(min = 1, max = 64) @Matches("[A-Za-z0-9_]+")
            String key,

            @Doc("true for key down, false for key up") boolean down)
            implements InputEvent {}

    @Tag("navigation")
    public record Navigation(
            @Doc("back, home, overview or power") NavigationKey key) implements InputEvent {}

    @Tag("touch")
    public record Touch(
            @Doc("hardware_display: coordinates in the device's hardware display pixels")
            CoordinateSpace space,

            @Doc("the pointer (finger) number") @Range(min = 0, max = 255)
            int identifier,

            @Range(min = 0, max = 4294967295L) long x,
            @Range(min = 0, max = 4294967295L) long y,
            @Doc("down, move or up") TouchPhase phase)
            implements InputEvent {}

    public enum NavigationKey {
        BACK,
        HOME,
        OVERVIEW,
        POWER
    }

    public enum CoordinateSpace {
        HARDWARE_DISPLAY
    }

    public enum TouchPhase {
        DOWN,
        MOVE,
        UP
    }

    /**
     * The reference's AndroidInput: ordered by {@code inputSequence} under the device lease, keyed by
     * {@code retryEpoch} and the sequence; it has no requestKey.
     */
    public record Input(
            WorkspaceId workspaceId,
            Token panelId,
            DeviceId deviceId,
            Token generation,

            @Doc("the device input lease (lomi_panel_control)")
            Hex32 leaseId,

            @Doc("a decimal counter starting at 1; resend the same sequence with the same event after a lost answer")
            Decimal inputSequence,

            InputEvent event,
            RetryEpochId retryEpoch) {
        public Input {
            if (inputSequence.asLong() < 1) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "inputSequence starts at 1");
            }
        }
    }

    public record SnapshotInput(
            WorkspaceId workspaceId,
            Token panelId,
            DeviceId deviceId,
            Token generation,

            @Doc("at most this many nodes (default 250, at most 500)") @Range(min = 1, max = 500) @Default("250")
            int maxNodes,

            @Doc("at most this many bytes of output (default 32768, at most 48 KiB)")
            @Range(min = 1, max = 49152)
            @Default("32768")
            long maxBytes) {}

    public record ScreenshotInput(
            WorkspaceId workspaceId,
            Token panelId,
            DeviceId deviceId,
            Token generation,

            @Doc("longest image edge in pixels, 64-1600 (default 1280)") @Range(min = 64, max = 1600) @Default("1280")
            int maxEdge,

            @Doc("largest PNG in bytes (default 1 MiB, at most 3 MiB)")
            @Range(min = 1, max = 3145728)
            @Default("1048576")
            long maxBytes) {}

    /** Logcat priorities (the reference spells them as one capital letter). */
    public enum Priority {
        @WireName("V")
        V,
        @WireName("D")
        D,
        @WireName("I")
        I,
        @WireName("W")
        W,
        @WireName("E")
        E,
        @WireName("F")
        F
    }

    public record LogcatInput(
            WorkspaceId workspaceId,
            Token panelId,
            DeviceId deviceId,
            Token generation,

            @Doc("an approved package") @Len(min = 3, max = 255) @Matches(PACKAGE)
            String packageName,

            @Doc("the lowest priority: V, D, I, W, E or F") Priority minPriority,

            @Doc("lines per page, 1-64") @Range(min = 1, max = 64)
            int limit,

            @Doc("nextCursor of the previous page (valid 60 s); omit to take a new snapshot")
            Optional<Token> cursor) {}

    public record LaunchInput(
            WorkspaceId workspaceId,
            Token panelId,
            DeviceId deviceId,
            Token generation,

            @Doc("an approved package") @Len(min = 3, max = 255) @Matches(PACKAGE)
            String packageName,

            @Doc("a Java class name; omitted = the MAIN/LAUNCHER activity") @Len(min = 1, max = 513) @Matches(ACTIVITY)
            Optional<String> activity,

            Decimal expectedRevision,
            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable, LayoutBased {}

    public record InstallInput(
            WorkspaceId workspaceId,
            Token panelId,
            DeviceId deviceId,
            Token generation,

            @Doc("an android_apk artifact (lomi_artifact_import)")
            Token artifactId,

            @Doc("its exact SHA-256") Hex64 sha256,
            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable {}

    /** What lomi_android_setup_plan looks at (the reference's {@code type} union). */
    @Tagged("type")
    public sealed interface SetupQuery {}

    @Tag("inventory")
    public record Inventory() implements SetupQuery {}

    @Tag("catalog")
    public record Catalog(
            @Doc("fetch the provider catalog again (only at offset 0)") @Default("false")
            boolean refresh,

            @Range(min = 0, max = 4294967295L) long offset,

            @Doc("entries per page, 1-32") @Range(min = 1, max = 32)
            int limit,

            @Doc("catalogRevision of page one; required after it")
            Optional<Token> expectedCatalogRevision)
            implements SetupQuery {
        public Catalog {
            if (refresh && offset != 0) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "refresh is allowed only at offset 0");
            }
            if (offset != 0 && expectedCatalogRevision.isEmpty()) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT,
                        "expectedCatalogRevision (the catalogRevision of page one) is required after page one");
            }
        }
    }

    @Tag("prepare")
    public record Prepare(
            @Doc("the catalogRevision the packages were chosen from")
            Token catalogRevision,

            @Doc("exact package ids and revisions from that catalog") @Items(max = 64)
            List<PackageSelection> packages,

            @Doc("also prepare the private command-line tools and Java")
            boolean prepareTools)
            implements SetupQuery {}

    public record PackageSelection(
            @Doc("an SDK package id, e.g. platform-tools") @Len(min = 1, max = 256) @Matches(Matches.NO_CONTROLS)
            String id,

            @Doc("its exact revision") @Len(min = 1, max = 64) @Matches(Matches.NO_CONTROLS)
            String revision) {}

    public record SetupPlanInput(WorkspaceId workspaceId, SetupQuery action) {}

    public record SetupApplyInput(
            WorkspaceId workspaceId,

            @Doc("planId of a prepared plan (valid 30 minutes)")
            Token planId,

            @Doc("its revision") Token planRevision,
            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable {}

    public enum Gpu {
        AUTO,
        HOST,
        SOFTWARE
    }

    public enum MetadataFile {
        DEVICES,
        PREFERENCES
    }

    public record Hardware(
            @Range(min = 0, max = 4294967295L) long ramMib,
            @Range(min = 0, max = 4294967295L) long cpuCount,
            @Range(min = 0, max = 4294967295L) long dataGib,
            @Doc("auto, host or software") Gpu gpu,
            boolean quickBoot) {}

    /** A device management action (the reference's {@code type} union). */
    @Tagged("type")
    public sealed interface DeviceAction {}

    @Tag("create")
    public record Create(
            @Doc("devicesRevision of the inventory") Token expectedDevicesRevision,
            DisplayName name,

            @Doc("an installed system image") @Len(min = 1, max = 256) @Matches(Matches.NO_CONTROLS)
            String image,

            @Doc("a device profile id") @Len(min = 1, max = 128) @Matches(Matches.NO_CONTROLS)
            String profile,

            Hardware hardware)
            implements DeviceAction {}

    @Tag("modify")
    public record Modify(
            Token expectedDevicesRevision,
            DeviceId deviceId,
            Optional<Token> generation,
            DisplayName name,

            @Len(min = 1, max = 128) @Matches(Matches.NO_CONTROLS)
            String profile,

            Hardware hardware)
            implements DeviceAction {}

    @Tag("wipe")
    public record Wipe(
            Token expectedDevicesRevision,
            DeviceId deviceId,
            Optional<Token> generation,

            @Doc("the device's exact name") @Len(min = 1, max = 256)
            String confirmation)
            implements DeviceAction {}

    @Tag("delete")
    public record Delete(
            Token expectedDevicesRevision,
            DeviceId deviceId,
            Optional<Token> generation,

            @Doc("the device's exact name") @Len(min = 1, max = 256)
            String confirmation)
            implements DeviceAction {}

    @Tag("recover")
    public record Recover() implements DeviceAction {}

    @Tag("cleanup")
    public record Cleanup() implements DeviceAction {}

    @Tag("restore_metadata")
    public record RestoreMetadata(
            @Doc("devices or preferences") MetadataFile file,
            @Doc("the recovery digest from the inventory") Token digest,
            boolean reset)
            implements DeviceAction {}

    @Tag("remove_package")
    public record RemovePackage(
            @Len(min = 1, max = 256) @Matches(Matches.NO_CONTROLS)
            String packageId,

            Token expectedManifestRevision) implements DeviceAction {}

    @Tag("rollback_package")
    public record RollbackPackage(
            @Len(min = 1, max = 256) @Matches(Matches.NO_CONTROLS)
            String packageId,

            Token expectedManifestRevision) implements DeviceAction {}

    public record DeviceManageInput(
            WorkspaceId workspaceId, DeviceAction action, RetryEpochId retryEpoch, RequestKey requestKey)
            implements Durable {}

    // ---------------------------------------------------------------- outputs

    public enum Phase {
        STOPPED,
        STARTING,
        BOOTING,
        RUNNING,
        STOPPING,
        FAILED
    }

    public record Device(
            DeviceId deviceId,
            String name,
            Optional<String> generation,
            Phase phase,
            boolean processAlive,

            @Doc("[width, height] of the display, when running")
            Optional<List<Long>> display) {}

    @Tag("android_devices")
    public record Devices(
            WorkspaceId workspaceId,
            String devicesRevision,
            boolean hostQualified,
            @Doc("at most 16") List<Device> devices) {}

    public record Node(
            int id,
            Optional<Integer> parent,
            @Doc("the view class") String className,
            String resourceId,
            @Doc("the package") String packageName,
            String description,
            String text,
            @Doc("[left, top, right, bottom]") Optional<List<Long>> bounds,
            boolean enabled,
            boolean clickable,
            boolean focused,
            boolean scrollable,
            boolean checked,

            @Doc("a password or editable value was left out")
            boolean valueOmitted) {}

    @Tag("android_snapshot")
    public record Snapshot(
            WorkspaceId workspaceId,
            String panelId,
            String deviceId,
            String generation,
            String snapshotId,
            String capturedAtMillis,
            @Doc("[width, height]") List<Long> hardwareDisplay,
            int rotation,
            String coordinateSpace,
            List<Node> nodes,
            boolean truncated,
            List<String> limitations) {}

    public record ArtifactSource(
            WorkspaceId workspaceId, String panelId, String deviceId, String generation, String requiredScope) {}

    public record Artifact(
            String id,
            String mediaType,
            long byteLength,
            String sha256,
            String createdAtSeconds,
            String expiresAtSeconds,
            ArtifactSource source,

            @Doc("the reference's AndroidImageGeometry (dimensions, rotation, scales, imageToHardware transform)")
            JsonNode image) {}

    @Tag("artifact")
    public record Screenshot(Artifact artifact) {}

    @Tag("android_logcat")
    public record Logcat(
            WorkspaceId workspaceId,
            String deviceId,
            String generation,
            String packageName,
            long processId,
            List<String> lines,
            Optional<String> nextCursor,
            boolean truncated,
            boolean complete,
            String scope,
            String gap) {}

    /** lomi_android_setup_plan's answer; {@code setup} is the reference's AndroidSetupView. */
    @Tag("android_setup")
    public record Setup(WorkspaceId workspaceId, SetupView setup) {}

    @Tagged("type")
    public sealed interface SetupView {}

    public record ManagedDevice(
            String deviceId,
            String name,
            String image,
            String imageRevision,
            String profile,
            Hardware hardware,
            Optional<String> generation,
            boolean processAlive) {}

    public record Profile(String id, String name, long width, long height, long minApi, long minMinorApi) {}

    public record MetadataRecovery(MetadataFile file, String digest, Optional<String> backupRevision) {}

    @Tag("inventory")
    public record InventoryView(
            Optional<String> devicesRevision,
            Optional<String> manifestRevision,
            boolean hostQualified,
            List<ManagedDevice> devices,
            List<PackageSelection> installed,
            List<Profile> profiles,
            boolean recoveryRequired,
            List<MetadataRecovery> recovery,
            List<PackageSelection> rollbacks)
            implements SetupView {}

    public record Download(
            String id,
            String revision,
            String name,
            String url,
            long bytes,
            String checksum,
            Optional<String> licenseId,
            List<PackageSelection> dependencies) {}

    @Tag("catalog")
    public record CatalogView(String catalogRevision, List<Download> packages, Optional<Long> nextOffset)
            implements SetupView {}

    public record License(String id, String digest) {}

    @Tag("prepared")
    public record PreparedView(
            String planId,
            String revision,
            List<Download> downloads,
            List<License> licenses,
            long downloadBytes,
            String target,
            long expiresInSeconds)
            implements SetupView {}

    // ---------------------------------------------------------------- operation results

    @Tag("android_panel")
    public record Panel(WorkspaceId workspaceId, String panelId, String deviceId) {}

    @Tag("android_runtime")
    public record RuntimeResult(
            WorkspaceId workspaceId, String deviceId, String generation, boolean ready, boolean stopped) {}

    /** The result the reference's android_input operation carries (declared for when it is implemented). */
    @Tag("android_input")
    public record InputResult(WorkspaceId workspaceId, String deviceId, String generation, String inputSequence) {}

    @Tag("android_launch")
    public record Launched(
            WorkspaceId workspaceId,
            String deviceId,
            String generation,
            String packageName,
            String activity,

            @Doc("the intent was delivered (not that the app behaves)")
            boolean intentDelivered) {}

    @Tag("android_install")
    public record Installed(
            WorkspaceId workspaceId,
            String deviceId,
            String generation,
            String artifactId,
            String sha256,
            boolean installed,
            Optional<String> packageName,
            Optional<String> previousVersion,
            Optional<String> newVersion,
            Optional<String> installerFailure) {}

    @Tag("android_management")
    public record Management(
            WorkspaceId workspaceId,
            String nativeOperationId,
            Optional<String> deviceId,
            Optional<String> devicesRevision,
            Optional<String> manifestRevision) {}

    // ---------------------------------------------------------------- the tools, in the reference's catalog order

    public static final ToolSpec<ListInput> LIST = ToolSpec.read(
                    "lomi_android_list",
                    "List managed Android devices",
                    "android.read",
                    "R-I-",
                    ListInput.class,
                    Devices.class,
                    "Names and runtime state of at most 16 managed Android devices selected for this connection and "
                            + "workspace in Settings; never starts the emulator, adb or input and reveals no SDK paths, serials or logs."
                            + UNQUALIFIED)
            .needs(HostNeed.ANDROID);

    public static final ToolSpec<OpenInput> OPEN = ToolSpec.operation(
                    "lomi_android_open",
                    "Open an Android panel",
                    "android.read",
                    "--I-",
                    OpenInput.class,
                    Panel.class,
                    "Creates and selects a retained panel for a selected device (also needs panel.create); opening never "
                            + "starts or restarts the device. Durable operation; poll it for the panel id."
                            + UNQUALIFIED)
            .needs(HostNeed.ANDROID);

    public static final ToolSpec<StartInput> START = ToolSpec.operation(
                    "lomi_android_start",
                    "Start an Android device",
                    "android.control",
                    "--I-",
                    StartInput.class,
                    RuntimeResult.class,
                    "Boots the approved device of a panel (only a stopped one, or reuses this connection's generation; "
                            + "never takes a human's running device). Durable operation, ready after Android, adb and IME are up (up to 180 s); a "
                            + "retry never starts a second emulator." + UNQUALIFIED)
            .needs(HostNeed.ANDROID);

    public static final ToolSpec<StopInput> STOP = ToolSpec.operation(
                    "lomi_android_stop",
                    "Stop an Android device",
                    "android.control",
                    "-DI-",
                    StopInput.class,
                    RuntimeResult.class,
                    "Stops this connection's exact device generation, keeping its apps and data. Durable operation; "
                            + "an unconfirmed stop never reports success." + UNQUALIFIED)
            .needs(HostNeed.ANDROID);

    public static final ToolSpec<Input> INPUT = ToolSpec.ordered(
                    "lomi_android_input",
                    "Send Android input",
                    "android.interact",
                    "-DIO",
                    Input.class,
                    OperationView.class,
                    "One ordered touch, key, navigation, quarter-turn rotation or text event (text at most 16 KiB, "
                            + "no implicit Enter) under the device input lease from lomi_panel_control; coordinates are hardware_display pixels. "
                            + "inputSequence counts from 1: resending the same sequence with the same event never dispatches twice (the reference "
                            + "keeps 128 sequence receipts; the call carries retryEpoch but no requestKey). Answers an operation."
                            + UNQUALIFIED)
            .needs(HostNeed.ANDROID);

    public static final ToolSpec<SnapshotInput> SNAPSHOT = ToolSpec.read(
                    "lomi_android_snapshot",
                    "Read an Android UI snapshot",
                    "android.observe",
                    "R-I-",
                    SnapshotInput.class,
                    Snapshot.class,
                    "A bounded UI Automator projection of the running device (at most 500 nodes, 48 KiB, "
                            + "12 s); passwords and editable values are left out; node ids belong to this observation only."
                            + UNQUALIFIED)
            .needs(HostNeed.ANDROID);

    public static final ToolSpec<ScreenshotInput> SCREENSHOT = ToolSpec.read(
                    "lomi_android_screenshot",
                    "Capture an Android screenshot",
                    "android.capture",
                    "R-I-",
                    ScreenshotInput.class,
                    Screenshot.class,
                    "One PNG of the exact running generation as an artifact (and an "
                            + "MCP image block): maxEdge 64-1600 (default 1280), maxBytes up to 3 MiB, at most 2 million pixels; with the "
                            + "image-to-hardware touch transform. Grants no input." + UNQUALIFIED)
            .needs(HostNeed.ANDROID);

    public static final ToolSpec<LogcatInput> LOGCAT = ToolSpec.read(
                    "lomi_android_logcat",
                    "Read Android logcat",
                    "android.logs",
                    "R-I-",
                    LogcatInput.class,
                    Logcat.class,
                    "A bounded recent logcat snapshot of one approved package's main process (at most 256 lines, "
                            + "64 KiB; 1-64 lines a page, 2048 bytes a line); the cursor pages the same snapshot for 60 s. No global logs, filters "
                            + "or live stream." + UNQUALIFIED)
            .needs(HostNeed.ANDROID);

    public static final ToolSpec<LaunchInput> LAUNCH = ToolSpec.operation(
                    "lomi_android_launch",
                    "Launch an Android app",
                    "android.launch",
                    "-DIO",
                    LaunchInput.class,
                    Launched.class,
                    "Delivers a launch intent to an approved package on this connection's running device "
                            + "(activity omitted = MAIN/LAUNCHER). Success confirms delivery only; no deep links, shell or retry after an uncertain "
                            + "effect." + UNQUALIFIED)
            .needs(HostNeed.ANDROID);

    public static final ToolSpec<InstallInput> INSTALL_APK = ToolSpec.operation(
                    "lomi_android_install_apk",
                    "Install an APK",
                    "android.install",
                    "-DI-",
                    InstallInput.class,
                    Installed.class,
                    "Installs an imported APK artifact (exact sha256) on this connection's running "
                            + "generation; awaiting_user until an admin approves within 120 s; keeps app data, never uninstalls on failure."
                            + UNQUALIFIED)
            .needs(HostNeed.ANDROID);

    public static final ToolSpec<SetupPlanInput> SETUP_PLAN = ToolSpec.read(
                    "lomi_android_setup_plan",
                    "Plan Android SDK setup",
                    "android.read",
                    "R-IO",
                    SetupPlanInput.class,
                    Setup.class,
                    "action.type inventory (shared devices, installed packages, recovery), catalog (the "
                            + "provider catalog, offset/limit 1-32, expectedCatalogRevision after page one, refresh only at offset 0) or prepare (an "
                            + "exact SDK/Java download plan with checksums and license digests, valid 30 minutes). Downloads nothing, accepts no "
                            + "license; catalog and prepare also need android.setup." + UNQUALIFIED)
            .needs(HostNeed.ANDROID);

    public static final ToolSpec<SetupApplyInput> SETUP_APPLY = ToolSpec.operation(
                    "lomi_android_setup_apply",
                    "Apply an Android SDK setup plan",
                    "android.setup",
                    "-DIO",
                    SetupApplyInput.class,
                    Management.class,
                    "Requests the exact prepared plan: awaiting_user while an admin "
                            + "reads the plan and accepts each license; then the private installer runs (at most 2 h). An uncertain outcome never "
                            + "replays installation." + UNQUALIFIED)
            .needs(HostNeed.ANDROID);

    public static final ToolSpec<DeviceManageInput> DEVICE_MANAGE = ToolSpec.operation(
                    "lomi_android_device_manage",
                    "Manage Android devices",
                    "android.read",
                    "-DI-",
                    DeviceManageInput.class,
                    Management.class,
                    "action.type create, modify, wipe, delete (these need "
                            + "android.manage, the exact devicesRevision and, for wipe/delete, the device's exact name as confirmation), recover, "
                            + "cleanup, restore_metadata, remove_package or rollback_package (these need android.setup). Every action waits for an "
                            + "admin's approval; an uncertain outcome never repeats a destructive action."
                            + UNQUALIFIED)
            .needs(HostNeed.ANDROID);

    public static final List<ToolSpec<?>> ALL = List.of(
            LIST,
            OPEN,
            START,
            STOP,
            INPUT,
            SNAPSHOT,
            SCREENSHOT,
            LOGCAT,
            LAUNCH,
            INSTALL_APK,
            SETUP_PLAN,
            SETUP_APPLY,
            DEVICE_MANAGE);
}
