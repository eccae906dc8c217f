package dev.lomicontrol.git.tools;

import static dev.lomicontrol.git.tools.GitWire.present;
import static dev.lomicontrol.git.tools.GitWire.wire;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.files.RelativePath;
import dev.lomicontrol.git.GitAction;
import dev.lomicontrol.git.GitOutcome;
import dev.lomicontrol.git.GitPlan;
import dev.lomicontrol.git.api.GitResults;
import dev.lomicontrol.git.api.GitSpecs;
import dev.lomicontrol.git.tools.GitRepositories.Repo;
import dev.lomicontrol.ledger.EffectState;
import dev.lomicontrol.ledger.Target;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.Revisions;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.tools.CommitId;
import dev.lomicontrol.tools.Encoder;
import dev.lomicontrol.tools.Hex64;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code lomi_git_mutate}: stage, unstage, commit, discard, fetch, pull or push in the reference's
 * shape, as an exact plan the admin approves. The layout revision is checked, the plan is frozen
 * against the repository as it is when the broker reserves the request (or against the caller's
 * expectedObservationRevision, when given), and the reference's expectations — the complete staged set
 * of a commit, sourceCommit = HEAD, expectedRemoteCommit (absent = the remote branch must not exist) —
 * are checked before any receipt exists. After approval the plan runs once, re-checked by the engine.
 */
final class GitMutations {

    /** The scope each mutation needs besides git.write and git.execute (SPEC §9). */
    private final GitRepositories repositories;

    private final OperationRunner runner;
    private final Layout layout;

    GitMutations(GitRepositories repositories, OperationRunner runner, Layout layout) {
        this.repositories = repositories;
        this.runner = runner;
        this.layout = layout;
    }

    ObjectNode mutate(Session session, GitSpecs.MutateInput in) {
        Repo target = repositories.open(session, in.workspaceId(), in.repositoryRelative());
        String name = wire(in.operation());
        long expectedRevision = in.expectedRevision().asLong();
        Optional<String> expectedObservation = in.expectedObservationRevision().map(Hex64::value);
        String resource = name + (target.relative().isEmpty() ? "" : ":" + target.relative());
        OperationRunner.Request request = OperationRunner.Request.of(
                session,
                GitSpecs.MUTATE,
                in,
                target.listed().project().id(),
                new Target(
                        target.workspaceId(),
                        resource,
                        target.listed().project().rootIdentity(),
                        expectedRevision + expectedObservation.map(o -> "/" + o).orElse("")));
        // the admission freezes the plan; a repeat of a used key is answered without it
        FrozenPlan.Freeze freeze =
                FrozenPlan.Freeze.of(() -> freeze(in, target, expectedRevision, expectedObservation));
        return runner.afterApproval(
                request,
                freeze::admit,
                () -> freeze.plan().summary(target, session),
                () -> freeze.plan().forDecision(),
                row -> run(freeze.plan(), target, in.operation()));
    }

    /** The layout revision, then the plan against the repository as it is and the caller's expectations. */
    private FrozenPlan freeze(
            GitSpecs.MutateInput in, Repo target, long expectedRevision, Optional<String> expectedObservation) {
        Revisions.require(expectedRevision, layout.revision());
        GitPlan plan = target.git().plan(action(in));
        expectedObservation.ifPresent(expected -> {
            if (!plan.observationRevision().equals(expected)) {
                throw new LomiException(
                        ErrorCode.REVISION_CONFLICT,
                        "the repository changed since observationRevision " + expected
                                + "; read lomi_git_status again and retry with a new requestKey");
            }
        });
        expect(in, plan);
        return new FrozenPlan(
                plan, expectedObservation.isPresent() ? GitResults.ObservedBy.CALLER : GitResults.ObservedBy.BROKER);
    }

