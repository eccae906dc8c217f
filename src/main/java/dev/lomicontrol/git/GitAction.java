package dev.lomicontrol.git;

import java.util.List;

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

    /** Restores tracked paths from the index and deletes untracked ones. */
    record Discard(List<String> paths) implements GitAction {
        public Discard {
            paths = List.copyOf(paths);
        }
    }

    /** Fetches a configured remote. */
    record Fetch(String remote) implements GitAction {}

    /** Brings the current branch up to the remote's branch of the same name; mode is ff_only or rebase. */
    record Pull(String remote, String mode) implements GitAction {}

    /** Pushes a local branch to the same-named branch of a configured remote, never forced. */
    record Push(String remote, String branch) implements GitAction {}
}
