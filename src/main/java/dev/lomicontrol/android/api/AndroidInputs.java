package dev.lomicontrol.android.api;

import dev.lomicontrol.android.api.AndroidSpecs.DeviceId;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.tools.Default;
import dev.lomicontrol.tools.DisplayName;
import dev.lomicontrol.tools.Doc;
import dev.lomicontrol.tools.Items;
import dev.lomicontrol.tools.Len;
import dev.lomicontrol.tools.Matches;
import dev.lomicontrol.tools.Range;
import dev.lomicontrol.tools.Tag;
import dev.lomicontrol.tools.Tagged;
import dev.lomicontrol.tools.Token;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The unions the Android tools take, with their variants and parts: an input event
 * ({@code lomi_android_input}), what a setup plan looks at ({@code lomi_android_setup_plan}) and a
 * device management action ({@code lomi_android_device_manage}). The tools' own input records and the
 * declarations stay in {@link AndroidSpecs}.
 */
public final class AndroidInputs {

    private AndroidInputs() {}

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

    @Tag("tap")
    public record Tap(
            @Range(min = 0, max = 4294967295L) long x,
            @Range(min = 0, max = 4294967295L) long y) implements InputEvent {}

    @Tag("swipe")
    public record Swipe(
            @Range(min = 0, max = 4294967295L) long x,
            @Range(min = 0, max = 4294967295L) long y,
            @Range(min = 0, max = 4294967295L) long toX,
            @Range(min = 0, max = 4294967295L) long toY,

            @Doc("≥500 in one place: a long press") @Range(min = 1, max = 10000) @Default("300")
            int durationMs)
            implements InputEvent {}

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
}
