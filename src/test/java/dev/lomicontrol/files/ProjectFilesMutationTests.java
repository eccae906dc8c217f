package dev.lomicontrol.files;

import static dev.lomicontrol.files.Fixture.code;
import static dev.lomicontrol.files.Fixture.inode;
import static dev.lomicontrol.files.Fixture.mode;
import static dev.lomicontrol.files.Fixture.p;
import static dev.lomicontrol.files.Fixture.racing;
import static dev.lomicontrol.files.Fixture.temporaries;
import static dev.lomicontrol.files.Fixture.text;
import static dev.lomicontrol.files.Fixture.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.testing.Files2;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Writes are compare-and-set on revisions, atomic, and never overwrite anything they should not. */
class ProjectFilesMutationTests extends ProjectFilesTest {

    @BeforeEach
    void setUp() throws IOException {
        write(root, "src/app.txt", "version 1\r\n");
        files = new ProjectFiles(root);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void replaceWritesExactBytesThroughARenameAndKeepsTheMode() {
        Path file = root.resolve("src/app.txt");
        Fixture.chmod(file, 0640);
        long inodeBefore = inode(file);
        FileSnapshot snapshot = files.read(p("src/app.txt"));

        byte[] next = utf8("version 2 😀\r\n");
        Mutation result = files.replace(p("src/app.txt"), next, snapshot.diskRevision());

        assertThat(Fixture.text(file)).isEqualTo("version 2 😀\r\n");
        assertThat(mode(file)).isEqualTo(0640);
        assertThat(inode(file)).as("published by rename, not written in place").isNotEqualTo(inodeBefore);
        assertThat(temporaries(root.resolve("src"))).isEmpty();
        assertThat(result.relativePath()).isEqualTo("src/app.txt");
        assertThat(result.kind()).isEqualTo(EntryKind.FILE);
        assertThat(result.diskRevision()).contains(Files2.sha256(file));
        assertThat(result.parentRevision()).isEqualTo(files.directoryRevision(p("src")));
        assertThat(result.directoryRevision()).isEmpty();
        // the new revision is immediately usable for the next write
        files.replace(p("src/app.txt"), utf8("version 3"), result.diskRevision().orElseThrow());
        assertThat(text(file)).isEqualTo("version 3");
    }

    @Test
    void aStaleRevisionIsAConflictAndTheFileIsUntouched() {
        Path file = root.resolve("src/app.txt");
        FileSnapshot snapshot = files.read(p("src/app.txt"));
        write(root, "src/app.txt", "edited elsewhere");
        long inodeBefore = inode(file);

        assertThat(code(() -> files.replace(p("src/app.txt"), utf8("mine"), snapshot.diskRevision())))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(text(file)).isEqualTo("edited elsewhere");
        assertThat(inode(file)).isEqualTo(inodeBefore);
        assertThat(temporaries(root.resolve("src"))).isEmpty();
    }

    @Test
    void aModificationWhileTheReplacementIsStagedIsAConflictAndTheFileIsUntouched() throws IOException {
        Path file = root.resolve("src/app.txt");
        FileSnapshot snapshot = files.read(p("src/app.txt"));
        long inodeBefore = inode(file);
        ProjectFiles racing = racing(root, Checkpoints.REPLACE_STAGED, () -> {
            assertThat(temporaries(root.resolve("src"))).hasSize(1);
            write(root, "src/app.txt", "edited during staging");
        });

        assertThat(code(() -> racing.replace(p("src/app.txt"), utf8("mine"), snapshot.diskRevision())))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(text(file)).isEqualTo("edited during staging");
        assertThat(inode(file)).isEqualTo(inodeBefore);
        assertThat(temporaries(root.resolve("src"))).isEmpty();
    }

    @Test
    void aParentMovedAwayWhileStagingIsAConflict() throws IOException {
        FileSnapshot snapshot = files.read(p("src/app.txt"));
        ProjectFiles racing = racing(root, Checkpoints.REPLACE_STAGED, () -> {
            Files.move(root.resolve("src"), root.resolve("src-moved"));
            Files.createDirectory(root.resolve("src"));
        });
        assertThat(code(() -> racing.replace(p("src/app.txt"), utf8("mine"), snapshot.diskRevision())))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(text(root.resolve("src-moved/app.txt"))).isEqualTo("version 1\r\n");
        assertThat(temporaries(root.resolve("src-moved"))).isEmpty();
    }

    @Test
    void specialModeBitsReadOnlyFilesAndOversizedContentAreRefused() {
        for (int refused : new int[] {04644, 02644, 01644, 0444}) {
            Path file = write(root, "src/mode.txt", "x");
            Fixture.chmod(file, refused);
            String revision = files.read(p("src/mode.txt")).diskRevision();
            assertThat(code(() -> files.replace(p("src/mode.txt"), utf8("y"), revision)))
                    .as(Integer.toOctalString(refused))
                    .isEqualTo(ErrorCode.SCOPE_DENIED);
            assertThat(text(file)).isEqualTo("x");
            assertThat(mode(file)).isEqualTo(refused);
            Fixture.chmod(file, 0644);
        }
        String revision = files.read(p("src/app.txt")).diskRevision();
        assertThat(code(() -> files.replace(p("src/app.txt"), new byte[ProjectFiles.MAX_WRITE_BYTES + 1], revision)))
                .isEqualTo(ErrorCode.PAYLOAD_TOO_LARGE);
        assertThat(temporaries(root.resolve("src"))).isEmpty();
    }

    @Test
    void anExecutableKeepsItsModeAcrossAReplace() {
        Path script = write(root, "run.sh", "#!/bin/sh\n");
        Fixture.chmod(script, 0755);
        files.replace(p("run.sh"), utf8("#!/bin/sh\necho hi\n"), Files2.sha256(script));
        assertThat(mode(script)).isEqualTo(0755);
    }

    @Test
    void createMakesPrivateFilesAndDirectoriesAndNeverOverwrites() {
        String parent = files.directoryRevision(p("src"));
        Mutation created = files.create(p("src/new.txt"), EntryKind.FILE, parent, utf8("fresh"));
        Path file = root.resolve("src/new.txt");
        assertThat(text(file)).isEqualTo("fresh");
        assertThat(mode(file)).isEqualTo(0600);
        assertThat(created.diskRevision()).contains(Files2.sha256(file));
        assertThat(created.parentRevision()).isEqualTo(files.directoryRevision(p("src")));
        assertThat(temporaries(root.resolve("src"))).isEmpty();

        Mutation dir = files.create(p("src/lib"), EntryKind.DIRECTORY, created.parentRevision(), null);
        assertThat(Files.isDirectory(root.resolve("src/lib"))).isTrue();
        assertThat(mode(root.resolve("src/lib"))).isEqualTo(0700);
        assertThat(dir.directoryRevision()).contains(files.directoryRevision(p("src/lib")));
        assertThat(dir.diskRevision()).isEmpty();

        String now = dir.parentRevision();
        assertThat(code(() -> files.create(p("src/new.txt"), EntryKind.FILE, now, utf8("other"))))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(code(() -> files.create(p("src/lib"), EntryKind.DIRECTORY, now, null)))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(text(file)).isEqualTo("fresh");
        assertThat(code(() -> files.create(p("src/other.txt"), EntryKind.FILE, parent, utf8("stale"))))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(root.resolve("src/other.txt")).doesNotExist();
        assertThat(code(() -> files.create(p("src/.env"), EntryKind.FILE, now, utf8("S=1"))))
                .isEqualTo(ErrorCode.SCOPE_DENIED);
        assertThat(code(() -> files.create(p("src/d"), EntryKind.DIRECTORY, now, utf8("x"))))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(code(() -> files.create(p("missing/x"), EntryKind.FILE, now, null)))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
    }

    @Test
    void createDoesNotReplaceAHiddenLinkWithTheSameName() throws IOException {
        Path target = write(temp.toRealPath(), "outside.txt", "outside");
        Files.createSymbolicLink(root.resolve("src/link.txt"), target);
        String parent = files.directoryRevision(p("src"));
        assertThat(code(() -> files.create(p("src/link.txt"), EntryKind.FILE, parent, utf8("x"))))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(Files.isSymbolicLink(root.resolve("src/link.txt"))).isTrue();
        assertThat(text(target)).isEqualTo("outside");
    }

    @Test
    void aFileAppearingWhileCreateIsStagedIsNotOverwritten() {
        String parent = files.directoryRevision(p("src"));
        ProjectFiles racing = racing(root, Checkpoints.CREATE_STAGED, () -> {
            write(root, "src/new.txt", "theirs");
        });
        assertThat(code(() -> racing.create(p("src/new.txt"), EntryKind.FILE, parent, utf8("mine"))))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(text(root.resolve("src/new.txt"))).isEqualTo("theirs");
        assertThat(temporaries(root.resolve("src"))).isEmpty();
    }

    @Test
    void renameKeepsTheInodeChecksRevisionsAndNeverOverwrites() {
        Path file = root.resolve("src/app.txt");
        long inodeBefore = inode(file);
        write(root, "src/taken.txt", "taken");
        String parent = files.directoryRevision(p("src"));
        String entry = files.entryRevision(p("src/app.txt"));

        assertThat(code(() -> files.rename(p("src/app.txt"), "taken.txt", EntryKind.FILE, entry, parent)))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(text(root.resolve("src/taken.txt"))).isEqualTo("taken");
        assertThat(text(file)).isEqualTo("version 1\r\n");
        assertThat(code(() -> files.rename(p("src/app.txt"), "b.txt", EntryKind.FILE, "0".repeat(64), parent)))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(code(() -> files.rename(p("src/app.txt"), "b.txt", EntryKind.FILE, entry, "0".repeat(64))))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(code(() -> files.rename(p("src/app.txt"), "b.txt", EntryKind.DIRECTORY, entry, parent)))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(code(() -> files.rename(p("src/app.txt"), "id_rsa", EntryKind.FILE, entry, parent)))
                .isEqualTo(ErrorCode.SCOPE_DENIED);
        assertThat(code(() -> files.rename(p("src/app.txt"), "../up.txt", EntryKind.FILE, entry, parent)))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);

        Mutation renamed = files.rename(p("src/app.txt"), "main.txt", EntryKind.FILE, entry, parent);
        assertThat(file).doesNotExist();
        assertThat(inode(root.resolve("src/main.txt"))).isEqualTo(inodeBefore);
        assertThat(renamed.relativePath()).isEqualTo("src/main.txt");
        assertThat(renamed.diskRevision()).contains(entry);
        assertThat(renamed.parentRevision()).isEqualTo(files.directoryRevision(p("src")));
    }

