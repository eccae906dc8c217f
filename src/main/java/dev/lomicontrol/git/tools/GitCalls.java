package dev.lomicontrol.git.tools;

import dev.lomicontrol.files.tools.FileCalls;
import dev.lomicontrol.git.api.GitSpecs;
import dev.lomicontrol.operations.LivePanels;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.ToolFeature;
import dev.lomicontrol.operations.ToolHandlers;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.PanelKind;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * The git feature (SPEC §10 "Git") on the project's repository or a repository nested inside the
 * project ({@code repositoryRelative}, opened by {@link GitRepositories}). Reads are bounded and paged
 * ({@link GitReads}); {@code lomi_git_open} adds a read-only diff or commit panel
 * ({@link GitPanelOpener}; {@link GitPanels} reads its view back); {@code lomi_git_mutate} freezes the
 * request into an exact plan against the repository as it is, parks it for the admin's decision and
 * runs it once after approval, re-checking what the plan expected ({@link GitMutations}). Secret
 * paths, remote URLs and credentials never appear.
 */
@Component
public final class GitCalls implements ToolFeature {

    private final GitReads reads;
    private final GitPanelOpener opener;
    private final GitMutations mutations;

    public GitCalls(FileCalls files, OperationRunner runner, Layout layout) {
        GitRepositories repositories = new GitRepositories(files);
        this.reads = new GitReads(repositories);
        this.opener = new GitPanelOpener(repositories, runner, layout);
        this.mutations = new GitMutations(repositories, runner, layout);
    }

    /** The panels git answers for: a git panel shows the view {@code lomi_git_open} stored with it. */
    @Override
    public Map<PanelKind, LivePanels> panels() {
        return Map.of(PanelKind.GIT, new GitPanels());
    }

    /** Registers the handlers of the tools this feature serves. */
    @Override
    public void register(Wiring wiring) {
        ToolHandlers handlers = wiring.handlers();
        handlers.on(GitSpecs.STATUS, reads::status);
        handlers.on(GitSpecs.DIFF, reads::diff);
        handlers.on(GitSpecs.HISTORY, reads::history);
        handlers.on(GitSpecs.COMMIT, reads::commit);
        handlers.on(GitSpecs.REMOTES, reads::remotes);
        handlers.on(GitSpecs.OPEN, opener::open);
        handlers.on(GitSpecs.MUTATE, mutations::mutate);
    }
}
