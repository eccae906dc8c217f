package dev.lomicontrol.files;

import static dev.lomicontrol.files.Fixture.code;
import static dev.lomicontrol.files.Fixture.p;
import static dev.lomicontrol.files.Fixture.racing;
import static dev.lomicontrol.files.Fixture.racingOnce;
import static dev.lomicontrol.files.Fixture.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.testing.Files2;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Reading and listing never leave the pinned tree and never show what agents must not see. */
class ProjectFilesAccessTests extends ProjectFilesTest {

    Path outside;

    @BeforeEach
    void setUp() throws IOException {
        outside = Files.createDirectory(temp.toRealPath().resolve("outside"));
        write(outside, "secret.txt", "OUTSIDE");
        write(root, "a.txt", "hello");
        Files.createDirectory(root.resolve("b"));
        files = new ProjectFiles(root);
    }

    @Test
    void listingIsSortedAndShowsFilesAndDirectories() {
        write(root, "C.md", "xyz");
        Listing listing = files.list(RelativePath.root());
        assertThat(listing.entries()).extracting(Entry::name).containsExactly("C.md", "a.txt", "b");
        assertThat(listing.entries().get(1)).isEqualTo(new Entry("a.txt", "a.txt", EntryKind.FILE, 5));
        assertThat(listing.entries().get(2)).isEqualTo(new Entry("b", "b", EntryKind.DIRECTORY, 0));
        assertThat(listing.filtered()).isFalse();
        assertThat(listing.total()).isEqualTo(3);
        assertThat(listing.directoryRevision()).isEqualTo(files.directoryRevision(RelativePath.root()));
        write(root, "b/inner.txt", "1");
        assertThat(files.list(p("b")).entries())
                .containsExactly(new Entry("inner.txt", "b/inner.txt", EntryKind.FILE, 1));
    }

