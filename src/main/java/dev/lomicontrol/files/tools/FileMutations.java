package dev.lomicontrol.files.tools;

import dev.lomicontrol.files.Mutation;
import dev.lomicontrol.files.ProjectFiles;
import dev.lomicontrol.files.api.FileResults;
import dev.lomicontrol.files.api.FileSpecs;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.Revisions;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.tools.Encoder;
import dev.lomicontrol.tools.Hex64;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code lomi_files_mutate}: create, rename, move, rename_directory, move_directory or trash — never
 * overwriting, never following links. A durable operation whose expected revisions are checked
 * before the receipt (stale → refused, no receipt) and again inside {@code ProjectFiles} just before
 * the change; a trashed entry the system trash cannot take is kept under {@code recoveryRoot}.
 */
final class FileMutations {

    private final FileTargets targets;
    private final OperationRunner runner;
    private final Layout layout;
    private final Path recoveryRoot;

    FileMutations(FileTargets targets, OperationRunner runner, Layout layout, Path recoveryRoot) {
        this.targets = targets;
        this.runner = runner;
        this.layout = layout;
        this.recoveryRoot = recoveryRoot;
    }

    ObjectNode mutate(Session session, FileSpecs.MutateInput in) {
        FileCalls.Resolved target = targets.resolve(session, in.workspaceId());
        FileChange change = FileChange.of(in.operation());
        long expected = in.expectedRevision().asLong();
        ProjectFiles files = target.files();
        return runner.immediate(
                OperationRunner.Request.of(
                        session,
                        FileSpecs.MUTATE,
                        in,
                        target.listed(),
                        change.type().wire() + ":" + change.path(),
                        OptionalLong.of(expected)),
                () -> {
                    Revisions.require(expected, layout.revision());
                    change.precheck(files);
                },
                operation -> {
                    Mutation done =
                            change.apply(files, recoveryRoot, operation.id().value());
                    Optional<String> recovery = change.type() == FileChange.Type.TRASH
                            ? Optional.of(
                                    recoveryRoot.resolve(operation.id().value()).toString())
                            : Optional.empty();
                    return Encoder.encode(new FileResults.Mutated(
                            change.type().wire(),
                            done.relativePath(),
                            FileCalls.type(done.kind()),
                            done.diskRevision().map(Hex64::new),
                            new Hex64(done.parentRevision()),
                            done.directoryRevision().map(Hex64::new),
                            recovery));
                });
    }
}
