package dev.lomicontrol.git;

/**
 * One changed path. {@code staged} is added|modified|deleted|renamed|none (HEAD against the index),
 * {@code worktree} is modified|deleted|untracked|none (the index against the files); {@code oldPath}
 * is the rename source, else null.
 */
public record GitChange(
        String path, String oldPath, String staged, String worktree, boolean binary, boolean conflicted) {}
