package dev.lomicontrol.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Facts about this broker run that the console and status show: instance, sockets, discovery file
 * and the pinned registration key. Endpoints are filled in as they start.
 */
public final class BrokerRuntime {

    private final String instanceId;
    private final Instant startedAt;
    private final Path dataDirectory;
    private final Path runtimeDirectory;
    private volatile @Nullable Path controlSocket;
    private volatile @Nullable Path adminSocket;
    private volatile @Nullable Path discoveryFile;
    private volatile @Nullable String registrationKeyHex;
    private final java.util.List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();

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

    /** Creates a fresh private runtime directory (0700) under {@code $XDG_RUNTIME_DIR} when it is set, else the system temp directory. */
    public static Path createRuntimeDirectory() {
        return createRuntimeDirectory(
                dev.lomicontrol.core.UserDirectories.current().runtime());
    }

    /** Creates a fresh private runtime directory (0700) under {@code parent}, or the system temp directory without one. */
    public static Path createRuntimeDirectory(java.util.Optional<Path> parent) {
        try {
            java.nio.file.attribute.FileAttribute<?> mode =
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
            return parent.isPresent()
                    ? Files.createTempDirectory(parent.get(), "lomi-control-", mode)
                    : Files.createTempDirectory("lomi-control-", mode);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the private runtime directory", e);
        }
    }

    /**
     * Removes the runtime directory and what this run put in it (the shells' integration files) at
     * shutdown, after the endpoints closed and deleted their sockets and the terminals ended. The
     * directory was created private (0700) for this run, so everything inside is ours; links are
     * removed, never followed.
     */
    public void deleteRuntimeDirectory() {
        deleteTree(runtimeDirectory);
    }

    /** The file in a runtime directory naming the data directory of the broker run that made it. */
    static final String OWNER_FILE = "data-directory";

    /**
     * Writes this run's data directory into its runtime directory, then removes the runtime
     * directories that earlier runs of the same data directory left beside it: a broker killed with
     * SIGKILL (or a crash) cannot remove its own, and each kill left one in the temp directory. Call
     * it only while holding the data directory's owner lock (the ledger takes it when it opens): then
     * no other live broker of this data directory exists, so a directory naming it is stale.
     * Directories of other data directories, without the file, not this user's or not private (0700)
     * are left alone; links are removed, never followed.
     *
     * @return how many stale runtime directories were removed
     */
    public int claimAndSweepStale() {
        String owner = ownerName(dataDirectory);
        try {
            Files.writeString(runtimeDirectory.resolve(OWNER_FILE), owner);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot mark the runtime directory " + runtimeDirectory, e);
        }
        Path parent = runtimeDirectory.toAbsolutePath().getParent();
        if (parent == null) {
            return 0;
        }
        int removed = 0;
        try (java.util.stream.Stream<Path> siblings = Files.list(parent)) {
            java.nio.file.attribute.UserPrincipal user =
                    Files.getOwner(runtimeDirectory, java.nio.file.LinkOption.NOFOLLOW_LINKS);
            for (Path sibling : (Iterable<Path>) siblings::iterator) {
                if (!sibling.equals(runtimeDirectory.toAbsolutePath()) && isStaleOf(sibling, user, owner)) {
                    deleteTree(sibling);
                    removed++;
                }
            }
        } catch (IOException | UncheckedIOException e) {
            // the temp directory cannot be listed: nothing to sweep
        }
        return removed;
    }

    private static String ownerName(Path dataDirectory) {
        try {
            return dataDirectory.toRealPath().toString();
        } catch (IOException e) {
            return dataDirectory.toAbsolutePath().normalize().toString();
        }
    }

    private static boolean isStaleOf(Path sibling, java.nio.file.attribute.UserPrincipal user, String owner) {
        java.nio.file.LinkOption noFollow = java.nio.file.LinkOption.NOFOLLOW_LINKS;
        if (!sibling.getFileName().toString().startsWith("lomi-control-") || !Files.isDirectory(sibling, noFollow)) {
            return false;
        }
        try {
            if (!Files.getOwner(sibling, noFollow).equals(user)
                    || !PosixFilePermissions.toString(Files.getPosixFilePermissions(sibling, noFollow))
                            .equals("rwx------")) {
                return false;
            }
            Path marker = sibling.resolve(OWNER_FILE);
            if (!Files.isRegularFile(marker, noFollow) || Files.size(marker) > 4096) {
                return false;
            }
            return Files.readString(marker).equals(owner);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static void deleteTree(Path root) {
        try (java.util.stream.Stream<Path> tree = Files.walk(root)) {
            tree.sorted(java.util.Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException e) {
                    // in use or already gone: harmless in the temp directory
                }
            });
        } catch (IOException | java.io.UncheckedIOException e) {
            // already gone
        }
    }

    /** Records a standing warning about this run's configuration (e.g. the terminal sandbox is off). */
    public void warn(String warning) {
        warnings.add(warning);
    }

    /** Standing warnings that {@code status}, {@code pairing list} and a helper's {@code lomi_status} show. */
    public java.util.List<String> warnings() {
        return java.util.List.copyOf(warnings);
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
