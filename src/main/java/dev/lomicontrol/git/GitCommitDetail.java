package dev.lomicontrol.git;

import java.util.List;

/** A commit with its full message (at most 64 KiB) and the files it changed against its first parent. */
public record GitCommitDetail(GitCommitInfo info, String message, List<GitFileChange> files) {
    public GitCommitDetail {
        files = List.copyOf(files);
    }
}
