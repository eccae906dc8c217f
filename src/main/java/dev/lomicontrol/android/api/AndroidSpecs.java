package dev.lomicontrol.android.api;

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

    /** A managed device id: a lower-case UUID, as the reference's valid_device_id. */
    @WireString(
            minLength = 36,
            maxLength = 36,
            pattern = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
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

            DeviceId deviceId,

            @Doc("the domainRevision") Decimal expectedRevision,

            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable, LayoutBased {}

    public record StartInput(
            WorkspaceId workspaceId,
            Token panelId,
            DeviceId deviceId,
            Decimal expectedRevision,
            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable, LayoutBased {}

    public record StopInput(
            WorkspaceId workspaceId,
            Token panelId,
            DeviceId deviceId,

            Token generation,

            Decimal expectedRevision,
            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable, LayoutBased {}

    /** One ordered input event (the reference's {@code type} union). */
    @Tagged("type")
    public sealed interface InputEvent {}

    @Tag("rotate")
    public record Rotate(@Range(min = 0, max = 255) int quarterTurns) implements InputEvent {}

    @Tag("text")
    public record Text(
            @Doc("no Enter is appended") @Len(min = 1, max = 16384)
            String text) implements InputEvent {
        public Text {
            if (text.getBytes(StandardCharsets.UTF_8).length > 16 * 1024) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "text is more than 16 KiB of UTF-8");
            }
        }
    }

    @Tag("key")
    public record Key(
            @Len(min = 1, max = 64) @Matches("[A-Za-z0-9_]+")
            String key,

            boolean down) implements InputEvent {}

    @Tag("navigation")
    public record Navigation(NavigationKey key) implements InputEvent {}

    @Tag("touch")
    public record Touch(
            CoordinateSpace space,

            @Range(min = 0, max = 255) int identifier,

            @Range(min = 0, max = 4294967295L) long x,
            @Range(min = 0, max = 4294967295L) long y,
            TouchPhase phase)
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

            @Doc("from lomi_panel_control") Hex32 leaseId,

            @Doc("1, 2, …; resend the same one to retry") Decimal inputSequence,

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

            @Range(min = 1, max = 500) @Default("250") int maxNodes,

            @Range(min = 1, max = 49152) @Default("32768") long maxBytes) {}

    public record ScreenshotInput(
            WorkspaceId workspaceId,
            Token panelId,
            DeviceId deviceId,
            Token generation,

            @Range(min = 64, max = 1600) @Default("1280") int maxEdge,

            @Range(min = 1, max = 3145728) @Default("1048576")
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

            @Len(min = 3, max = 255) @Matches(PACKAGE) String packageName,

            Priority minPriority,

            @Range(min = 1, max = 64) int limit,

            @Doc("omit for a new snapshot") Optional<Token> cursor) {}

    public record LaunchInput(
            WorkspaceId workspaceId,
            Token panelId,
            DeviceId deviceId,
            Token generation,

            @Len(min = 3, max = 255) @Matches(PACKAGE) String packageName,

            @Doc("default: the launcher activity") @Len(min = 1, max = 513) @Matches(ACTIVITY)
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

            Token artifactId,

            Hex64 sha256,
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
            @Default("false") boolean refresh,

            @Range(min = 0, max = 4294967295L) long offset,

            @Range(min = 1, max = 32) int limit,

            @Doc("required after page one") Optional<Token> expectedCatalogRevision)
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
            Token catalogRevision, @Items(max = 64) List<PackageSelection> packages, boolean prepareTools)
            implements SetupQuery {}

    public record PackageSelection(
            @Len(min = 1, max = 256) @Matches(Matches.NO_CONTROLS)
            String id,

            @Len(min = 1, max = 64) @Matches(Matches.NO_CONTROLS)
            String revision) {}

    public record SetupPlanInput(WorkspaceId workspaceId, SetupQuery action) {}

    public record SetupApplyInput(
            WorkspaceId workspaceId, Token planId, Token planRevision, RetryEpochId retryEpoch, RequestKey requestKey)
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
            @Range(min = 0, max = 1_048_576) long ramMib,
            @Range(min = 0, max = 1024) long cpuCount,
            @Range(min = 0, max = 65_536) long dataGib,
            Gpu gpu,
            boolean quickBoot) {}

    /** A device management action (the reference's {@code type} union). */
    @Tagged("type")
    public sealed interface DeviceAction {}

    @Tag("create")
    public record Create(
            Token expectedDevicesRevision,
            DisplayName name,

            @Len(min = 1, max = 256) @Matches(Matches.NO_CONTROLS)
            String image,

            @Len(min = 1, max = 128) @Matches(Matches.NO_CONTROLS)
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
    public record RestoreMetadata(MetadataFile file, Token digest, boolean reset) implements DeviceAction {}

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
                    "The managed Android devices you may use. HOST_UNQUALIFIED on this host (no managed emulator yet).")
            .needs(HostNeed.ANDROID);

    public static final ToolSpec<OpenInput> OPEN = ToolSpec.operation(
                    "lomi_android_open",
                    "Open an Android panel",
                    "android.read",
                    "--I-",
                    OpenInput.class,
                    Panel.class,
                    "Opens a panel for a device without starting it. HOST_UNQUALIFIED on this host.")
            .needs(HostNeed.ANDROID);

    public static final ToolSpec<StartInput> START = ToolSpec.operation(
                    "lomi_android_start",
                    "Start an Android device",
                    "android.control",
                    "--I-",
                    StartInput.class,
                    RuntimeResult.class,
                    "Boots the device of a panel. HOST_UNQUALIFIED on this host.")
            .needs(HostNeed.ANDROID);

    public static final ToolSpec<StopInput> STOP = ToolSpec.operation(
                    "lomi_android_stop",
                    "Stop an Android device",
                    "android.control",
                    "-DI-",
                    StopInput.class,
                    RuntimeResult.class,
                    "Stops your running device, keeping its data. HOST_UNQUALIFIED on this host.")
            .needs(HostNeed.ANDROID);

    public static final ToolSpec<Input> INPUT = ToolSpec.ordered(
                    "lomi_android_input",
                    "Send Android input",
                    "android.interact",
                    "-DIO",
                    Input.class,
                    OperationView.class,
                    "Sends one touch, key, navigation, rotation or text event to the device under your input lease. HOST_UNQUALIFIED on this host.")
            .needs(HostNeed.ANDROID);

    public static final ToolSpec<SnapshotInput> SNAPSHOT = ToolSpec.read(
                    "lomi_android_snapshot",
                    "Read an Android UI snapshot",
                    "android.observe",
                    "R-I-",
                    SnapshotInput.class,
                    Snapshot.class,
                    "A bounded UI Automator snapshot of the running device. HOST_UNQUALIFIED on this host.")
            .needs(HostNeed.ANDROID);

    public static final ToolSpec<ScreenshotInput> SCREENSHOT = ToolSpec.read(
                    "lomi_android_screenshot",
                    "Capture an Android screenshot",
                    "android.capture",
                    "R-I-",
                    ScreenshotInput.class,
                    Screenshot.class,
                    "A PNG of the running device, as an artifact and an image. HOST_UNQUALIFIED on this host.")
            .needs(HostNeed.ANDROID);

    public static final ToolSpec<LogcatInput> LOGCAT = ToolSpec.read(
                    "lomi_android_logcat",
                    "Read Android logcat",
                    "android.logs",
                    "R-I-",
                    LogcatInput.class,
                    Logcat.class,
                    "Recent logcat lines of one approved app, paged. HOST_UNQUALIFIED on this host.")
            .needs(HostNeed.ANDROID);

    public static final ToolSpec<LaunchInput> LAUNCH = ToolSpec.operation(
                    "lomi_android_launch",
                    "Launch an Android app",
                    "android.launch",
                    "-DIO",
                    LaunchInput.class,
                    Launched.class,
                    "Launches an approved app on the running device. HOST_UNQUALIFIED on this host.")
            .needs(HostNeed.ANDROID);

    public static final ToolSpec<InstallInput> INSTALL_APK = ToolSpec.operation(
                    "lomi_android_install_apk",
                    "Install an APK",
                    "android.install",
                    "-DI-",
                    InstallInput.class,
                    Installed.class,
                    "Installs an imported APK artifact once the admin approves. HOST_UNQUALIFIED on this host.")
            .needs(HostNeed.ANDROID);

    public static final ToolSpec<SetupPlanInput> SETUP_PLAN = ToolSpec.read(
                    "lomi_android_setup_plan",
                    "Plan Android SDK setup",
                    "android.read",
                    "R-IO",
                    SetupPlanInput.class,
                    Setup.class,
                    "Shows the SDK inventory and catalog, or prepares an exact download plan. HOST_UNQUALIFIED on this host.")
            .needs(HostNeed.ANDROID);

    public static final ToolSpec<SetupApplyInput> SETUP_APPLY = ToolSpec.operation(
                    "lomi_android_setup_apply",
                    "Apply an Android SDK setup plan",
                    "android.setup",
                    "-DIO",
                    SetupApplyInput.class,
                    Management.class,
                    "Runs a prepared SDK plan once the admin approves it and its licenses. HOST_UNQUALIFIED on this host.")
            .needs(HostNeed.ANDROID);

    public static final ToolSpec<DeviceManageInput> DEVICE_MANAGE = ToolSpec.operation(
                    "lomi_android_device_manage",
                    "Manage Android devices",
                    "android.read",
                    "-DI-",
                    DeviceManageInput.class,
                    Management.class,
                    "Creates, modifies, wipes or deletes an emulator, or repairs the SDK; the admin approves each. HOST_UNQUALIFIED on this host.")
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
