package dev.lomicontrol.git;

import org.jspecify.annotations.Nullable;

/**
 * One file of a commit: {@code change} is added|modified|deleted|renamed|copied; {@code oldPath} only
 * for renames and copies, else null.
 */
public record GitFileChange(String path, @Nullable String oldPath, String change) {}
