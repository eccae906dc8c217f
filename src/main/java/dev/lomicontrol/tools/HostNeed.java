package dev.lomicontrol.tools;

/**
 * What a tool needs from the host beyond the broker itself; a host without it answers HOST_UNQUALIFIED
 * with the reason ({@link HostQualification}). The Android tools need one of four capabilities, each
 * probed on its own so that an answer names exactly what is missing.
 */
public enum HostNeed {
    NONE,
    /** Observation and input on any device the user's adb server sees (emulators, USB and wireless phones): {@code adb}. */
    ANDROID_DEVICES,
    /** Starting and stopping the SDK's emulators: the SDK's {@code emulator}, {@code adb} and a usable {@code /dev/kvm}. */
    ANDROID_EMULATOR,
    /** Planning and applying SDK setup: an SDK root and its {@code sdkmanager}. */
    ANDROID_SETUP,
    /** Creating, changing and deleting emulators: an SDK root and its {@code avdmanager}. */
    ANDROID_MANAGE,
    /** The browser tools (a headless Chromium). */
    BROWSER;

    /** Whether this is one of the Android capabilities. */
    public boolean android() {
        return name().startsWith("ANDROID_");
    }
}
