package dev.lomicontrol.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Optional;

/**
 * Facts about this broker run that the console and status show: instance, sockets, discovery file
 * and the pinned registration key. Endpoints are filled in as they start.
 */
public final class BrokerRuntime {

    private final String instanceId;
    private final Instant startedAt;
    private final Path dataDirectory;
    private final Path runtimeDirectory;
    private volatile Path controlSocket;
    private volatile Path adminSocket;
    private volatile Path discoveryFile;
    private volatile String registrationKeyHex;

    /**
     * @param runtimeDirectory a fresh private (0700) directory for this run's sockets
     *     ({@code control.sock}, {@code admin.sock}); deleted on shutdown
     */
    public BrokerRuntime(String instanceId, Instant startedAt, Path dataDirectory, Path runtimeDirectory) {
        this.instanceId = instanceId;
        this.startedAt = startedAt;
        this.dataDirectory = dataDirectory;
        this.runtimeDirectory = runtimeDirectory;
    }

    /** Creates a fresh private runtime directory (0700) under the system temp directory. */
    public static Path createRuntimeDirectory() {
        try {
            return Files.createTempDirectory("lomi-control-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the private runtime directory", e);
        }
    }

    /**
     * Removes the runtime directory at shutdown, after the endpoints closed and deleted their
     * sockets; anything still inside (a socket another process left) keeps it in place.
     */
    public void deleteRuntimeDirectory() {
        try {
            Files.deleteIfExists(runtimeDirectory);
        } catch (IOException e) {
            // not empty or already gone: harmless in the temp directory
        }
    }

    public Path runtimeDirectory() {
        return runtimeDirectory;
    }

    public String instanceId() {
        return instanceId;
    }

    public Instant startedAt() {
        return startedAt;
    }

    public Path dataDirectory() {
        return dataDirectory;
    }

    public Optional<Path> controlSocket() {
        return Optional.ofNullable(controlSocket);
    }

    public Optional<Path> adminSocket() {
        return Optional.ofNullable(adminSocket);
    }

    public Optional<Path> discoveryFile() {
        return Optional.ofNullable(discoveryFile);
    }

    public Optional<String> registrationKeyHex() {
        return Optional.ofNullable(registrationKeyHex);
    }

    public void controlEndpoint(Path socket, Path discovery, String keyHex) {
        this.controlSocket = socket;
        this.discoveryFile = discovery;
        this.registrationKeyHex = keyHex;
    }

    public void adminEndpoint(Path socket) {
        this.adminSocket = socket;
    }
}
