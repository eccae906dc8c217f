package dev.lomicontrol.android.api;

import dev.lomicontrol.android.api.AndroidInputs.Hardware;
import dev.lomicontrol.android.api.AndroidInputs.MetadataFile;
import dev.lomicontrol.android.api.AndroidInputs.PackageSelection;
import dev.lomicontrol.android.api.AndroidSpecs.DeviceId;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.tools.Doc;
import dev.lomicontrol.tools.Tag;
import dev.lomicontrol.tools.Tagged;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * What the Android tools answer (the output and operation result records of {@link AndroidSpecs}'s
 * declarations): the managed devices, a UI snapshot, a screenshot artifact, logcat lines, the SDK setup
 * views, and the results of the operations.
 */
public final class AndroidResults {

    private AndroidResults() {}

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

    public record License(
            String id,

            @Doc("SHA-256 of the whole text, as sdkmanager shows it")
            String digest,

            @Doc("its first lines") String text) {}

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
}
