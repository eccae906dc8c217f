package dev.lomicontrol.android.api;

import dev.lomicontrol.android.api.AndroidInputs.DeviceAction;
import dev.lomicontrol.android.api.AndroidInputs.InputEvent;
import dev.lomicontrol.android.api.AndroidInputs.SetupQuery;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.WireString;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Default;
import dev.lomicontrol.tools.Doc;
import dev.lomicontrol.tools.Durable;
import dev.lomicontrol.tools.Hex32;
import dev.lomicontrol.tools.Hex64;
import dev.lomicontrol.tools.HostNeed;
import dev.lomicontrol.tools.LayoutBased;
import dev.lomicontrol.tools.Len;
import dev.lomicontrol.tools.Matches;
import dev.lomicontrol.tools.OperationView;
import dev.lomicontrol.tools.Range;
import dev.lomicontrol.tools.ScopeNeed;
import dev.lomicontrol.tools.Token;
import dev.lomicontrol.tools.ToolSpec;
import dev.lomicontrol.tools.WireName;
import java.util.List;
import java.util.Optional;

/**
 * The Android tools of the reference (a managed emulator per approved device), declared with the
 * reference's inputs. Each needs one Android capability of the host ({@link dev.lomicontrol.tools.HostNeed}:
 * device access over adb, the emulator's lifecycle, SDK setup, device management); a host without it
 * answers HOST_UNQUALIFIED naming what is missing ({@link dev.lomicontrol.tools.HostQualification}),
 * after the arguments were checked. The input unions are in {@link AndroidInputs}, the answers in
 * {@link AndroidResults}.
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

    public record SetupPlanInput(WorkspaceId workspaceId, SetupQuery action) {}

    public record SetupApplyInput(
            WorkspaceId workspaceId, Token planId, Token planRevision, RetryEpochId retryEpoch, RequestKey requestKey)
            implements Durable {}

    public record DeviceManageInput(
            WorkspaceId workspaceId, DeviceAction action, RetryEpochId retryEpoch, RequestKey requestKey)
            implements Durable {}

    // ---------------------------------------------------------------- the tools, in the reference's catalog order

    public static final ToolSpec<ListInput> LIST = ToolSpec.read(
                    "lomi_android_list",
                    "List managed Android devices",
                    "android.read",
                    "R-I-",
                    ListInput.class,
                    AndroidResults.Devices.class,
                    "The Android devices of this host's adb server and the user's AVDs that the pairing grant names (at most 16);"
                            + " an online device an Android panel"
                            + " opened carries its generation, which the observations take.")
            .needs(HostNeed.ANDROID_DEVICES);

    public static final ToolSpec<OpenInput> OPEN = ToolSpec.operation(
                    "lomi_android_open",
                    "Open an Android panel",
                    "android.read",
                    "--I-",
                    OpenInput.class,
                    AndroidResults.Panel.class,
                    "Opens a panel bound to a device of lomi_android_list without starting anything; a device"
                            + " online gets its generation (see lomi_android_list).")
            .needs(HostNeed.ANDROID_DEVICES)
            .withVariantScopes(ScopeNeed.always("panel.create"));

    public static final ToolSpec<StartInput> START = ToolSpec.operation(
                    "lomi_android_start",
                    "Start an Android device",
                    "android.control",
                    "--I-",
                    StartInput.class,
                    AndroidResults.RuntimeResult.class,
                    "Boots a panel's AVD with the SDK's emulator (at most 180 s); the operation settles once it"
                            + " booted, with a new generation.")
            .needs(HostNeed.ANDROID_EMULATOR);

    public static final ToolSpec<StopInput> STOP = ToolSpec.operation(
                    "lomi_android_stop",
                    "Stop an Android device",
                    "android.control",
                    "-DI-",
                    StopInput.class,
                    AndroidResults.RuntimeResult.class,
                    "Stops an emulator lomi_android_start booted, keeping its data; its generation ends.")
            .needs(HostNeed.ANDROID_EMULATOR);

    public static final ToolSpec<Input> INPUT = ToolSpec.ordered(
                    "lomi_android_input",
                    "Send Android input",
                    "android.interact",
                    "-DIO",
                    Input.class,
                    OperationView.class,
                    "Sends one tap, swipe, touch, key, navigation, rotation or text event to the device under your input lease"
                            + " (lomi_panel_control); resending an inputSequence never sends it twice.")
            .needs(HostNeed.ANDROID_DEVICES);

    public static final ToolSpec<SnapshotInput> SNAPSHOT = ToolSpec.read(
                    "lomi_android_snapshot",
                    "Read an Android UI snapshot",
                    "android.observe",
                    "R-I-",
                    SnapshotInput.class,
                    AndroidResults.Snapshot.class,
                    "A bounded UI Automator snapshot of the device at this generation: at most maxNodes nodes"
                            + " and maxBytes, within 12 s; password text is left out.")
            .needs(HostNeed.ANDROID_DEVICES);

    public static final ToolSpec<ScreenshotInput> SCREENSHOT = ToolSpec.read(
                    "lomi_android_screenshot",
                    "Capture an Android screenshot",
                    "android.capture",
                    "R-I-",
                    ScreenshotInput.class,
                    AndroidResults.Screenshot.class,
                    "A PNG of the device at this generation, scaled to maxEdge, at most 2 Mpx and maxBytes, as"
                            + " an artifact and an image.")
            .needs(HostNeed.ANDROID_DEVICES);

    public static final ToolSpec<LogcatInput> LOGCAT = ToolSpec.read(
                    "lomi_android_logcat",
                    "Read Android logcat",
                    "android.logs",
                    "R-I-",
                    LogcatInput.class,
                    AndroidResults.Logcat.class,
                    "Recent logcat lines of one app's process, paged: a snapshot of at most 256 lines and 64 KiB;"
                            + " the cursor is valid 60 s.")
            .needs(HostNeed.ANDROID_DEVICES);

    public static final ToolSpec<LaunchInput> LAUNCH = ToolSpec.operation(
                    "lomi_android_launch",
                    "Launch an Android app",
                    "android.launch",
                    "-DIO",
                    LaunchInput.class,
                    AndroidResults.Launched.class,
                    "Launches an app's activity (default: its launcher activity) on the device at this generation;"
                            + " confirms the intent was delivered, not what the app shows.")
            .needs(HostNeed.ANDROID_DEVICES);

    public static final ToolSpec<InstallInput> INSTALL_APK = ToolSpec.operation(
                    "lomi_android_install_apk",
                    "Install an APK",
                    "android.install",
                    "-DI-",
                    InstallInput.class,
                    AndroidResults.Installed.class,
                    "Installs an imported APK artifact (lomi_artifact_import kind android_apk) on the device once the"
                            + " admin approves that exact APK.")
            .needs(HostNeed.ANDROID_DEVICES);

    public static final ToolSpec<SetupPlanInput> SETUP_PLAN = ToolSpec.read(
                    "lomi_android_setup_plan",
                    "Plan Android SDK setup",
                    "android.read",
                    "R-IO",
                    SetupPlanInput.class,
                    AndroidResults.Setup.class,
                    "The SDK's packages and AVDs (offline), sdkmanager's catalog, or an install plan showing each"
                            + " licence by SHA-256.")
            .needs(HostNeed.ANDROID_SETUP);

    public static final ToolSpec<SetupApplyInput> SETUP_APPLY = ToolSpec.operation(
                    "lomi_android_setup_apply",
                    "Apply an Android SDK setup plan",
                    "android.setup",
                    "-DIO",
                    SetupApplyInput.class,
                    AndroidResults.Management.class,
                    "Runs sdkmanager on a prepared plan once the admin approves it and its licences.")
            .needs(HostNeed.ANDROID_SETUP);

    public static final ToolSpec<DeviceManageInput> DEVICE_MANAGE = ToolSpec.operation(
                    "lomi_android_device_manage",
                    "Manage Android devices",
                    "android.read",
                    "-DI-",
                    DeviceManageInput.class,
                    AndroidResults.Management.class,
                    "Creates, modifies, wipes or deletes a stopped AVD once the admin approves; wipe and delete"
                            + " take its exact name.")
            .needs(HostNeed.ANDROID_MANAGE)
            .withVariantScopes(ScopeNeed.always("android.manage"));

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
