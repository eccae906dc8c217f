package dev.lomicontrol.files;

import static dev.lomicontrol.files.Fixture.code;
import static dev.lomicontrol.files.Fixture.inode;
import static dev.lomicontrol.files.Fixture.mode;
import static dev.lomicontrol.files.Fixture.p;
import static dev.lomicontrol.files.Fixture.racing;
import static dev.lomicontrol.files.Fixture.text;
import static dev.lomicontrol.files.Fixture.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.testing.ChildJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Trash records a durable plan before anything moves, moves exclusively, and never restores. */
class ProjectFilesTrashTests extends ProjectFilesTest {

    static final String OP = "0123456789abcdef0123456789abcdef01234567";

    Path recovery;

    @BeforeEach
    void setUp() throws IOException {
        recovery = temp.toRealPath().resolve("data/trash-recovery");
        write(root, "src/old.txt", "keep me safe");
        files = new ProjectFiles(root);
    }

    @Test
    void thePlanIsDurableBeforeTheEntryMovesAndCompletionIsRecordedAfter() {
        long inodeBefore = inode(root.resolve("src/old.txt"));
        AtomicBoolean checked = new AtomicBoolean();
        ProjectFiles observed = racing(root, Checkpoints.TRASH_PLANNED, () -> {
            Path plan = recovery.resolve(OP).resolve("plan.json");
            assertThat(plan).exists();
            assertThat(text(plan))
                    .contains("\"operationId\": \"" + OP + "\"")
                    .contains("\"relativePath\": \"src/old.txt\"")
                    .contains("\"kind\": \"file\"")
                    .contains("\"inode\": " + inodeBefore)
                    .contains("\"projectRoot\": \"" + root + "\"");
            assertThat(root.resolve("src/old.txt")).exists();
            assertThat(recovery.resolve(OP).resolve("entry")).doesNotExist();
            checked.set(true);
        });

        Mutation result = trashNow(observed, "src/old.txt", EntryKind.FILE);

        assertThat(checked).isTrue();
        assertThat(root.resolve("src/old.txt")).doesNotExist();
        Path moved = recovery.resolve(OP).resolve("entry");
        assertThat(text(moved)).isEqualTo("keep me safe");
        assertThat(inode(moved)).isEqualTo(inodeBefore);
        assertThat(recovery.resolve(OP).resolve("completed.json")).exists();
        assertThat(mode(recovery.resolve(OP))).isEqualTo(0700);
        assertThat(result.parentRevision()).isEqualTo(files.directoryRevision(p("src")));
        assertThat(result.relativePath()).isEqualTo("src/old.txt");
    }

    @Test
    void aDirectoryIsTrashedWithItsDescendants() {
        write(root, "src/pkg/a.txt", "a");
        write(root, "src/pkg/deep/b.txt", "b");
        trashNow(files, "src/pkg", EntryKind.DIRECTORY);
        assertThat(root.resolve("src/pkg")).doesNotExist();
        assertThat(text(recovery.resolve(OP).resolve("entry/deep/b.txt"))).isEqualTo("b");
        assertThat(text(recovery.resolve(OP).resolve("plan.json"))).contains("\"kind\": \"directory\"");
    }

    @Test
    void staleRevisionsRefuseBeforeAnythingIsWritten() {
        String entry = files.entryRevision(p("src/old.txt"));
        String parent = files.directoryRevision(p("src"));
        write(root, "src/old.txt", "changed");
        assertThat(code(() -> files.trash(p("src/old.txt"), EntryKind.FILE, entry, parent, recovery, OP)))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        write(root, "src/sibling.txt", "new");
        String fresh = files.entryRevision(p("src/old.txt"));
        assertThat(code(() -> files.trash(p("src/old.txt"), EntryKind.FILE, fresh, parent, recovery, OP)))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(recovery.resolve(OP)).doesNotExist();
        assertThat(text(root.resolve("src/old.txt"))).isEqualTo("changed");
    }

    @Test
    void aChangeAfterThePlanAbortsTheMoveAndKeepsThePlan() {
        String entry = files.entryRevision(p("src/old.txt"));
        String parent = files.directoryRevision(p("src"));
        ProjectFiles racing = racing(root, Checkpoints.TRASH_PLANNED, () -> {
            write(root, "src/old.txt", "edited after the plan");
        });
        assertThat(code(() -> racing.trash(p("src/old.txt"), EntryKind.FILE, entry, parent, recovery, OP)))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(text(root.resolve("src/old.txt"))).isEqualTo("edited after the plan");
        assertThat(recovery.resolve(OP).resolve("plan.json")).exists();
        assertThat(recovery.resolve(OP).resolve("aborted.json")).exists();
        assertThat(recovery.resolve(OP).resolve("entry")).doesNotExist();
    }

