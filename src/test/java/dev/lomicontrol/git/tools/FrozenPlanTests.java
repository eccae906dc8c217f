package dev.lomicontrol.git.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.git.GitPlan;
import dev.lomicontrol.git.api.GitResults;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A mutation's frozen plan: the admin's summary of each kind, and the admission as a value. */
class FrozenPlanTests {

    private static final String OBSERVED = "a".repeat(64);
    private static final String HEAD = "b".repeat(40);
    private static final String REMOTE_HEAD = "c".repeat(40);
    private static final String WHERE = " in /p for client (observation aaaaaaaaaaaa)";

    private static FrozenPlan frozen(String kind, List<String> paths, String message, String remoteHead) {
        GitPlan plan = new GitPlan(
                kind,
                paths,
                message,
                "origin",
                "refs/heads/main",
                HEAD,
                remoteHead,
                OBSERVED,
                "https://example.org/r.git");
        return new FrozenPlan(plan, GitResults.ObservedBy.BROKER);
    }

    @Test
    void eachKindIsSummarisedForTheAdminWithWhereItRuns() {
        assertThat(frozen("commit", List.of("a", "b"), "subject\nbody", "").summary(WHERE))
                .isEqualTo("git commit of 2 staged file(s) on refs/heads/main: \"subject\"" + WHERE);
        assertThat(frozen("stage", List.of("a", "b"), "", "").summary(WHERE)).isEqualTo("git stage a, b" + WHERE);
        assertThat(frozen("unstage", List.of("a"), "", "").summary(WHERE)).isEqualTo("git unstage a" + WHERE);
        assertThat(frozen("discard", List.of("a"), "", "").summary(WHERE))
                .isEqualTo("git DISCARD the worktree changes of a"
                        + " (restored from the index; untracked files are never touched)" + WHERE);
        assertThat(frozen("fetch", List.of(), "", "").summary(WHERE))
                .isEqualTo("git fetch refs/heads/main from origin (https://example.org/r.git)" + WHERE);
        assertThat(frozen("push", List.of(), "", "").summary(WHERE))
                .isEqualTo("git push refs/heads/main @ " + HEAD + " to origin (https://example.org/r.git)"
                        + " (only if absent there)" + WHERE);
        assertThat(frozen("push", List.of(), "", REMOTE_HEAD).summary(WHERE))
                .endsWith(" (over " + REMOTE_HEAD + ")" + WHERE);
        assertThat(frozen("pull_ff_only", List.of(), "", REMOTE_HEAD).summary(WHERE))
                .isEqualTo("git pull (fast-forward only) refs/heads/main from origin (https://example.org/r.git) @ "
                        + REMOTE_HEAD + WHERE);
        assertThat(frozen("pull_rebase", List.of(), "", REMOTE_HEAD).summary(WHERE))
                .startsWith("git pull (rebase) refs/heads/main");
    }

    @Test
    void onlyTheAdminSeesTheRemotesUrl() {
        FrozenPlan fetch = frozen("fetch", List.of(), "", "");

        assertThat(fetch.forDecision().get("remoteUrl").asString()).isEqualTo("https://example.org/r.git");
        assertThat(fetch.wire().kind()).isEqualTo(GitResults.PlanKind.FETCH);
        assertThat(fetch.wire().repositoryCode()).isEqualTo(GitPlan.REPOSITORY_CODE);
    }

    @Test
    void aRefusedFreezeIsThrownAtAdmissionAndHasNoPlan() {
        LomiException conflict = new LomiException(ErrorCode.REVISION_CONFLICT, "the layout moved");
        FrozenPlan.Freeze refused = FrozenPlan.Freeze.of(() -> {
            throw conflict;
        });
        FrozenPlan.Freeze passed = FrozenPlan.Freeze.of(() -> frozen("stage", List.of("a"), "", ""));

        assertThatThrownBy(refused::admit).isSameAs(conflict);
        assertThatThrownBy(refused::plan).isInstanceOf(IllegalStateException.class);
        passed.admit();
        assertThat(passed.plan().kind()).isEqualTo(GitResults.PlanKind.STAGE);
    }
}
