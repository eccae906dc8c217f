package dev.lomicontrol.console;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Optional;

/**
 * {@code agent-control/admin.token}: where a running broker's admin socket is and the secret a
 * console must present. Written atomically, 0600, by the broker; read by the console only if it is
 * a regular file (not a link) of the console's own user with no group or other permissions.
 */
public record AdminToken(String socket, String token, String instanceId, long pid) {

    public static final String FILE = "admin.token";
    static final int MAX_BYTES = 4096;

    public static Path file(Path store) {
        return store.resolve(FILE);
    }

    void write(Path file) throws IOException {
        AtomicFiles.write(file, AdminProtocol.write(this), AtomicFiles.PRIVATE);
    }

    /** The token file's content; empty when it does not exist; an {@link IOException} naming the problem when it is unsafe or malformed. */
    public static Optional<AdminToken> read(Path file) throws IOException {
        PosixFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        if (!attributes.isRegularFile()) {
            throw new IOException(file + " is not a regular file");
        }
        if (!attributes.owner().equals(LocalUser.current())) {
            throw new IOException(file + " belongs to " + attributes.owner() + ", not to this user");
        }
        if (attributes.permissions().stream()
                .anyMatch(
                        p -> !p.equals(PosixFilePermission.OWNER_READ) && !p.equals(PosixFilePermission.OWNER_WRITE))) {
            throw new IOException(file + " is readable or writable by others; expected mode 0600");
        }
        if (attributes.size() > MAX_BYTES) {
            throw new IOException(file + " is larger than " + MAX_BYTES + " bytes");
        }
        try {
            AdminToken token = AdminProtocol.read(Files.readAllBytes(file), AdminToken.class);
            if (token.socket() == null || token.token() == null || token.instanceId() == null) {
                throw new IOException(file + " lacks socket, token or instanceId");
            }
            return Optional.of(token);
        } catch (AdminProtocol.MalformedException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    /** Deletes the file only while it still names {@code instanceId} (another broker may have replaced it). */
    static boolean removeIfOwned(Path file, String instanceId) {
        try {
            Optional<AdminToken> current = read(file);
            if (current.isPresent() && current.get().instanceId().equals(instanceId)) {
                Files.delete(file);
                return true;
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }
}
