package dev.lomicontrol.git;

import java.util.List;
import java.util.Optional;

/** A mutation a caller asks for; {@link GitRepository#plan} turns it into an exact plan for approval. */
public sealed interface GitAction {

    /** Adds the paths' current worktree state (including deletions) to the index. */
    record Stage(List<String> paths) implements GitAction {
        public Stage {
            paths = List.copyOf(paths);
        }
    }

    /** Resets the paths' index entries to HEAD. */
    record Unstage(List<String> paths) implements GitAction {
        public Unstage {
            paths = List.copyOf(paths);
        }
    }

    /** Commits the index on the current branch. */
    record Commit(String message) implements GitAction {}

    /** Restores tracked paths from the index; an untracked path is refused (git discard never removes files git does not track). */
    record Discard(List<String> paths) implements GitAction {
        public Discard {
            paths = List.copyOf(paths);
        }
    }

    /**
     * Fetches a configured remote: with a {@code reference} (a full {@code refs/heads/} name) only that
     * branch, into its remote-tracking branch and without tags; without one, every branch.
     */
    record Fetch(String remote, Optional<String> reference) implements GitAction {
        public Fetch(String remote) {
            this(remote, Optional.empty());
        }
    }

    /**
     * Brings the current branch up to a remote branch; mode is ff_only or rebase. {@code reference} is
     * the remote branch (default: the current branch's name); {@code expectedRemoteCommit} the fetched
     * commit to integrate, which must be present locally (default: its remote-tracking branch, as the
     * last fetch left it). Planning never contacts the remote.
     */
    record Pull(String remote, String mode, Optional<String> reference, Optional<String> expectedRemoteCommit)
            implements GitAction {
        public Pull(String remote, String mode) {
            this(remote, mode, Optional.empty(), Optional.empty());
        }
    }

    /**
     * Pushes HEAD's commit to {@code reference} (a full {@code refs/heads/} name) of a configured remote,
     * never forced, only while the remote branch is still {@code expectedRemoteCommit} (empty: only while
     * it is absent). Planning never contacts the remote; the push itself checks the expectation.
     */
    record Push(String remote, String reference, Optional<String> expectedRemoteCommit) implements GitAction {}
}
