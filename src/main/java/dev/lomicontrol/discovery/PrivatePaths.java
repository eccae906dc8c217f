package dev.lomicontrol.discovery;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.ProcessIdentity;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The private files of discovery: checks made with lstat (never following a link) that name the
 * path and the problem in a {@link DiscoveryException}, and durable writes (fsync file and directory).
 */
final class PrivatePaths {

    static final int DIR_MODE = 0700;
    static final int FILE_MODE = 0600;
    private static final int S_IFMT = 0170000;
    private static final int S_IFREG = 0100000;
    private static final int S_IFDIR = 0040000;
    private static final int S_IFLNK = 0120000;
    private static final int S_IFSOCK = 0140000;
    private static final Set<PosixFilePermission> DIR_PERMISSIONS = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> FILE_PERMISSIONS = PosixFilePermissions.fromString("rw-------");

    private PrivatePaths() {}

    /** One lstat of a path: type and permission bits, owner, links, size and identity. */
    record Stat(int mode, int uid, int nlink, long size, long dev, long ino) {

        int type() {
            return mode & S_IFMT;
        }

        int permissions() {
            return mode & 07777;
        }

        boolean sameFileAs(Stat other) {
            return dev == other.dev && ino == other.ino;
        }
    }

    static Stat stat(Path path) throws DiscoveryException {
        try {
            Map<String, Object> a =
                    Files.readAttributes(path, "unix:mode,uid,nlink,size,dev,ino", LinkOption.NOFOLLOW_LINKS);
            return new Stat(
                    (Integer) Objects.requireNonNull(a.get("mode")),
                    (Integer) Objects.requireNonNull(a.get("uid")),
                    (Integer) Objects.requireNonNull(a.get("nlink")),
                    (Long) Objects.requireNonNull(a.get("size")),
                    (Long) Objects.requireNonNull(a.get("dev")),
                    (Long) Objects.requireNonNull(a.get("ino")));
        } catch (NoSuchFileException e) {
            throw new DiscoveryException(path + " does not exist", e);
        } catch (IOException | UnsupportedOperationException e) {
            throw new DiscoveryException("cannot inspect " + path + ": " + e.getMessage(), e);
        }
    }

    /** Passes only for a real directory (not a link) of mode 0700 owned by our uid. */
    static void requirePrivateDirectory(Path dir) throws DiscoveryException {
        Stat stat = stat(dir);
        requireType(dir, stat, S_IFDIR);
        requireMode(dir, stat, DIR_MODE);
        requireOwner(dir, stat);
    }

    /** Passes only for a regular file (not a link) of mode 0600, one link, our uid, at most {@code maxBytes}. */
    static Stat requirePrivateFile(Path file, long maxBytes) throws DiscoveryException {
        Stat stat = stat(file);
        requireType(file, stat, S_IFREG);
        requireMode(file, stat, FILE_MODE);
        if (stat.nlink() != 1) {
            throw new DiscoveryException(file + " has " + stat.nlink() + " hard links; expected 1");
        }
        requireOwner(file, stat);
        if (stat.size() > maxBytes) {
            throw new DiscoveryException(file + " is " + stat.size() + " bytes; the limit is " + maxBytes);
        }
        return stat;
    }

    /** Passes only for a socket of mode 0600 and our uid inside a private directory. */
    static void requirePrivateSocket(Path socket) throws DiscoveryException {
        requirePrivateDirectory(parentOf(socket));
        Stat stat = stat(socket);
        requireType(socket, stat, S_IFSOCK);
        requireMode(socket, stat, FILE_MODE);
        requireOwner(socket, stat);
    }

