package dev.lomicontrol.files;

import java.util.Locale;

/** What a project entry is; only regular files and directories are ever visible. Wire: lower-case. */
public enum EntryKind {
    FILE,
    DIRECTORY;

    /** The wire form: {@code "file"} or {@code "directory"}. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