    @Test
    @Timeout(20)
    void linksHardLinksSpecialFilesAndProcEntriesAreInvisibleAndDenied() throws IOException {
        Files.createSymbolicLink(root.resolve("file-link"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(root.resolve("dir-link"), outside);
        Files.createSymbolicLink(root.resolve("environ"), Path.of("/proc/self/environ"));
        Files.createSymbolicLink(root.resolve("null"), Path.of("/dev/null"));
        Files.createSymbolicLink(root.resolve("inner-link"), root.resolve("a.txt"));
        write(root, "h1", "linked");
        Files.createLink(root.resolve("h2"), root.resolve("h1"));
        Fixture.mkfifo(root.resolve("fifo"));

        Listing listing = files.list(RelativePath.root());
        assertThat(listing.entries()).extracting(Entry::name).containsExactly("a.txt", "b");
        assertThat(listing.filtered()).isTrue();

        for (String hidden : List.of("file-link", "dir-link", "environ", "null", "inner-link", "h1", "h2", "fifo")) {
            assertThat(code(() -> files.read(p(hidden)))).as(hidden).isEqualTo(ErrorCode.SCOPE_DENIED);
            assertThat(code(() -> files.entryRevision(p(hidden)))).as(hidden).isEqualTo(ErrorCode.SCOPE_DENIED);
        }
        assertThat(code(() -> files.read(p("dir-link/secret.txt")))).isEqualTo(ErrorCode.SCOPE_DENIED);
        assertThat(code(() -> files.list(p("dir-link")))).isEqualTo(ErrorCode.SCOPE_DENIED);
    }

    @Test
    void everySecretPatternIsOmittedFromListingsAndDeniedOnDirectAccess() throws IOException {
        Path sub = Files.createDirectory(root.resolve("sub"));
        for (String name : SecretPathsTests.SECRET_NAMES) {
            if (Files.exists(sub.resolve(name))) {
                continue; // case-insensitive duplicates on this case-sensitive file system are separate files anyway
            }
            write(sub, name, "TOKEN=1");
        }
        write(root, "sub/visible.txt", "ok");
        Files.createDirectories(root.resolve("repo/.git"));
        write(root, "repo/.git/config", "[core]");

        Listing listing = files.list(p("sub"));
        assertThat(listing.entries()).extracting(Entry::name).containsExactly("visible.txt");
        assertThat(listing.filtered()).isTrue();
        for (String name : SecretPathsTests.SECRET_NAMES) {
            assertThat(code(() -> files.read(p("sub/" + name)))).as(name).isEqualTo(ErrorCode.SCOPE_DENIED);
        }
        assertThat(files.list(p("repo")).entries()).isEmpty();
        assertThat(files.list(p("repo")).filtered()).isTrue();
        assertThat(code(() -> files.list(p("repo/.git")))).isEqualTo(ErrorCode.SCOPE_DENIED);
        assertThat(code(() -> files.read(p("repo/.git/config")))).isEqualTo(ErrorCode.SCOPE_DENIED);
        // a secret name is refused before any lookup, whether or not it exists
        assertThat(code(() -> files.read(p("nothing/.env")))).isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        assertThat(code(() -> files.read(p(".env.missing")))).isEqualTo(ErrorCode.SCOPE_DENIED);
    }

    @Test
    void theBrokersOwnDataDirectoryIsNeverReadableThroughAProjectWhateverItIsCalled() throws IOException {
        Path data = Files.createDirectories(root.resolve("home/.local/share/state"));
        write(root, "home/.local/share/state/notes.txt", "ledger bytes");
        write(root, "home/.local/share/other.txt", "fine");
        BrokerDirectories.protect(data);

        Listing listing = files.list(p("home/.local/share"));
        assertThat(listing.entries()).extracting(Entry::name).containsExactly("other.txt");
        assertThat(listing.filtered()).isTrue();
        assertThat(code(() -> files.list(p("home/.local/share/state")))).isEqualTo(ErrorCode.SCOPE_DENIED);
        assertThat(code(() -> files.read(p("home/.local/share/state/notes.txt"))))
                .isEqualTo(ErrorCode.SCOPE_DENIED);
        // once it is gone, its inode number hides nothing that may reuse it
        Files.delete(data.resolve("notes.txt"));
        Files.delete(data);
        Files.createDirectories(root.resolve("fresh"));
        assertThat(files.list(RelativePath.root()).entries())
                .extracting(Entry::name)
                .contains("fresh");
    }

    @Test
    void namesThatAreNotValidUtf8PathsAreFiltered() {
        Fixture.run("bash", "-c", "touch \"$1\"/$'bad\\xffname' \"$1\"/'back\\slash'", "bash", root.toString());
        Listing listing = files.list(RelativePath.root());
        assertThat(listing.entries()).extracting(Entry::name).containsExactly("a.txt", "b");
        assertThat(listing.filtered()).isTrue();
    }

    @Test
    void readReturnsExactBytesRevisionAndMode() {
        byte[] bytes = "line 1\r\nline 2 😀\n".getBytes(StandardCharsets.UTF_8);
        Path file = write(root, "b/data.txt", bytes);
        Fixture.chmod(file, 0640);
        FileSnapshot snapshot = files.read(p("b/data.txt"));
        assertThat(snapshot.bytes()).isEqualTo(bytes);
        assertThat(snapshot.diskRevision()).isEqualTo(Files2.sha256(file));
        assertThat(snapshot.mode()).isEqualTo(0640);
        assertThat(files.entryRevision(p("b/data.txt"))).isEqualTo(Files2.sha256(file));
        assertThat(files.entryRevision(p("b"))).isEqualTo(files.directoryRevision(p("b")));
        assertThat(files.entryRevision(RelativePath.root())).isEqualTo(files.directoryRevision(RelativePath.root()));
    }

    @Test
    void missingWrongKindAndOversizedTargetsAreRefused() {
        assertThat(code(() -> files.read(p("missing.txt")))).isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        assertThat(code(() -> files.list(p("missing")))).isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        assertThat(code(() -> files.read(p("missing/x.txt")))).isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        assertThat(code(() -> files.read(p("b")))).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(code(() -> files.list(p("a.txt")))).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(code(() -> files.read(p("a.txt/x")))).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(code(() -> files.read(RelativePath.root()))).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        write(root, "big.bin", new byte[FileContent.MAX_BYTES + 1]);
        assertThat(code(() -> files.read(p("big.bin")))).isEqualTo(ErrorCode.RESOURCE_EXHAUSTED);
        write(root, "limit.bin", new byte[FileContent.MAX_BYTES]);
        assertThat(files.read(p("limit.bin")).bytes()).hasSize(FileContent.MAX_BYTES);
    }

    @Test
    void directoryRevisionChangesWithNamesButNotWithContent() throws IOException {
        String before = files.directoryRevision(RelativePath.root());
        assertThat(files.directoryRevision(RelativePath.root())).isEqualTo(before);
        write(root, "a.txt", "a much longer content than before");
        assertThat(files.directoryRevision(RelativePath.root())).isEqualTo(before);
        write(root, "new.txt", "");
        String withNew = files.directoryRevision(RelativePath.root());
        assertThat(withNew).isNotEqualTo(before);
        Files.move(root.resolve("new.txt"), root.resolve("renamed.txt"));
        assertThat(files.directoryRevision(RelativePath.root())).isNotEqualTo(withNew);
        Files.delete(root.resolve("renamed.txt"));
        assertThat(files.directoryRevision(RelativePath.root()))
                .isNotEqualTo(before)
                .isNotEqualTo(withNew);
    }

    @Test
    void aReplacedRootIsARevisionConflictOnEveryCall() throws IOException {
        Path moved = root.resolveSibling("project-moved");
        Files.move(root, moved);
        assertThat(code(() -> files.list(RelativePath.root()))).isEqualTo(ErrorCode.REVISION_CONFLICT);

        Files.createSymbolicLink(root, moved);
        assertThat(code(() -> files.list(RelativePath.root()))).isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(code(() -> files.read(p("a.txt")))).isEqualTo(ErrorCode.REVISION_CONFLICT);

        Files.delete(root);
        Files.createDirectory(root);
        write(root, "a.txt", "impostor");
        assertThat(code(() -> files.read(p("a.txt")))).isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(code(() -> files.directoryRevision(RelativePath.root()))).isEqualTo(ErrorCode.REVISION_CONFLICT);
    }

    @Test
    void theRootMustBeAnAbsoluteCanonicalDirectory() throws IOException {
        Path link = Files.createSymbolicLink(temp.toRealPath().resolve("root-link"), root);
        assertThat(code(() -> new ProjectFiles(link))).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(code(() -> new ProjectFiles(Path.of("relative")))).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(code(() -> new ProjectFiles(root.resolve("a.txt")))).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(code(() -> new ProjectFiles(root.resolve("b/../b")))).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void aDirectorySwappedForALinkBeforeTheCallIsNotFollowed() throws IOException {
        write(root, "b/notes.txt", "inside");
        Files.move(root.resolve("b"), root.resolve("b-real"));
        Files.createSymbolicLink(root.resolve("b"), outside);
        Files.move(outside.resolve("secret.txt"), outside.resolve("notes.txt"));
        assertThat(code(() -> files.read(p("b/notes.txt")))).isEqualTo(ErrorCode.SCOPE_DENIED);
        assertThat(code(() -> files.list(p("b")))).isEqualTo(ErrorCode.SCOPE_DENIED);
    }

    @Test
    void aDirectorySwappedForALinkBetweenCheckAndOpenIsNotFollowed() throws IOException {
        write(root, "b/notes.txt", "inside");
        write(outside, "notes.txt", "OUTSIDE");
        AtomicBoolean swapped = new AtomicBoolean();
        ProjectFiles racing = racingOnce(root, Checkpoints.WALK_CHECKED, swapped, () -> {
            Files.move(root.resolve("b"), root.resolve("b-real"));
            Files.createSymbolicLink(root.resolve("b"), outside);
        });
        assertThat(code(() -> racing.read(p("b/notes.txt")))).isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(swapped).isTrue();
        // and the same race with a different real directory put in its place
        Files.delete(root.resolve("b"));
        Files.createDirectory(root.resolve("b"));
        write(root, "b/notes.txt", "impostor");
        swapped.set(false);
        ProjectFiles racingDir = racingOnce(root, Checkpoints.WALK_CHECKED, swapped, () -> {
            Files.move(root.resolve("b"), root.resolve("b-other"));
            Files.move(root.resolve("b-real"), root.resolve("b"));
        });
        assertThat(code(() -> racingDir.list(p("b")))).isEqualTo(ErrorCode.REVISION_CONFLICT);
    }

    @Test
    void aFileChangedDuringTheReadIsARevisionConflict() throws IOException {
        Path file = write(root, "b/data.txt", "original");
        Files.setLastModifiedTime(
                file,
                java.nio.file.attribute.FileTime.from(java.time.Instant.now().minusSeconds(3600)));
        ProjectFiles racing = racing(root, Checkpoints.READ_STARTED, () -> {
            write(root, "b/data.txt", "CHANGED!");
        });
        assertThat(code(() -> racing.read(p("b/data.txt")))).isEqualTo(ErrorCode.REVISION_CONFLICT);
    }

    @Test
    void aReadRacingAnInPlaceWriterNoticesIt() throws Exception {
        int size = 1 << 20;
        Path file = write(root, "busy.bin", new byte[size]);
        AtomicBoolean stop = new AtomicBoolean();
        java.util.concurrent.CountDownLatch writing = new java.util.concurrent.CountDownLatch(1);
        Thread writer = new Thread(() -> {
            byte value = 1;
            try (var channel = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
                byte[] chunk = new byte[4096];
                while (!stop.get()) {
                    java.util.Arrays.fill(chunk, value++);
                    for (int off = 0; off < size && !stop.get(); off += chunk.length) {
                        channel.write(java.nio.ByteBuffer.wrap(chunk), off);
                        writing.countDown();
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        writer.start();
        java.util.concurrent.atomic.AtomicInteger conflicts = new java.util.concurrent.atomic.AtomicInteger();
        try {
            assertThat(writing.await(10, java.util.concurrent.TimeUnit.SECONDS))
                    .as("the writer started")
                    .isTrue();
            // read until a read overlaps a write (how many it takes depends on scheduling, not on the code):
            // every read is either whole and true to its revision, or refused REVISION_CONFLICT
            org.awaitility.Awaitility.await()
                    .atMost(java.time.Duration.ofSeconds(20))
                    .pollInterval(java.time.Duration.ofMillis(1))
                    .until(() -> {
                        try {
                            FileSnapshot snapshot = files.read(p("busy.bin"));
                            assertThat(snapshot.diskRevision()).isEqualTo(Revisions.disk(snapshot.bytes()));
                        } catch (dev.lomicontrol.core.LomiException e) {
                            assertThat(e.code()).isEqualTo(ErrorCode.REVISION_CONFLICT);
                            conflicts.incrementAndGet();
                        }
                        return conflicts.get() > 0;
                    });
        } finally {
            stop.set(true);
            writer.join();
        }
        assertThat(conflicts.get()).as("a concurrent writer must be noticed").isPositive();
    }
}
