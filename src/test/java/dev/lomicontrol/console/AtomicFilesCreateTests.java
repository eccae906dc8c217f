package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link AtomicFiles#create}: a new file appears whole with exactly its mode, and nothing at the path
 * — a file, a link, even a dangling one — is ever replaced or followed; no temp file is left behind.
 */
class AtomicFilesCreateTests {

    @TempDir
    Path temp;

    @Test
    void aNewFileAppearsWholeWithExactlyItsMode() throws Exception {
        Path file = temp.resolve("shot.png");
        AtomicFiles.create(file, bytes("picture"), AtomicFiles.PRIVATE);
        assertThat(Files.readString(file)).isEqualTo("picture");
        assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(entries()).containsExactly("shot.png");
    }

    @Test
    void anythingAlreadyThereIsNeitherReplacedNorFollowed() throws Exception {
        Path file = Files.writeString(temp.resolve("older.png"), "older");
        Path target = temp.resolve("elsewhere");
        Path dangling = Files.createSymbolicLink(temp.resolve("link.png"), target);

        assertThatThrownBy(() -> AtomicFiles.create(file, bytes("newer"), AtomicFiles.PRIVATE))
                .isInstanceOf(FileAlreadyExistsException.class);
        assertThatThrownBy(() -> AtomicFiles.create(dangling, bytes("newer"), AtomicFiles.PRIVATE))
                .isInstanceOf(FileAlreadyExistsException.class);

        assertThat(Files.readString(file)).isEqualTo("older");
        assertThat(target).doesNotExist();
        assertThat(entries()).containsExactlyInAnyOrder("older.png", "link.png");
    }

    /** The names in the directory (a temp file left behind would show here). */
    private java.util.List<String> entries() throws Exception {
        try (Stream<Path> names = Files.list(temp)) {
            return names.map(p -> p.getFileName().toString()).toList();
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
