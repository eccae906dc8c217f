package dev.lomicontrol.android;

import java.util.ArrayList;
import java.util.List;

/**
 * One device the adb server lists: its serial ({@code emulator-5554}, {@code 127.0.0.1:5555}, a USB
 * serial) and state, with the server's own word for the state (it may carry detail, e.g. why there
 * are no permissions).
 */
public record AttachedDevice(String serial, DeviceState state, String stateWord) {

    /** Whether this serial names an emulator's console port ({@code emulator-<port>}). */
    public boolean isEmulator() {
        return serial.matches("emulator-[0-9]{1,5}");
    }

    /** The devices of one {@code host:track-devices} / {@code host:devices} message: {@code serial\tstate\n} per line. */
    static List<AttachedDevice> parse(String listing) {
        List<AttachedDevice> devices = new ArrayList<>();
        for (String line : listing.split("\n")) {
            int tab = line.indexOf('\t');
            if (tab > 0) {
                String word = line.substring(tab + 1).trim();
                devices.add(new AttachedDevice(line.substring(0, tab), DeviceState.of(word), word));
            }
        }
        return List.copyOf(devices);
    }
}