    @Test
    void renameADirectory() {
        write(root, "src/pkg/a.txt", "a");
        String parent = files.directoryRevision(p("src"));
        String entry = files.entryRevision(p("src/pkg"));
        Mutation renamed = files.rename(p("src/pkg"), "pkg2", EntryKind.DIRECTORY, entry, parent);
        assertThat(text(root.resolve("src/pkg2/a.txt"))).isEqualTo("a");
        assertThat(renamed.directoryRevision()).contains(files.directoryRevision(p("src/pkg2")));
        assertThat(renamed.diskRevision()).isEqualTo(Optional.empty());
    }

    @Test
    void moveKeepsTheInodeAndNeverOverwrites() throws IOException {
        Files.createDirectories(root.resolve("dest"));
        write(root, "dest/app.txt", "already here");
        Path file = root.resolve("src/app.txt");
        long inodeBefore = inode(file);
        String entry = files.entryRevision(p("src/app.txt"));
        String target = files.directoryRevision(p("dest"));

        assertThat(code(() -> files.move(p("src/app.txt"), p("dest/app.txt"), EntryKind.FILE, entry, target)))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(text(root.resolve("dest/app.txt"))).isEqualTo("already here");
        assertThat(text(file)).isEqualTo("version 1\r\n");

        Files.delete(root.resolve("dest/app.txt"));
        assertThat(code(() -> files.move(p("src/app.txt"), p("dest/app.txt"), EntryKind.FILE, entry, target)))
                .as("the destination's parent changed since its revision")
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(code(() -> files.move(
                        p("src/app.txt"), p("src/app.txt"), EntryKind.FILE, entry, files.directoryRevision(p("src")))))
                .as("onto itself")
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        Mutation moved = files.move(
                p("src/app.txt"), p("dest/renamed.txt"), EntryKind.FILE, entry, files.directoryRevision(p("dest")));
        assertThat(file).doesNotExist();
        assertThat(inode(root.resolve("dest/renamed.txt"))).isEqualTo(inodeBefore);
        assertThat(moved.relativePath()).isEqualTo("dest/renamed.txt");
        assertThat(moved.parentRevision()).isEqualTo(files.directoryRevision(p("dest")));
        assertThat(moved.diskRevision()).contains(entry);
    }

