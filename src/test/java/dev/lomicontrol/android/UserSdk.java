package dev.lomicontrol.android;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * An Android setup as a user has one, for a broker child process: an SDK root whose
 * {@code platform-tools/adb} is the {@link PrivateAdbServer}'s adb (a link to its wrapper), an AVD
 * home with AVDs as avdmanager writes them, and the environment that points a process at both and at
 * that server ({@code ANDROID_HOME}, {@code ANDROID_AVD_HOME}, {@code ANDROID_ADB_SERVER_PORT}).
 */
record UserSdk(Path root, Path avdHome, PrivateAdbServer server) {

    /** The variables that would point a process elsewhere than this setup; removed from its environment. */
    static final List<String> CLEARED =
            List.of("ANDROID_SDK_ROOT", "ANDROID_USER_HOME", "ANDROID_SDK_HOME", "ANDROID_SERIAL", "ADB_VENDOR_KEYS");

    /** An SDK under {@code dir/sdk} with adb linked in, and an empty AVD home {@code dir/avd}. */
    static UserSdk in(Path dir, PrivateAdbServer server) throws IOException {
        Path tools = Files.createDirectories(dir.resolve("sdk").resolve("platform-tools"));
        Files.createSymbolicLink(tools.resolve("adb"), server.adb());
        return new UserSdk(dir.resolve("sdk"), Files.createDirectories(dir.resolve("avd")), server);
    }

    /** Adds an AVD as avdmanager writes one: {@code NAME.ini} pointing at {@code NAME.avd/} with its config.ini. */
    UserSdk avd(String name, String displayName) throws IOException {
        writeAvd(avdHome, name, displayName);
        return this;
    }

    /** Writes an AVD into {@code avdHome} as avdmanager does: {@code NAME.ini} and {@code NAME.avd/config.ini}. */
    static void writeAvd(Path avdHome, String name, String displayName) throws IOException {
        Path folder = Files.createDirectories(avdHome.resolve(name + ".avd"));
        Files.writeString(
                avdHome.resolve(name + ".ini"),
                "avd.ini.encoding=UTF-8\npath=" + folder + "\npath.rel=avd/" + name + ".avd\ntarget=android-34\n");
        Files.writeString(
                folder.resolve("config.ini"),
                "avd.ini.displayname=" + displayName
                        + "\nhw.ramSize=2048\nimage.sysdir.1=system-images/android-34/google_apis/x86_64/\n");
    }

    /** Points {@code env} (a child process's environment) at this SDK, AVD home and adb server. */
    void apply(Map<String, String> env) {
        CLEARED.forEach(env::remove);
        env.put("ANDROID_HOME", root.toString());
        env.put("ANDROID_AVD_HOME", avdHome.toString());
        env.put("ANDROID_ADB_SERVER_PORT", Integer.toString(server.port()));
    }
}
