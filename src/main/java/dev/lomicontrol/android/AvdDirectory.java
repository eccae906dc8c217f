package dev.lomicontrol.android;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The user's Android Virtual Devices, read from their own files: {@code <avd home>/<NAME>.ini} (its
 * {@code path=} names the {@code NAME.avd} folder) and that folder's {@code config.ini}. The AVD home
 * is {@code $ANDROID_AVD_HOME}, else {@code $ANDROID_USER_HOME/avd}, else the legacy
 * {@code $ANDROID_SDK_HOME/.android/avd}, else {@code ~/.android/avd} — where the SDK's tools look.
 * Nothing is written; an unreadable or malformed file is skipped.
 */
public record AvdDirectory(Path home) {

    /** At most this many bytes of one .ini file are read. */
    static final int MAX_INI_BYTES = 64 * 1024;

    /** One AVD: its name (the .ini file's), its folder, and its display name when config.ini has one. */
    public record Avd(String name, Path folder, Optional<String> displayName) {}

    /** The AVD home of this environment (see the class comment). */
    public static AvdDirectory of(Map<String, String> environment, Path userHome) {
        String avdHome = environment.get("ANDROID_AVD_HOME");
        if (avdHome != null && !avdHome.isBlank()) {
            return new AvdDirectory(Path.of(avdHome));
        }
        String userHomeVariable = environment.get("ANDROID_USER_HOME");
        if (userHomeVariable != null && !userHomeVariable.isBlank()) {
            return new AvdDirectory(Path.of(userHomeVariable, "avd"));
        }
        String sdkHome = environment.get("ANDROID_SDK_HOME");
        if (sdkHome != null && !sdkHome.isBlank()) {
            return new AvdDirectory(Path.of(sdkHome, ".android", "avd"));
        }
        return new AvdDirectory(userHome.resolve(".android").resolve("avd"));
    }

    /** The AVDs, by name; empty when the folder does not exist. */
    public List<Avd> list() {
        if (!Files.isDirectory(home)) {
            return List.of();
        }
        List<Avd> avds = new ArrayList<>();
        try (Stream<Path> files = Files.list(home)) {
            for (Path ini : files.filter(p -> p.getFileName().toString().endsWith(".ini"))
                    .sorted()
                    .toList()) {
                String file = ini.getFileName().toString();
                String name = file.substring(0, file.length() - ".ini".length());
                Map<String, String> keys = read(ini);
                Path folder = Optional.ofNullable(keys.get("path"))
                        .filter(p -> !p.isBlank())
                        .map(Path::of)
                        .orElse(home.resolve(name + ".avd"));
                Optional<String> display = Optional.ofNullable(
                                read(folder.resolve("config.ini")).get("avd.ini.displayname"))
                        .filter(d -> !d.isBlank());
                avds.add(new Avd(name, folder, display));
            }
        } catch (IOException unreadable) {
            return List.copyOf(avds);
        }
        return List.copyOf(avds);
    }

    /** The {@code key=value} lines of an .ini file (first {@link #MAX_INI_BYTES} bytes); empty when unreadable. */
    static Map<String, String> read(Path ini) {
        Map<String, String> keys = new LinkedHashMap<>();
        try (InputStream in = Files.newInputStream(ini)) {
            String text = new String(in.readNBytes(MAX_INI_BYTES), StandardCharsets.UTF_8);
            for (String line : text.split("\r?\n")) {
                int eq = line.indexOf('=');
                if (eq > 0 && !line.startsWith("#")) {
                    keys.putIfAbsent(
                            line.substring(0, eq).strip(),
                            line.substring(eq + 1).strip());
                }
            }
        } catch (IOException unreadable) {
            return Map.of();
        }
        return keys;
    }
}