    @Test
    void aDirectoryCannotMoveOntoOrIntoItself() throws IOException {
        Files.createDirectories(root.resolve("src/inner/deeper"));
        String entry = files.entryRevision(p("src"));
        for (String target : new String[] {"src", "src/x", "src/inner/x", "src/inner/deeper/x"}) {
            String parentRevision = files.directoryRevision(p(target).parent());
            assertThat(code(() -> files.move(p("src"), p(target), EntryKind.DIRECTORY, entry, parentRevision)))
                    .as(target)
                    .isEqualTo(ErrorCode.SCOPE_DENIED);
        }
        assertThat(root.resolve("src/inner/deeper")).isDirectory();
        Files.createDirectories(root.resolve("other"));
        Mutation moved =
                files.move(p("src"), p("other/src"), EntryKind.DIRECTORY, entry, files.directoryRevision(p("other")));
        assertThat(root.resolve("other/src/inner/deeper")).isDirectory();
        assertThat(moved.directoryRevision()).contains(files.directoryRevision(p("other/src")));
    }

    @Test
    void mutationsRefuseSecretsAndLinks() throws IOException {
        write(root, "src/.env", "S=1");
        Files.createSymbolicLink(root.resolve("src/link"), root.resolve("src/app.txt"));
        String parent = files.directoryRevision(p("src"));
        String any = "0".repeat(64);
        assertThat(code(() -> files.replace(p("src/.env"), utf8("x"), any))).isEqualTo(ErrorCode.SCOPE_DENIED);
        assertThat(code(() -> files.replace(p("src/link"), utf8("x"), any))).isEqualTo(ErrorCode.SCOPE_DENIED);
        assertThat(code(() -> files.rename(p("src/link"), "l2", EntryKind.FILE, any, parent)))
                .isEqualTo(ErrorCode.SCOPE_DENIED);
        assertThat(code(() -> files.move(p("src/.env"), p("moved.env"), EntryKind.FILE, any, parent)))
                .isEqualTo(ErrorCode.SCOPE_DENIED);
        assertThat(text(root.resolve("src/.env"))).isEqualTo("S=1");
        assertThat(text(root.resolve("src/app.txt"))).isEqualTo("version 1\r\n");
    }
}