    @Test
    void anOperationIdIsUsedOnceAndMustBeAFolderName() {
        write(root, "src/second.txt", "2");
        trashNow(files, "src/old.txt", EntryKind.FILE);
        String entry = files.entryRevision(p("src/second.txt"));
        String parent = files.directoryRevision(p("src"));
        assertThat(code(() -> files.trash(p("src/second.txt"), EntryKind.FILE, entry, parent, recovery, OP)))
                .isEqualTo(ErrorCode.IDEMPOTENCY_CONFLICT);
        for (String bad : List.of("", "..", ".hidden", "a/b", "x".repeat(129))) {
            assertThat(code(() -> files.trash(p("src/second.txt"), EntryKind.FILE, entry, parent, recovery, bad)))
                    .as(bad)
                    .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        }
        assertThat(text(root.resolve("src/second.txt"))).isEqualTo("2");
    }

    @Test
    void aRecoveryFolderOnAnotherDeviceIsUnsupported() throws IOException {
        Path shm = Path.of("/dev/shm");
        assertThat(Files.isDirectory(shm) && !Files.getFileStore(shm).equals(Files.getFileStore(root)))
                .as(
                        "this test needs a second filesystem: /dev/shm (a tmpfs on every Linux) apart from the temp directory")
                .isTrue();
        Path other = Files.createTempDirectory(shm, "lomi-recovery");
        try {
            String entry = files.entryRevision(p("src/old.txt"));
            String parent = files.directoryRevision(p("src"));
            assertThat(code(() -> files.trash(p("src/old.txt"), EntryKind.FILE, entry, parent, other, OP)))
                    .isEqualTo(ErrorCode.UNSUPPORTED_CAPABILITY);
            assertThat(text(root.resolve("src/old.txt"))).isEqualTo("keep me safe");
            assertThat(other.resolve(OP)).doesNotExist();
        } finally {
            Fixture.run("rm", "-rf", other.toString());
        }
    }

    /**
     * A real child JVM is SIGKILLed at a checkpoint of the trash. Whatever the point, the plan is
     * intact, the entry is wholly in one place and never lost, and nothing restores it later.
     */
    @ParameterizedTest
    @ValueSource(strings = {Checkpoints.TRASH_PLANNED, Checkpoints.TRASH_MOVED})
    @Timeout(60)
    void aKilledTrashLeavesTheEntryWholeAndThePlanIntact(String stage) throws Exception {
        long inodeBefore = inode(root.resolve("src/old.txt"));
        Process child = ChildJvm.start(
                TrashCrashChild.class, List.of(root.toString(), recovery.toString(), "src/old.txt", OP, stage));
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            assertThat(out.readLine()).isEqualTo("REACHED " + stage);
            child.destroyForcibly(); // SIGKILL on Linux
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            child.destroyForcibly();
        }
        assertThat(child.exitValue()).isEqualTo(137);

        Path operation = recovery.resolve(OP);
        assertThat(text(operation.resolve("plan.json")))
                .contains("\"relativePath\": \"src/old.txt\"")
                .endsWith("}\n");
        assertThat(operation.resolve("completed.json")).doesNotExist();
        Path inProject = root.resolve("src/old.txt");
        Path inRecovery = operation.resolve("entry");
        assertThat(Files.exists(inProject) ^ Files.exists(inRecovery))
                .as("in exactly one place")
                .isTrue();
        Path where = stage.equals(Checkpoints.TRASH_PLANNED) ? inProject : inRecovery;
        assertThat(text(where)).isEqualTo("keep me safe");
        assertThat(inode(where)).isEqualTo(inodeBefore);

        // a fresh instance (a restarted broker) neither restores nor completes anything
        ProjectFiles restarted = new ProjectFiles(root);
        restarted.list(p("src"));
        restarted.directoryRevision(p("src"));
        assertThat(Files.exists(inProject)).isEqualTo(where.equals(inProject));
        assertThat(Files.exists(inRecovery)).isEqualTo(where.equals(inRecovery));
        assertThat(operation.resolve("completed.json")).doesNotExist();
        assertThat(Fixture.temporaries(operation)).isEmpty();
    }

    /** Trashes {@code path} (in {@code src}) with {@code through} at the revisions the project has now, into {@link #recovery} as {@link #OP}. */
    private Mutation trashNow(ProjectFiles through, String path, EntryKind kind) {
        return through.trash(
                p(path), kind, files.entryRevision(p(path)), files.directoryRevision(p("src")), recovery, OP);
    }
}
