package dev.lomicontrol.git;

import java.util.List;

/**
 * What running a plan did: {@code state} succeeded|failed, {@code effect} complete|partial|none
 * (partial: the repository was left mid-way, e.g. a rebase stopped on {@code conflicts}). A failed
 * outcome names its {@code reason}: remote_moved, unreachable, would_overwrite, conflict, not_fast_forward
 * or rejected; a succeeded one has "".
 */
public record GitOutcome(
        String state, String effect, String reason, String detail, String newHead, List<String> conflicts) {
    public GitOutcome {
        conflicts = List.copyOf(conflicts);
    }
}
