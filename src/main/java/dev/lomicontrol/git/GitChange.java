package dev.lomicontrol.git;

import org.jspecify.annotations.Nullable;

/**
 * One changed path. {@code staged} is added|modified|deleted|renamed|none (HEAD against the index),
 * {@code worktree} is modified|deleted|untracked|none (the index against the files); {@code oldPath}
 * is the rename source, else null.
 */
public record GitChange(
        String path, @Nullable String oldPath, String staged, String worktree, boolean binary, boolean conflicted) {}
