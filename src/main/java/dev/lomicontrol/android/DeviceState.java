package dev.lomicontrol.android;

import java.util.Locale;

/** A device's state as the adb server reports it ({@code host:track-devices}); a word this enum does not know is {@link #UNKNOWN}. */
public enum DeviceState {
    /** Connected and authorized: shell, exec and sync work. */
    DEVICE,
    /** Connected, but the device has not accepted this host's key yet (the user has to allow debugging on the device). */
    UNAUTHORIZED,
    /** Known to the server but not answering (booting, disconnected, or still authenticating). */
    OFFLINE,
    /** Authentication in progress. */
    AUTHORIZING,
    /** A network device the server is still connecting to. */
    CONNECTING,
    /** A USB device this user may not open (udev rules). */
    NO_PERMISSIONS,
    BOOTLOADER,
    RECOVERY,
    SIDELOAD,
    RESCUE,
    HOST,
    UNKNOWN;

    /** The state named by the server's word ({@code "device"}, {@code "no permissions (…)"}, …). */
    public static DeviceState of(String word) {
        String w = word.trim().toLowerCase(Locale.ROOT);
        if (w.startsWith("no permissions")) {
            return NO_PERMISSIONS;
        }
        for (DeviceState state : values()) {
            if (state.name().toLowerCase(Locale.ROOT).equals(w)) {
                return state;
            }
        }
        return UNKNOWN;
    }

    /** The word the server uses (lower case, {@code no permissions} with a space). */
    public String word() {
        return this == NO_PERMISSIONS ? "no permissions" : name().toLowerCase(Locale.ROOT);
    }
}