    /** The bytes of a checked private file, opened without following links, read with a hard bound. */
    static byte[] readPrivateFile(Path file, int maxBytes) throws DiscoveryException {
        Stat before = requirePrivateFile(file, maxBytes);
        byte[] bytes;
        try (SeekableByteChannel channel =
                Files.newByteChannel(file, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))) {
            bytes = readAtMost(channel, maxBytes + 1);
        } catch (IOException e) {
            throw new DiscoveryException("cannot open " + file + " without following links: " + e.getMessage(), e);
        }
        if (bytes.length > maxBytes) {
            throw new DiscoveryException(file + " grew past the limit of " + maxBytes + " bytes while being read");
        }
        if (!requirePrivateFile(file, maxBytes).sameFileAs(before)) {
            throw new DiscoveryException(file + " was replaced while being read");
        }
        return bytes;
    }

    /**
     * Creates {@code file}'s directory 0700 (and missing ancestors) if absent; refuses an unsafe existing
     * one with STORAGE_UNAVAILABLE naming {@code what} (e.g. "registration key /x/key.pk8") and the problem.
     */
    static void ensurePrivateDirectory(Path file, String what) {
        Path dir = parentOf(file);
        try {
            if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectories(parentOf(dir));
                createDirectory(dir);
            }
            requirePrivateDirectory(dir);
        } catch (IOException e) {
            throw storage("cannot create the private directory of " + what + ": " + e.getMessage(), e);
        } catch (DiscoveryException e) {
            throw storage("refusing the directory of " + what + ": " + e.getMessage(), e);
        }
    }

    /** Writes a new 0600 file (never replacing one) and fsyncs it; a partly written file is removed. */
    static void writeNewFile(Path file, byte[] bytes) throws IOException {
        FileAttribute<Set<PosixFilePermission>> mode = PosixFilePermissions.asFileAttribute(FILE_PERMISSIONS);
        try (FileChannel channel = FileChannel.open(
                file,
                Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
                mode)) {
            try {
                Files.setPosixFilePermissions(file, FILE_PERMISSIONS);
                writeFully(channel, bytes);
                channel.force(true);
            } catch (IOException | RuntimeException e) {
                Files.deleteIfExists(file);
                throw e;
            }
        }
    }

    /** Replaces {@code file} atomically: temp file in the same directory, fsync, rename, fsync directory. */
    static void replaceAtomically(Path file, byte[] bytes) {
        Path dir = parentOf(file);
        @Nullable Path temp = null;
        try {
            temp = Files.createTempFile(
                    dir,
                    "." + file.getFileName() + ".",
                    ".tmp",
                    PosixFilePermissions.asFileAttribute(FILE_PERMISSIONS));
            try (FileChannel channel =
                    FileChannel.open(temp, Set.of(StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS))) {
                Files.setPosixFilePermissions(temp, FILE_PERMISSIONS);
                writeFully(channel, bytes);
                channel.force(true);
            }
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
            temp = null;
            fsyncDirectory(dir);
        } catch (IOException e) {
            throw storage("cannot publish " + file + ": " + e.getMessage(), e);
        } finally {
            deleteQuietly(temp);
        }
    }

    /** The directory holding {@code path}; a path without one (the root, a bare name) is a caller's bug. */
    static Path parentOf(Path path) {
        return Objects.requireNonNull(path.getParent(), () -> path + " has no parent directory");
    }

    static void fsyncDirectory(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    static LomiException storage(String message, @Nullable Throwable cause) {
        return new LomiException(ErrorCode.STORAGE_UNAVAILABLE, message, cause);
    }

    private static void createDirectory(Path dir) throws IOException {
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(DIR_PERMISSIONS));
            Files.setPosixFilePermissions(dir, DIR_PERMISSIONS);
            fsyncDirectory(parentOf(dir));
        } catch (FileAlreadyExistsException raced) {
            // another process created it first; it is checked like any existing directory
        }
    }

    private static void requireType(Path path, Stat stat, int type) throws DiscoveryException {
        if (stat.type() != type) {
            throw new DiscoveryException(path + " is " + describe(stat.type()) + "; expected " + describe(type));
        }
    }

    private static void requireMode(Path path, Stat stat, int mode) throws DiscoveryException {
        if (stat.permissions() != mode) {
            throw new DiscoveryException(path + " has mode " + octal(stat.permissions()) + "; expected " + octal(mode));
        }
    }

    private static void requireOwner(Path path, Stat stat) throws DiscoveryException {
        long ours = ProcessIdentity.uid();
        if (stat.uid() != ours) {
            throw new DiscoveryException(
                    path + " is owned by uid " + stat.uid() + ", not by this user (uid " + ours + ")");
        }
    }

    private static String describe(int type) {
        return switch (type) {
            case S_IFREG -> "a regular file";
            case S_IFDIR -> "a directory";
            case S_IFLNK -> "a symbolic link";
            case S_IFSOCK -> "a socket";
            default -> "a special file";
        };
    }

    private static String octal(int mode) {
        return String.format("%04o", mode);
    }

    private static byte[] readAtMost(SeekableByteChannel channel, int limit) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(limit);
        while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
            // keep reading until end of file or the bound
        }
        return Arrays.copyOf(buffer.array(), buffer.position());
    }

    private static void writeFully(FileChannel channel, byte[] bytes) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    private static void deleteQuietly(@Nullable Path temp) {
        if (temp == null) {
            return;
        }
        try {
            Files.deleteIfExists(temp);
        } catch (IOException e) {
            // the temp file is unreferenced; a later publish makes a new one
        }
    }
}
