package dev.lomicontrol.git;

import java.util.List;

/**
 * A status snapshot. {@code observationRevision} changes whenever HEAD, the index or a changed
 * worktree file changes; {@code filtered} says that secret paths were left out of {@code changes}.
 */
public record GitStatus(
        String observationRevision, String branch, String head, List<GitChange> changes, boolean filtered) {
    public GitStatus {
        changes = List.copyOf(changes);
    }
}
