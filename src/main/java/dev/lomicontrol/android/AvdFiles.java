package dev.lomicontrol.android;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The files of one AVD ({@code <NAME>.avd/}) the device tools read and change: its
 * {@code config.ini} (read, and edited key by key keeping every other line, written to a temporary
 * file then moved over it), the digest of the whole AVD home's AVDs ({@link #revision}), and wiping
 * its user data ({@code userdata-qemu.img*}, {@code cache.img*}, {@code snapshots/}) — what the
 * emulator's {@code -wipe-data} resets; the next boot starts from the system image's userdata.
 */
public final class AvdFiles {

    private AvdFiles() {}

    /** The config.ini of {@code avd}'s folder as key/value pairs (empty when absent). */
    public static Map<String, String> config(AvdDirectory.Avd avd) {
        return AvdDirectory.read(avd.folder().resolve("config.ini"));
    }

    /**
     * A revision of every AVD of {@code directory}: the first 16 hex digits of the SHA-256 of each
     * AVD's name, its {@code <NAME>.ini} and its {@code config.ini} (a change to any of them changes it).
     */
    public static String revision(AvdDirectory directory) {
        StringBuilder text = new StringBuilder();
        for (AvdDirectory.Avd avd : directory.list()) {
            text.append(avd.name()).append('\n');
            text.append(readOrEmpty(directory.home().resolve(avd.name() + ".ini")))
                    .append('\n');
            text.append(readOrEmpty(avd.folder().resolve("config.ini"))).append('\n');
        }
        return SdkPackages.sha256(text.toString()).substring(0, 16);
    }

    /** Sets {@code changes} in {@code avd}'s config.ini: an existing key's line is replaced in place, a new one appended. */
    public static void edit(AvdDirectory.Avd avd, Map<String, String> changes) {
        Path config = avd.folder().resolve("config.ini");
        List<String> lines = new ArrayList<>(List.of(readOrEmpty(config).split("\r?\n", -1)));
        if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        Map<String, String> left = new LinkedHashMap<>(changes);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int eq = line.indexOf('=');
            if (eq > 0 && !line.startsWith("#")) {
                String key = line.substring(0, eq).strip();
                if (left.containsKey(key)) {
                    lines.set(i, key + "=" + left.remove(key));
                }
            }
        }
        left.forEach((key, value) -> lines.add(key + "=" + value));
        try {
            Path temp = Files.createTempFile(avd.folder(), ".config.ini.", ".tmp");
            Files.writeString(temp, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
            Files.move(temp, config, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write " + config, e);
        }
    }

    /** Deletes {@code avd}'s user data (see the class comment); the files deleted, by name. */
    public static List<String> wipe(AvdDirectory.Avd avd) {
        List<String> deleted = new ArrayList<>();
        try (Stream<Path> files = Files.list(avd.folder())) {
            for (Path file : files.sorted().toList()) {
                String name = file.getFileName().toString();
                if (name.startsWith("userdata-qemu.img") || name.startsWith("cache.img") || name.equals("snapshots")) {
                    deleteTree(file);
                    deleted.add(name);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not wipe " + avd.folder(), e);
        }
        return List.copyOf(deleted);
    }

    /** Whether {@code avd}'s folder holds the lock files a running emulator keeps ({@code *.lock}). */
    public static boolean locked(AvdDirectory.Avd avd) {
        try (Stream<Path> files = Files.list(avd.folder())) {
            return files.anyMatch(f -> f.getFileName().toString().endsWith(".lock"));
        } catch (IOException unreadable) {
            return false;
        }
    }

    private static void deleteTree(Path path) throws IOException {
        if (Files.isDirectory(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            try (Stream<Path> children = Files.list(path)) {
                for (Path child : children.toList()) {
                    deleteTree(child);
                }
            }
        }
        Files.deleteIfExists(path);
    }

    private static String readOrEmpty(Path file) {
        try {
            return Files.isRegularFile(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException unreadable) {
            return "";
        }
    }
}
