package dev.lomicontrol.artifacts;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The artifacts' private directory (0700): {@code <id>.bin} holds the bytes and {@code <id>.json}
 * the metadata, both 0600 and written temp → fsync → rename → fsync directory. The metadata is
 * written last, so it marks a complete artifact; leftovers of an interrupted write are removed
 * when the directory is loaded.
 */
final class ArtifactDirectory {

    private static final Logger log = LoggerFactory.getLogger(ArtifactDirectory.class);
    static final Pattern ID = Pattern.compile("art-[0-9a-f]{16}");
    private static final String TEMP_SUFFIX = ".tmp";

    private final Path directory;

    ArtifactDirectory(Path directory) {
        this.directory = directory.toAbsolutePath();
        try {
            if (!Files.exists(this.directory, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectories(this.directory.getParent());
                Files.createDirectory(
                        this.directory,
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            if (!Files.isDirectory(this.directory, LinkOption.NOFOLLOW_LINKS)) {
                throw new LomiException(
                        ErrorCode.STORAGE_UNAVAILABLE,
                        "the artifact directory " + this.directory + " is not a directory");
            }
            Files.setPosixFilePermissions(this.directory, PosixFilePermissions.fromString("rwx------"));
        } catch (IOException e) {
            throw unavailable("cannot prepare the artifact directory " + this.directory, e);
        }
    }

    /** Every complete artifact on disk; incomplete or unreadable ones are deleted (they have no owner to serve). */
    List<Artifact> load() {
        List<Artifact> loaded = new ArrayList<>();
        List<Path> others = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (name.endsWith(".json")
                        && ID.matcher(name.substring(0, name.length() - 5)).matches()) {
                    loadOne(entry, name.substring(0, name.length() - 5)).ifPresent(loaded::add);
                } else {
                    others.add(entry);
                }
            }
        } catch (IOException e) {
            throw unavailable("cannot list the artifact directory " + directory, e);
        }
        for (Path other : others) {
            String name = other.getFileName().toString();
            boolean orphanBytes = name.endsWith(".bin") && loaded.stream().noneMatch(a -> name.equals(a.id() + ".bin"));
            if (name.endsWith(TEMP_SUFFIX) || orphanBytes) {
                deleteQuietly(other);
            }
        }
        return loaded;
    }

    private Optional<Artifact> loadOne(Path metadata, String id) {
        try {
            Artifact artifact = ArtifactJson.read(Files.readAllBytes(metadata));
            if (!artifact.id().equals(id) || !Files.isRegularFile(bin(id), LinkOption.NOFOLLOW_LINKS)) {
                throw new IllegalArgumentException("metadata without matching bytes");
            }
            return Optional.of(artifact);
        } catch (IOException | RuntimeException e) {
            log.warn("removing unreadable artifact {}: {}", id, e.toString());
            deleteQuietly(metadata);
            deleteQuietly(bin(id));
            return Optional.empty();
        }
    }

    /** Writes the bytes, then the metadata, each durably; on failure removes what it wrote (STORAGE_UNAVAILABLE). */
    void store(Artifact artifact, byte[] bytes) {
        try {
            writeDurably(bin(artifact.id()), bytes);
            writeDurably(json(artifact.id()), ArtifactJson.write(artifact));
        } catch (IOException e) {
            delete(artifact);
            throw unavailable("cannot store artifact " + artifact.id(), e);
        }
    }

    /** The stored bytes, at most {@code byteLength + 1} of them; a missing file is ARTIFACT_INVALID. */
    byte[] bytes(Artifact artifact) {
        try (InputStream in = Channels.newInputStream(
                FileChannel.open(bin(artifact.id()), StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))) {
            return in.readNBytes(Math.toIntExact(artifact.byteLength() + 1));
        } catch (NoSuchFileException e) {
            throw new LomiException(
                    ErrorCode.ARTIFACT_INVALID, "the stored bytes of " + artifact.id() + " are missing");
        } catch (IOException e) {
            throw unavailable("cannot read artifact " + artifact.id(), e);
        }
    }

    /** Removes the metadata first (so a crash leaves only orphan bytes, cleaned at load), then the bytes. */
    void delete(Artifact artifact) {
        deleteQuietly(json(artifact.id()));
        deleteQuietly(bin(artifact.id()));
        fsyncDirectory();
    }

    private void writeDurably(Path target, byte[] bytes) throws IOException {
        Path temp = target.resolveSibling(target.getFileName() + TEMP_SUFFIX);
        Files.deleteIfExists(temp);
        try (FileChannel channel = FileChannel.open(
                temp,
                Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        } catch (IOException e) {
            deleteQuietly(temp);
            throw e;
        }
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        fsyncDirectory();
    }

    private void fsyncDirectory() {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException e) {
            throw unavailable("cannot fsync the artifact directory " + directory, e);
        }
    }

    private Path bin(String id) {
        return directory.resolve(id + ".bin");
    }

    private Path json(String id) {
        return directory.resolve(id + ".json");
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            log.warn("cannot delete {}: {}", file, e.toString());
        }
    }

    private static LomiException unavailable(String message, IOException cause) {
        return new LomiException(ErrorCode.STORAGE_UNAVAILABLE, message + ": " + cause.getMessage(), cause);
    }
}
