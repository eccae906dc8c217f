package dev.lomicontrol.android.tools;

import dev.lomicontrol.android.AndroidDevices;
import dev.lomicontrol.android.AvdDirectory;
import dev.lomicontrol.android.api.AndroidSpecs;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.pairing.AndroidGrant;
import dev.lomicontrol.pairing.Session;
import java.util.Optional;

/**
 * The Android devices and packages of the session's grant ({@link AndroidGrant}) as the Android tools
 * enforce them. lomi_android_list shows only granted devices; every call naming a device outside the
 * grant answers SCOPE_DENIED (the reference's code for "a foreign device") before anything reaches
 * the device — and so does an id no device has now, unless the grant names it, so the answer says
 * nothing about devices outside the grant. A package outside the grant (lomi_android_launch,
 * lomi_android_logcat) is SCOPE_DENIED too.
 */
final class GrantedDevices {

    private GrantedDevices() {}

    /** Whether the listed {@code device} is granted: its serial, or the AVD it is or runs, is named (or all devices are). */
    static boolean covers(Session session, AndroidDevices.Listed device) {
        return session.grant()
                .android()
                .coversDevice(device.serial(), device.avd().map(AvdDirectory.Avd::name));
    }

    /**
     * Whether {@code deviceId} is settled without asking adb: every device is granted, or the id is
     * that of a serial or AVD the grant names ({@code adb:<name>} or {@code avd:<name>}).
     */
    static boolean named(Session session, AndroidSpecs.DeviceId deviceId) {
        AndroidGrant grant = session.grant().android();
        if (grant.allDevices()) {
            return true;
        }
        for (String name : grant.devices()) {
            if (AndroidPanels.idOf("adb:" + name).equals(deviceId.value())
                    || AndroidPanels.idOf("avd:" + name).equals(deviceId.value())) {
                return true;
            }
        }
        return false;
    }

    /** Refuses (SCOPE_DENIED) {@code deviceId} as found in a listing taken now ({@code found}, empty when not listed). */
    static void require(Session session, AndroidSpecs.DeviceId deviceId, Optional<AndroidDevices.Listed> found) {
        boolean granted = found.isPresent() ? covers(session, found.get()) : named(session, deviceId);
        if (!granted) {
            throw new LomiException(
                    ErrorCode.SCOPE_DENIED,
                    "device " + deviceId + " is not one of the Android devices this session's grant names; use one"
                            + " lomi_android_list shows, or ask the admin to grant it (pairing approve --android-devices)");
        }
    }

    /** Refuses (SCOPE_DENIED) an app package the grant does not name. */
    static void requirePackage(Session session, String packageName) {
        if (!session.grant().android().coversPackage(packageName)) {
            throw new LomiException(
                    ErrorCode.SCOPE_DENIED,
                    "package " + packageName + " is not one of the Android packages this session's grant names;"
                            + " ask the admin to grant it (pairing approve --android-packages)");
        }
    }
}
