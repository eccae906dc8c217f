package dev.lomicontrol.console;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Whole-file replacement that readers never see half-done: a temp file beside the target, written,
 * fsynced, given the final mode, renamed over the target, then the directory fsynced. A target that
 * is a symbolic link is written through (its real file is replaced, the link stays).
 */
final class AtomicFiles {

    static final Set<PosixFilePermission> PRIVATE = PosixFilePermissions.fromString("rw-------");
    static final Set<PosixFilePermission> SHARED = PosixFilePermissions.fromString("rw-r--r--");

    private static final SecureRandom RANDOM = new SecureRandom();

    private AtomicFiles() {}

    /** The most a client config file may hold: more is refused rather than read (N9). */
    static final int MAX_BYTES = 4 << 20;

    /**
     * The file's text, or empty when it does not exist. A file that is not a regular file (a FIFO
     * would block the read) or is larger than {@link #MAX_BYTES} is refused (security review
     * 2026-12-06, N9).
     */
    static Optional<String> read(Path file) throws IOException {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        if (!Files.isRegularFile(file)) {
            throw new IOException(file + " is not a regular file; remove it or put a real file there");
        }
        byte[] bytes;
        try (java.io.InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_BYTES + 1);
        }
        if (bytes.length > MAX_BYTES) {
            throw new IOException(file + " is larger than " + (MAX_BYTES >> 20)
                    + " MiB, far more than a client config holds; move it aside and run client register again");
        }
        return Optional.of(StandardCharsets.UTF_8
                .newDecoder()
                .decode(ByteBuffer.wrap(bytes))
                .toString());
    }

    /**
     * Replaces {@code file} with {@code bytes}, keeping the mode of an existing file and using
     * {@code newFileMode} for a new one; missing parent directories are created.
     */
    static void replace(Path file, byte[] bytes, Set<PosixFilePermission> newFileMode) throws IOException {
        Path target =
                Files.exists(file) ? file.toRealPath() : file.toAbsolutePath().normalize();
        Set<PosixFilePermission> mode = Files.exists(target) ? Files.getPosixFilePermissions(target) : newFileMode;
        Files.createDirectories(target.getParent());
        write(target, bytes, mode);
    }

    /** Replaces exactly the path {@code file} (a link there is replaced, not followed) with a file of exactly {@code mode}. */
    static void write(Path file, byte[] bytes, Set<PosixFilePermission> mode) throws IOException {
        Path directory = Objects.requireNonNull(file.toAbsolutePath().getParent(), () -> file + " has no directory");
        Path temp = directory.resolve(
                "." + file.getFileName() + ".tmp-" + HexFormat.of().formatHex(randomBytes()));
        try {
            writeSynced(temp, bytes, mode);
            move(temp, file);
        } finally {
            Files.deleteIfExists(temp);
        }
        fsyncDirectory(directory);
    }

    /**
     * Creates {@code file} with {@code bytes} and exactly {@code mode}, all or nothing: written to a temp
     * file beside it, fsynced, then linked in place (which fails, changing nothing, when anything
     * already exists at {@code file}: {@link java.nio.file.FileAlreadyExistsException}).
     */
    static void create(Path file, byte[] bytes, Set<PosixFilePermission> mode) throws IOException {
        Path directory = Objects.requireNonNull(file.toAbsolutePath().getParent(), () -> file + " has no directory");
        Path temp = directory.resolve(
                "." + file.getFileName() + ".tmp-" + HexFormat.of().formatHex(randomBytes()));
        try {
            writeSynced(temp, bytes, mode);
            Files.createLink(file, temp);
        } finally {
            Files.deleteIfExists(temp);
        }
        fsyncDirectory(directory);
    }

    /** A new file {@code temp} holding {@code bytes}, fsynced, with {@code mode} (private while it is written). */
    private static void writeSynced(Path temp, byte[] bytes, Set<PosixFilePermission> mode) throws IOException {
        try (FileChannel channel = FileChannel.open(
                temp,
                Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
                PosixFilePermissions.asFileAttribute(PRIVATE))) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
        Files.setPosixFilePermissions(temp, mode);
    }

    private static void move(Path temp, Path target) throws IOException {
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    static void fsyncDirectory(Path directory) throws IOException {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    private static byte[] randomBytes() {
        byte[] bytes = new byte[6];
        RANDOM.nextBytes(bytes);
        return bytes;
    }
}
