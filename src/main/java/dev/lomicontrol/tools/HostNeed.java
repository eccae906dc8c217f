package dev.lomicontrol.tools;

/** What a tool needs from the host beyond the broker itself; a host without it answers HOST_UNQUALIFIED with the reason. */
public enum HostNeed {
    NONE,
    /** A managed Android emulator: /dev/kvm, the SDK's emulator and adb. */
    ANDROID,
    /** The browser tools (a headless Chromium). */
    BROWSER
}
