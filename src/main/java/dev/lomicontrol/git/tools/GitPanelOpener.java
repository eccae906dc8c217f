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
        GitSpecs.View view;
        String title;
        ObjectNode described = JsonNodeFactory.instance.objectNode();
        if (in.view() instanceof GitSpecs.DiffView diff) {
            String path = RelativePath.parse(diff.relativePath()).toString();
            view = new GitSpecs.DiffView(path, diff.staged());
            title = (diff.staged() ? "Staged: " : "Diff: ") + path.substring(path.lastIndexOf('/') + 1);
        } else {
            GitSpecs.CommitView commit = (GitSpecs.CommitView) in.view();
            view = commit;
            title = "Commit " + commit.commit().value().substring(0, 12);
        }
        described.setAll((ObjectNode) Encoder.encode(GitSpecs.View.class, view));
        if (!target.relative().isEmpty()) {
            // the project's own repository keeps the view as it always was; a nested one names itself
            described.put("repositoryRelative", target.relative());
        }
        String canonical = CanonicalJson.string(described);
        long expected = in.expectedRevision().asLong();
        return runner.immediate(
                OperationRunner.Request.of(session, GitSpecs.OPEN, in, target.listed(), canonical, expected),
                () -> {
                    Revisions.require(expected, layout.revision());
                    if (view instanceof GitSpecs.DiffView diff) {
                        target.git().diff(diff.relativePath(), diff.staged() ? "staged" : "worktree", Optional.empty());
                    } else {
                        target.git()
                                .commit(((GitSpecs.CommitView) view).commit().value());
                    }
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
                                current.workspace().id(), title, session.id().value(), canonical);
                    }
                    return Encoder.encode(new GitResults.Opened(
                            Decimal.of(edit.newRevision()),
                            current.workspace().id().value(),
                            panel.id(),
                            target.relative(),
                            view));
                }));
    }
}
