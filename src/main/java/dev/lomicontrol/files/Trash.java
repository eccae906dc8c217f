package dev.lomicontrol.files;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Moving an entry out of the project into a durable recovery folder. The order is what makes a
 * crash safe: the plan is fsynced before anything moves, the move is one exclusive rename (the entry
 * is either still in place or wholly in {@code entry}), and {@code completed.json} is written last.
 * Nothing here or elsewhere restores an entry automatically; recovery is the admin's decision.
 */
final class Trash {

    static final String PLAN = "plan.json";
    static final String COMPLETED = "completed.json";
    static final String ABORTED = "aborted.json";
    static final String ENTRY = "entry";

    private static final Pattern OPERATION_ID = Pattern.compile("[A-Za-z0-9_:-][A-Za-z0-9._:-]{0,127}");

    private final Tree tree;
    private final Mutator mutator;
    private final Checkpoints checkpoints;

    Trash(Tree tree, Mutator mutator, Checkpoints checkpoints) {
        this.tree = tree;
        this.mutator = mutator;
        this.checkpoints = checkpoints;
    }

    Mutation run(
            RelativePath path,
            EntryKind kind,
            String expectedEntryRevision,
            String expectedParentRevision,
            Path recoveryRoot,
            String operationId) {
        if (operationId == null || !OPERATION_ID.matcher(operationId).matches()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "operationId is not a valid folder name");
        }
        if (recoveryRoot == null || !recoveryRoot.isAbsolute()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "recovery folder must be an absolute path");
        }
        if (expectedEntryRevision == null || expectedParentRevision == null) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "expected revisions are missing");
        }
        ClientConfigurationPaths.requireWritable(path);
        try (Tree.Located located = tree.locate(path)) {
            Mutator.requireKind(located, kind);
            mutator.expectDirectory(located.parent(), expectedParentRevision, path.parent());
            Mutator.State state = mutator.state(located);
            Mutator.expect(state.revision(), expectedEntryRevision, path.toString());
            try (Fd recovery = openRecoveryRoot(recoveryRoot)) {
                if (recovery.stat().dev() != located.stat().dev()) {
                    throw new LomiException(
                            ErrorCode.UNSUPPORTED_CAPABILITY, "the recovery folder is on another device");
                }
                try (Fd operation = makeOperationDirectory(recovery, operationId)) {
                    Map<String, Object> plan = plan(
                            path, kind, expectedEntryRevision, expectedParentRevision, operationId, located.stat());
                    writeDurably(operation, PLAN, Json.object(plan));
                    Staging.syncDirectory(recovery);
                    checkpoints.reached(Checkpoints.TRASH_PLANNED);
                    moveOut(located, path, state, operation, kind);
                    return Mutator.afterPublish(() -> complete(located, path, kind, operation, operationId));
                }
            }
        }
    }

    private void moveOut(Tree.Located located, RelativePath path, Mutator.State state, Fd operation, EntryKind kind) {
        try {
            mutator.recheckParent(located, path);
            Mutator.recheckStamp(located, state.stamp());
            Staging.publishNoReplace(located.parent(), located.name(), operation, ENTRY, kind == EntryKind.FILE);
        } catch (LomiException e) {
            writeDurably(
                    operation, ABORTED, Json.object(Map.of("reason", e.code().name(), "message", e.getMessage())));
            throw e;
        }
    }

    private Mutation complete(
            Tree.Located located, RelativePath path, EntryKind kind, Fd operation, String operationId) {
        Staging.syncDirectory(operation);
        Staging.syncDirectory(located.parent());
        checkpoints.reached(Checkpoints.TRASH_MOVED);
        if (located.parent()
                .statAt(located.name())
                .filter(st -> st.sameIdentity(located.stat()))
                .isPresent()) {
            throw Tree.changed(path.toString());
        }
        Map<String, Object> done = new LinkedHashMap<>();
        done.put("version", 1);
        done.put("operationId", operationId);
        done.put("state", "completed");
        done.put("entry", ENTRY);
        writeDurably(operation, COMPLETED, Json.object(done));
        String parentRevision = DirectorySnapshot.of(tree, located.parent()).revision();
        return new Mutation(path.toString(), kind, Optional.empty(), parentRevision, Optional.empty());
    }

    private Map<String, Object> plan(
            RelativePath path,
            EntryKind kind,
            String entryRevision,
            String parentRevision,
            String operationId,
            Stat st) {
        Map<String, Object> plan = new LinkedHashMap<>();
        plan.put("version", 1);
        plan.put("operationId", operationId);
        plan.put("projectRoot", tree.root().toString());
        plan.put("relativePath", path.toString());
        plan.put("kind", kind.wire());
        plan.put("expectedEntryRevision", entryRevision);
        plan.put("expectedParentRevision", parentRevision);
        plan.put("device", (st.dev() >>> 32) + ":" + (st.dev() & 0xffffffffL));
        plan.put("inode", st.ino());
        plan.put("entry", ENTRY);
        return plan;
    }

    private static Fd openRecoveryRoot(Path recoveryRoot) {
        try {
            if (!Files.isDirectory(recoveryRoot)) {
                Files.createDirectories(
                        recoveryRoot,
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
        } catch (IOException e) {
            throw new LomiException(ErrorCode.STORAGE_UNAVAILABLE, "the recovery folder cannot be created", e);
        }
        return Fd.openAt(Libc.AT_FDCWD, recoveryRoot.toString(), Libc.DIRECTORY_HANDLE, 0, "open recovery folder");
    }

    private static Fd makeOperationDirectory(Fd recovery, String operationId) {
        if (Libc.c().mkdirat(recovery.raw(), Libc.cstr(operationId), 0700) < 0) {
            int errno = Libc.errno();
            if (errno == Libc.EEXIST) {
                throw new LomiException(
                        ErrorCode.IDEMPOTENCY_CONFLICT, "operation " + operationId + " already has a recovery folder");
            }
            throw Libc.error(errno, "create recovery folder");
        }
        try (Fd readable = Fd.openAt(recovery.raw(), operationId, Libc.DIRECTORY_READ, 0, "open recovery folder")) {
            readable.chmod(0700);
        }
        return Fd.openAt(recovery.raw(), operationId, Libc.DIRECTORY_HANDLE, 0, "open recovery folder");
    }

    /** Writes {@code name} in {@code dir} via temp file, fsync, exclusive rename and directory fsync. */
    private void writeDurably(Fd dir, String name, String json) {
        String temp = mutator.staging().stage(dir, json.getBytes(StandardCharsets.UTF_8), 0600, null);
        try {
            Staging.publishNoReplace(dir, temp, dir, name, true);
        } catch (RuntimeException e) {
            Staging.discard(dir, temp);
            throw e;
        }
        Staging.syncDirectory(dir);
    }
}
