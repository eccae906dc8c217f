package dev.lomicontrol.artifacts;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.files.Mutation;
import dev.lomicontrol.files.ProjectFiles;
import dev.lomicontrol.files.RelativePath;
import dev.lomicontrol.testing.Files2;
import dev.lomicontrol.testing.MutableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Artifacts on real files: a real project folder read through ProjectFiles and a real private store directory. */
class ArtifactStoreTests {

    static final String ALICE = "session-alice";
    static final String BOB = "session-bob";
    static final byte[] REPORT = "line one\nline two\n".getBytes(UTF_8);

    @TempDir
    Path temp;

    final MutableClock clock = MutableClock.startingAt("2026-11-30T10:00:00Z");
    Path project;
    Path storeDir;
    ProjectFiles files;
    ArtifactStore store;

    @BeforeEach
    void setUp() throws IOException {
        project = Files.createDirectory(temp.toRealPath().resolve("project"));
        storeDir = temp.toRealPath().resolve("control/artifacts");
        Files.write(project.resolve("report.txt"), REPORT);
        files = new ProjectFiles(project);
        store = open(4 * 1024 * 1024, 1L << 30, 64);
    }

    ArtifactStore open(long maxBytesPerFile, long quotaBytes, int maxArtifacts) {
        return new ArtifactStore(storeDir, clock, new Random(7), maxBytesPerFile, quotaBytes, maxArtifacts);
    }

    Artifact importReport(String owner) {
        return store.importFile(
                owner, "prj-1", files, RelativePath.parse("report.txt"), REPORT.length, ArtifactStore.sha256(REPORT));
    }

    static ErrorCode codeOf(ThrowingCallable call) {
        LomiException e = catchThrowableOfType(LomiException.class, call);
        assertThat(e).as("expected a LomiException").isNotNull();
        return e.code();
    }

