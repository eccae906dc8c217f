package dev.lomicontrol.console;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;

/** This process's user as a file-system principal, to compare with file owners and socket peers. */
final class LocalUser {

    private LocalUser() {}

    /** By name from {@code user.name}; when that cannot be looked up, the owner of a file this process creates. */
    static UserPrincipal current() throws IOException {
        try {
            return FileSystems.getDefault()
                    .getUserPrincipalLookupService()
                    .lookupPrincipalByName(System.getProperty("user.name"));
        } catch (IOException | RuntimeException e) {
            Path probe = Files.createTempFile("lomi-user", ".probe");
            try {
                return Files.getOwner(probe);
            } finally {
                Files.deleteIfExists(probe);
            }
        }
    }
}