    /** Runs the approved plan once: its result, or a failure that says what it left behind. */
    private static JsonNode run(FrozenPlan frozen, Repo target, GitSpecs.Operation operation) {
        GitOutcome outcome = target.git().execute(frozen.plan());
        boolean succeeded = outcome.state().equals("succeeded");
        GitResults.Effect effect = GitResults.Effect.valueOf(outcome.effect().toUpperCase(Locale.ROOT));
        Optional<GitResults.Reason> reason = outcome.reason().isEmpty()
                ? Optional.empty()
                : Optional.of(GitResults.Reason.valueOf(outcome.reason().toUpperCase(Locale.ROOT)));
        JsonNode result = Encoder.encode(new GitResults.Mutated(
                target.workspaceId(),
                target.relative(),
                operation,
                frozen.wire(),
                succeeded ? GitResults.Outcome.SUCCEEDED : GitResults.Outcome.FAILED,
                effect,
                reason.map(GitWire::wire),
                outcome.detail(),
                present(outcome.newHead()),
                outcome.conflicts()));
        if (succeeded) {
            return result;
        }
        throw new OperationRunner.Failed(
                reason.map(GitMutations::code).orElse(ErrorCode.REVISION_CONFLICT),
                outcome.detail(),
                effect == GitResults.Effect.PARTIAL ? EffectState.PARTIAL : EffectState.NONE,
                result);
    }

    private static GitAction action(GitSpecs.MutateInput in) {
        return switch (in.operation()) {
            case STAGE -> new GitAction.Stage(in.paths());
            case UNSTAGE -> new GitAction.Unstage(in.paths());
            case DISCARD -> new GitAction.Discard(in.paths());
            case COMMIT -> new GitAction.Commit(in.message().orElseThrow());
            case FETCH -> new GitAction.Fetch(in.remote().orElseThrow(), in.reference());
            case PULL ->
                new GitAction.Pull(
                        in.remote().orElseThrow(),
                        wire(in.pullMode().orElseThrow()),
                        in.reference(),
                        in.expectedRemoteCommit().map(CommitId::value));
            case PUSH ->
                new GitAction.Push(
                        in.remote().orElseThrow(),
                        in.reference().orElseThrow(),
                        in.expectedRemoteCommit().map(CommitId::value));
        };
    }

    /** The reference's expectations against the frozen plan (REVISION_CONFLICT when the repository is not as the caller said). */
    private static void expect(GitSpecs.MutateInput in, GitPlan plan) {
        switch (in.operation()) {
            case COMMIT -> {
                TreeSet<String> named = new TreeSet<>();
                in.paths().forEach(p -> named.add(RelativePath.parse(p).toString()));
                if (!named.equals(new TreeSet<>(plan.paths()))) {
                    throw new LomiException(
                            ErrorCode.REVISION_CONFLICT,
                            "paths must name the complete staged set: staged are " + plan.paths() + ", not " + named
                                    + "; stage or unstage first (a commit never stages)");
                }
            }
            case PUSH, PULL -> {
                requireSame(in.sourceCommit().orElseThrow().value(), plan.expectedHead(), "HEAD (sourceCommit)");
                requireSame(
                        in.expectedRemoteCommit().map(CommitId::value).orElse(""),
                        plan.expectedRemoteHead(),
                        "the remote " + plan.reference());
            }
            default -> {}
        }
    }

    private static void requireSame(String expected, String actual, String what) {
        if (!expected.equals(actual)) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    what + " is " + (actual.isEmpty() ? "absent" : actual) + ", not "
                            + (expected.isEmpty() ? "absent" : expected)
                            + "; read again and retry with a new requestKey");
        }
    }

    /** The error code a plan that failed for {@code reason} settles with. */
    private static ErrorCode code(GitResults.Reason reason) {
        return switch (reason) {
            case UNREACHABLE, REJECTED -> ErrorCode.APP_UNAVAILABLE;
            case WOULD_OVERWRITE -> ErrorCode.TARGET_BUSY;
            case REMOTE_MOVED, CONFLICT, NOT_FAST_FORWARD -> ErrorCode.REVISION_CONFLICT;
        };
    }
}