    List<String> stored() throws IOException {
        try (Stream<Path> entries = Files.list(storeDir)) {
            return entries.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void anImportIsAPrivateDurableCopyWithItsMetadata() throws IOException {
        Artifact artifact = importReport(ALICE);

        assertThat(artifact.id()).matches("art-[0-9a-f]{16}");
        assertThat(artifact.owner()).isEqualTo(ALICE);
        assertThat(artifact.projectKey()).isEqualTo("prj-1");
        assertThat(artifact.relativePath()).isEqualTo("report.txt");
        assertThat(artifact.sha256()).isEqualTo(Files2.sha256(project.resolve("report.txt")));
        assertThat(artifact.sourceDiskRevision())
                .isEqualTo(files.read(RelativePath.parse("report.txt")).diskRevision());
        assertThat(artifact.byteLength()).isEqualTo(REPORT.length);
        assertThat(artifact.createdAt()).isEqualTo(clock.instant());
        assertThat(artifact.expiresAt()).isEqualTo(clock.instant().plus(Duration.ofHours(24)));
        assertThat(stored()).containsExactly(artifact.id() + ".bin", artifact.id() + ".json");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(storeDir)))
                .isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(
                        Files.getPosixFilePermissions(storeDir.resolve(artifact.id() + ".bin"))))
                .isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(
                        Files.getPosixFilePermissions(storeDir.resolve(artifact.id() + ".json"))))
                .isEqualTo("rw-------");

        ArtifactRead read = store.read(ALICE, artifact.id(), files);
        assertThat(read.artifact()).isEqualTo(artifact);
        assertThat(read.bytes()).isEqualTo(REPORT);
        assertThat(read.sourceChanged()).isFalse();
    }

    @Test
    void aWrongShaOrLengthIsInvalidAndStoresNothing() throws IOException {
        RelativePath report = RelativePath.parse("report.txt");
        String otherSha = ArtifactStore.sha256("something else".getBytes(UTF_8));

        assertThat(codeOf(() -> store.importFile(ALICE, "prj-1", files, report, REPORT.length, otherSha)))
                .isEqualTo(ErrorCode.ARTIFACT_INVALID);
        assertThat(codeOf(() -> store.importFile(
                        ALICE, "prj-1", files, report, REPORT.length - 1, ArtifactStore.sha256(REPORT))))
                .isEqualTo(ErrorCode.ARTIFACT_INVALID);
        assertThat(codeOf(() -> store.importFile(ALICE, "prj-1", files, report, REPORT.length, "ABC")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(stored()).isEmpty();
        assertThat(store.list(ALICE)).isEmpty();
    }

    @Test
    void aFileOverThePerFileLimitIsTooLargeWhetherDeclaredOrDiscovered() throws IOException {
        store = open(8, 1L << 30, 64);
        RelativePath report = RelativePath.parse("report.txt");

        assertThat(codeOf(() ->
                        store.importFile(ALICE, "prj-1", files, report, REPORT.length, ArtifactStore.sha256(REPORT))))
                .isEqualTo(ErrorCode.ARTIFACT_TOO_LARGE);
        assertThat(codeOf(() -> store.importFile(ALICE, "prj-1", files, report, 4, ArtifactStore.sha256(REPORT))))
                .isEqualTo(ErrorCode.ARTIFACT_TOO_LARGE);
        assertThat(stored()).isEmpty();
    }

    @Test
    void onlyTheOwnerSeesAnArtifact() {
        Artifact artifact = importReport(ALICE);

        LomiException foreign = catchThrowableOfType(LomiException.class, () -> store.read(BOB, artifact.id(), files));
        LomiException unknown =
                catchThrowableOfType(LomiException.class, () -> store.read(BOB, "art-0000000000000000", files));
        assertThat(foreign.code()).isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        assertThat(foreign.getMessage())
                .as("no existence oracle")
                .isEqualTo(unknown.getMessage().replace("art-0000000000000000", artifact.id()));
        assertThat(codeOf(() -> store.export(
                        BOB,
                        artifact.id(),
                        artifact.sha256(),
                        files,
                        RelativePath.parse("copy.txt"),
                        files.directoryRevision(RelativePath.root()))))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        assertThat(project.resolve("copy.txt")).doesNotExist();
        assertThat(store.list(BOB)).isEmpty();
        assertThat(store.list(ALICE)).containsExactly(artifact);
    }

    @Test
    void anArtifactExpiresTwentyFourHoursAfterItsImport() throws IOException {
        Artifact artifact = importReport(ALICE);

        clock.advance(Duration.ofHours(24).minusMillis(1));
        assertThat(store.read(ALICE, artifact.id(), files).bytes()).isEqualTo(REPORT);
        assertThat(store.purgeExpired()).isZero();

        clock.advance(Duration.ofMillis(1));
        LomiException expired =
                catchThrowableOfType(LomiException.class, () -> store.read(ALICE, artifact.id(), files));
        assertThat(expired.code()).isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        assertThat(expired.getMessage()).contains("expired");
        assertThat(store.purgeExpired()).isEqualTo(1);
        assertThat(stored()).isEmpty();
    }

    @Test
    void aReadReportsWhenTheSourceChangedOrDisappeared() throws IOException {
        Artifact artifact = importReport(ALICE);

        Files.write(project.resolve("report.txt"), "line one\nline 2\n".getBytes(UTF_8));
        ArtifactRead changed = store.read(ALICE, artifact.id(), files);
        assertThat(changed.sourceChanged()).isTrue();
        assertThat(changed.bytes()).as("the artifact itself is immutable").isEqualTo(REPORT);

        Files.write(project.resolve("report.txt"), REPORT);
        assertThat(store.read(ALICE, artifact.id(), files).sourceChanged()).isFalse();

        Files.delete(project.resolve("report.txt"));
        assertThat(store.read(ALICE, artifact.id(), files).sourceChanged()).isTrue();
    }

    @Test
    void exportCreatesANewFileAndNeverOverwrites() throws IOException {
        Artifact artifact = importReport(ALICE);
        Files.createDirectory(project.resolve("out"));
        RelativePath out = RelativePath.parse("out");

        Mutation created = store.export(
                ALICE,
                artifact.id(),
                artifact.sha256(),
                files,
                RelativePath.parse("out/copy.txt"),
                files.directoryRevision(out));

        assertThat(Files.readAllBytes(project.resolve("out/copy.txt"))).isEqualTo(REPORT);
        assertThat(created.diskRevision()).contains(artifact.sha256());

        Files.write(project.resolve("out/keep.txt"), "mine".getBytes(UTF_8));
        assertThat(codeOf(() -> store.export(
                        ALICE,
                        artifact.id(),
                        artifact.sha256(),
                        files,
                        RelativePath.parse("out/keep.txt"),
                        files.directoryRevision(out))))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(Files.readString(project.resolve("out/keep.txt"))).isEqualTo("mine");
        assertThat(codeOf(() -> store.export(
                        ALICE,
                        artifact.id(),
                        artifact.sha256(),
                        files,
                        RelativePath.parse("report.txt"),
                        files.directoryRevision(RelativePath.root()))))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(Files.readAllBytes(project.resolve("report.txt"))).isEqualTo(REPORT);
        String staleParent = ArtifactStore.sha256(new byte[0]);
        assertThat(codeOf(() -> store.export(
                        ALICE,
                        artifact.id(),
                        artifact.sha256(),
                        files,
                        RelativePath.parse("out/new.txt"),
                        staleParent)))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(project.resolve("out/new.txt")).doesNotExist();
    }

    @Test
    void exportNamingAnotherShaIsInvalid() {
        Artifact artifact = importReport(ALICE);
        String otherSha = ArtifactStore.sha256("x".getBytes(UTF_8));

        assertThat(codeOf(() -> store.export(
                        ALICE,
                        artifact.id(),
                        otherSha,
                        files,
                        RelativePath.parse("copy.txt"),
                        files.directoryRevision(RelativePath.root()))))
                .isEqualTo(ErrorCode.ARTIFACT_INVALID);
        assertThat(project.resolve("copy.txt")).doesNotExist();
    }

    @Test
    void tamperedStoredBytesAreInvalidOnReadAndExport() throws IOException {
        Artifact artifact = importReport(ALICE);
        byte[] tampered = REPORT.clone();
        tampered[0] = 'L';
        Files.write(storeDir.resolve(artifact.id() + ".bin"), tampered);

        assertThat(codeOf(() -> store.read(ALICE, artifact.id(), files))).isEqualTo(ErrorCode.ARTIFACT_INVALID);
        assertThat(codeOf(() -> store.export(
                        ALICE,
                        artifact.id(),
                        artifact.sha256(),
                        files,
                        RelativePath.parse("copy.txt"),
                        files.directoryRevision(RelativePath.root()))))
                .isEqualTo(ErrorCode.ARTIFACT_INVALID);
        assertThat(project.resolve("copy.txt")).doesNotExist();

        Files.write(
                storeDir.resolve(artifact.id() + ".bin"),
                REPORT.length == 0 ? new byte[1] : java.util.Arrays.copyOf(REPORT, REPORT.length + 1));
        assertThat(codeOf(() -> store.read(ALICE, artifact.id(), files)))
                .as("an appended byte")
                .isEqualTo(ErrorCode.ARTIFACT_INVALID);
        Files.delete(storeDir.resolve(artifact.id() + ".bin"));
        assertThat(codeOf(() -> store.read(ALICE, artifact.id(), files))).isEqualTo(ErrorCode.ARTIFACT_INVALID);
    }

    @Test
    void artifactsSurviveARestartAndLeftoversOfInterruptedWritesAreCleared() throws IOException {
        Artifact artifact = importReport(ALICE);
        Files.write(storeDir.resolve("art-00000000000000aa.bin"), REPORT);
        Files.write(storeDir.resolve("art-00000000000000bb.bin.tmp"), REPORT);
        Files.write(storeDir.resolve("art-00000000000000cc.json"), "{\"version\":1,\"id\":".getBytes(UTF_8));

        ArtifactStore reopened = open(4 * 1024 * 1024, 1L << 30, 64);

        ArtifactRead read = reopened.read(ALICE, artifact.id(), files);
        assertThat(read.artifact()).isEqualTo(artifact);
        assertThat(read.bytes()).isEqualTo(REPORT);
        assertThat(stored()).containsExactly(artifact.id() + ".bin", artifact.id() + ".json");
        assertThat(reopened.usedBytes()).isEqualTo(REPORT.length);
    }

    @Test
    void theCountAndByteQuotasRefuseMoreUntilExpiredArtifactsArePurged() throws IOException {
        store = open(1024, 1024, 2);
        importReport(ALICE);
        clock.advance(Duration.ofHours(1));
        importReport(BOB);

        assertThat(codeOf(() -> importReport(ALICE))).isEqualTo(ErrorCode.RESOURCE_EXHAUSTED);

        clock.advance(Duration.ofHours(23));
        Artifact third = importReport(ALICE);
        assertThat(store.list(ALICE)).containsExactly(third);
        assertThat(stored()).hasSize(4);

        store = open(1024, REPORT.length * 3L - 1, 64);
        Map<String, String> before = Files2.hashes(storeDir, "art-");
        assertThat(codeOf(() -> importReport(ALICE))).as("bytes quota").isEqualTo(ErrorCode.RESOURCE_EXHAUSTED);
        assertThat(Files2.hashes(storeDir, "art-")).isEqualTo(before);
    }
}
