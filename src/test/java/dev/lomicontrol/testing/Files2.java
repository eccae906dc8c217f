package dev.lomicontrol.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** File fingerprints for "preserved byte for byte" assertions. */
public final class Files2 {

    private Files2() {}

    /** SHA-256 of every regular file directly in {@code dir} whose name starts with {@code prefix}. */
    public static Map<String, String> hashes(Path dir, String prefix) {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.filter(f -> f.getFileName().toString().startsWith(prefix) && Files.isRegularFile(f))
                    .forEach(f -> out.put(f.getFileName().toString(), sha256(f)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    public static String sha256(Path file) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
