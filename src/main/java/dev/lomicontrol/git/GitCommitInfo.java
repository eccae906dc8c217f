package dev.lomicontrol.git;

import java.time.Instant;
import java.util.List;

/** One commit's metadata; {@code summary} is the first line of the message. */
public record GitCommitInfo(
        String id, List<String> parents, String author, String email, Instant when, String summary) {
    public GitCommitInfo {
        parents = List.copyOf(parents);
    }
}
