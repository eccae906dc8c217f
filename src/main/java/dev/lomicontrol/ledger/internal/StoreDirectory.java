package dev.lomicontrol.ledger.internal;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.ProcessIdentity;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The private store directory ({@code agent-control/}, 0700) and its files (0600). Every check
 * refuses with STORAGE_UNAVAILABLE and changes nothing that already exists.
 */
public final class StoreDirectory {

    public static final Set<PosixFilePermission> DIR_MODE = PosixFilePermissions.fromString("rwx------");
    public static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");

    private final Path root;

    private StoreDirectory(Path root) {
        this.root = root;
    }

    /** Creates {@code root} (0700) if missing, otherwise verifies it is a private directory of ours. */
    public static StoreDirectory prepare(Path root) {
        Path absolute = root.toAbsolutePath().normalize();
        try {
            if (!Files.exists(absolute, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectories(absolute.getParent());
                try {
                    Files.createDirectory(absolute, PosixFilePermissions.asFileAttribute(DIR_MODE));
                } catch (FileAlreadyExistsException raced) {
                    // verified below
                }
                Files.setPosixFilePermissions(absolute, DIR_MODE);
                fsyncDirectory(Objects.requireNonNull(absolute.getParent(), "the store is not the root directory"));
            }
            verifyDirectory(absolute);
            return new StoreDirectory(absolute);
        } catch (IOException e) {
            throw unavailable("cannot prepare store directory " + absolute + ": " + e.getMessage(), e);
        }
    }

    public Path root() {
        return root;
    }

    public Path resolve(String name) {
        return root.resolve(name);
    }

    /** A present file must be a regular file of ours, 0600, with one link; a missing file is fine. */
    public void verifyFileIfPresent(Path file) {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try {
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                throw unavailable(file + " is not a regular file (links and special files are refused)", null);
            }
            requireOwner(file);
            int links = (Integer) Files.getAttribute(file, "unix:nlink", LinkOption.NOFOLLOW_LINKS);
            if (links != 1) {
                throw unavailable(file + " has " + links + " hard links; expected 1", null);
            }
            Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS);
            if (!FILE_MODE.containsAll(mode)) {
                throw unavailable(
                        file + " has mode " + PosixFilePermissions.toString(mode) + "; expected rw-------", null);
            }
        } catch (IOException e) {
            throw unavailable("cannot inspect " + file + ": " + e.getMessage(), e);
        }
    }

    /** Creates an empty 0600 file, fsyncs it and the directory; refuses if it already exists. */
    public void createPrivateFile(Path file) {
        try (FileChannel channel = FileChannel.open(
                file,
                Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
                PosixFilePermissions.asFileAttribute(FILE_MODE))) {
            channel.force(true);
        } catch (IOException e) {
            throw unavailable("cannot create " + file + ": " + e.getMessage(), e);
        }
        fsyncDirectory(root);
    }

    /** Whether the file system under the store refuses writes (a read-only mount). */
    public boolean isReadOnlyFileSystem() {
        try {
            return Files.getFileStore(root).isReadOnly();
        } catch (IOException e) {
            throw unavailable("cannot inspect the file system of " + root + ": " + e.getMessage(), e);
        }
    }

    public static void fsyncDirectory(Path directory) {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            throw unavailable("cannot fsync directory " + directory + ": " + e.getMessage(), e);
        }
    }

    private static void verifyDirectory(Path dir) throws IOException {
        if (Files.isSymbolicLink(dir) || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw unavailable(dir + " is not a directory (a symbolic link is refused)", null);
        }
        requireOwner(dir);
        Set<PosixFilePermission> mode = Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
        if (!DIR_MODE.containsAll(mode)) {
            throw unavailable(
                    dir + " has mode " + PosixFilePermissions.toString(mode)
                            + "; expected rwx------ (fix with: chmod 700 " + dir + ")",
                    null);
        }
    }

    private static void requireOwner(Path path) throws IOException {
        int uid = (Integer) Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        long mine = ProcessIdentity.uid();
        if (uid != mine) {
            throw unavailable(path + " is owned by uid " + uid + ", not by this user (uid " + mine + ")", null);
        }
    }

    static LomiException unavailable(String message, @Nullable Throwable cause) {
        return new LomiException(ErrorCode.STORAGE_UNAVAILABLE, message, cause);
    }
}
