package dev.lomicontrol.git.tools;

import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.git.GitPlan;
import dev.lomicontrol.git.api.GitResults;
import dev.lomicontrol.git.tools.GitRepositories.Repo;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.tools.Encoder;
import java.util.Locale;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A mutation's exact plan, frozen against the repository when the request is admitted, with who took
 * the observation it rests on; and the three ways it is shown: the admin's one-line summary, the plan
 * the admin approves (with the URL the remote really resolves to) and the plan the agent's result
 * repeats (without it).
 */
record FrozenPlan(GitPlan plan, GitResults.ObservedBy observedBy) {

    /**
     * The admission's outcome as a value, worked out before the runner asks: the frozen plan, or the
     * refusal the runner hears at admission (so a repeat of a used request key is still answered with
     * its earlier operation, never with this refusal).
     */
    sealed interface Freeze {

        /** Runs {@code freeze}; a refusal becomes a value the admission throws. */
        static Freeze of(Supplier<FrozenPlan> freeze) {
            try {
                return new Frozen(freeze.get());
            } catch (LomiException refusal) {
                return new Refused(refusal);
            }
        }

        /** The admission: passes for a frozen plan, throws the refusal otherwise. */
        void admit();

        /** The frozen plan; the runner reads it only after the admission passed. */
        FrozenPlan plan();
    }

    record Frozen(FrozenPlan plan) implements Freeze {
        @Override
        public void admit() {}
    }

    record Refused(LomiException refusal) implements Freeze {
        @Override
        public void admit() {
            throw refusal;
        }

        @Override
        public FrozenPlan plan() {
            throw new IllegalStateException("a refused mutation has no plan", refusal);
        }
    }

    GitResults.PlanKind kind() {
        return GitResults.PlanKind.valueOf(plan.kind().toUpperCase(Locale.ROOT));
    }

    /** The plan as the admin approves it and the result repeats it. */
    GitResults.Plan wire() {
        return new GitResults.Plan(
                kind(),
                plan.paths(),
                plan.message(),
                plan.remote(),
                plan.reference(),
                plan.expectedHead(),
                plan.expectedRemoteHead(),
                plan.observationRevision(),
                observedBy,
                GitPlan.REPOSITORY_CODE);
    }

    /**
     * The plan as the admin approves it: the agent's plan plus, for fetch, pull and push, the URL the
     * remote really resolves to (N7). The URL is the admin's to see; the agent's answers keep only the
     * remote's name, as lomi_git_remotes does.
     */
    JsonNode forDecision() {
        JsonNode encoded = Encoder.encode(wire());
        if (!plan.remoteUrl().isEmpty() && encoded instanceof ObjectNode object) {
            object.put("remoteUrl", plan.remoteUrl());
        }
        return encoded;
    }

    /** The admin's one-line summary: what runs, where, for whom, against which observation. */
    String summary(Repo target, Session session) {
        return summary(" in " + target.listed().project().root()
                + (target.relative().isEmpty() ? "" : "/" + target.relative()) + " for " + session.clientLabel()
                + " (observation " + plan.observationRevision().substring(0, 12) + ")");
    }

    /** The summary of this plan's kind, ending with {@code where} it runs. */
    String summary(String where) {
        return switch (kind()) {
            case COMMIT -> {
                String first = plan.message().lines().findFirst().orElse("");
                yield "git commit of " + plan.paths().size() + " staged file(s) on " + plan.reference() + ": \"" + first
                        + "\"" + where;
            }
            case STAGE, UNSTAGE -> "git " + plan.kind() + " " + String.join(", ", plan.paths()) + where;
            case DISCARD ->
                "git DISCARD the worktree changes of " + String.join(", ", plan.paths())
                        + " (restored from the index; untracked files are never touched)" + where;
            case FETCH -> "git fetch " + plan.reference() + " from " + remote() + where;
            case PUSH ->
                "git push " + plan.reference() + " @ " + plan.expectedHead() + " to " + remote()
                        + (plan.expectedRemoteHead().isEmpty()
                                ? " (only if absent there)"
                                : " (over " + plan.expectedRemoteHead() + ")")
                        + where;
            case PULL_FF_ONLY, PULL_REBASE ->
                "git pull (" + (kind() == GitResults.PlanKind.PULL_REBASE ? "rebase" : "fast-forward only") + ") "
                        + plan.reference() + " from " + remote() + " @ " + plan.expectedRemoteHead() + where;
        };
    }

    /**
     * The remote by name and by the URL it really goes to ({@code pushurl}, {@code insteadOf} and
     * {@code pushInsteadOf} applied, credentials redacted); the remote is first contacted after approval.
     */
    private String remote() {
        return plan.remote() + " (" + plan.remoteUrl() + ")";
    }
}
