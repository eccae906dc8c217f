package dev.lomicontrol.git;

import java.util.List;

/**
 * What running a plan did: {@code state} succeeded|failed, {@code effect} complete|partial|none
 * (partial: the repository was left mid-way, e.g. a rebase stopped on {@code conflicts}).
 */
public record GitOutcome(String state, String effect, String detail, String newHead, List<String> conflicts) {
    public GitOutcome {
        conflicts = List.copyOf(conflicts);
    }
}
