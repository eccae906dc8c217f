package dev.lomicontrol.git.tools;

import dev.lomicontrol.files.RelativePath;
import dev.lomicontrol.git.api.GitResults;
import dev.lomicontrol.git.api.GitSpecs;
import dev.lomicontrol.git.tools.GitRepositories.Repo;
import dev.lomicontrol.ledger.CanonicalJson;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.Revisions;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.WorkspaceView;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Encoder;
import java.util.Optional;
import java.util.OptionalLong;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code lomi_git_open}: adds a read-only panel showing one path's diff or one commit, or focuses an
 * identical one already open, and stores the view with it as canonical JSON (a nested repository's
 * view names its {@code repositoryRelative}) for {@link GitPanels} to read back.
 */
final class GitPanelOpener {

    private final GitRepositories repositories;
    private final OperationRunner runner;
    private final Layout layout;

    GitPanelOpener(GitRepositories repositories, OperationRunner runner, Layout layout) {
        this.repositories = repositories;
        this.runner = runner;
        this.layout = layout;
    }

    /** A read-only panel showing one path's diff or one commit; an identical view already open is focused instead. */
    ObjectNode open(Session session, GitSpecs.OpenInput in) {
        Repo target = repositories.open(session, in.workspaceId(), in.repositoryRelative());
        Shown shown = Shown.of(in.view());
        ObjectNode described = JsonNodeFactory.instance.objectNode();
        described.setAll((ObjectNode) Encoder.encode(GitSpecs.View.class, shown.view()));
        if (!target.relative().isEmpty()) {
            // the project's own repository keeps the view as it always was; a nested one names itself
            described.put("repositoryRelative", target.relative());
        }
        String canonical = CanonicalJson.string(described);
        long expected = in.expectedRevision().asLong();
        return runner.immediate(
                OperationRunner.Request.of(
                        session, GitSpecs.OPEN, in, target.listed(), canonical, OptionalLong.of(expected)),
                () -> {
                    Revisions.require(expected, layout.revision());
                    readable(target, shown.view());
                },
                operation -> layout.change(OptionalLong.of(expected), edit -> {
                    WorkspaceView current =
                            edit.view(target.listed().workspace().id());
                    Optional<Panel> existing = current.panels().stream()
                            .filter(p -> p.gitView().filter(canonical::equals).isPresent())
                            .findFirst();
                    Panel panel;
                    if (existing.isPresent()) {
                        panel = existing.get();
                        edit.focus(current.workspace().id(), panel.id());
                    } else {
                        panel = edit.addGitPanel(
                                current.workspace().id(),
                                shown.title(),
                                session.id().value(),
                                canonical);
                    }
                    return Encoder.encode(new GitResults.Opened(
                            Decimal.of(edit.newRevision()),
                            current.workspace().id().value(),
                            panel.id(),
                            target.relative(),
                            shown.view()));
                }));
    }

    /** The view as the panel stores it (a diff's path normalised) and the panel's title. */
    private record Shown(GitSpecs.View view, String title) {
        static Shown of(GitSpecs.View requested) {
            if (requested instanceof GitSpecs.DiffView diff) {
                String path = RelativePath.parse(diff.relativePath()).toString();
                return new Shown(
                        new GitSpecs.DiffView(path, diff.staged()),
                        (diff.staged() ? "Staged: " : "Diff: ") + path.substring(path.lastIndexOf('/') + 1));
            }
            GitSpecs.CommitView commit = (GitSpecs.CommitView) requested;
            return new Shown(commit, "Commit " + commit.commit().value().substring(0, 12));
        }
    }

    /** The admission's check that the view can be shown: its diff or its commit is read once. */
    private static void readable(Repo target, GitSpecs.View view) {
        if (view instanceof GitSpecs.DiffView diff) {
            target.git().diff(diff.relativePath(), diff.staged() ? "staged" : "worktree", Optional.empty());
        } else {
            target.git().commit(((GitSpecs.CommitView) view).commit().value());
        }
    }
}
