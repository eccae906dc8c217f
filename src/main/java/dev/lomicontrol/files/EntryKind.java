package dev.lomicontrol.files;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.util.Locale;

/** What a project entry is; only regular files and directories are ever visible. Wire: lower-case. */
public enum EntryKind {
    FILE,
    DIRECTORY;

    /** The wire form: {@code "file"} or {@code "directory"}. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses the wire form; anything else is {@code INVALID_ARGUMENT}. */
    public static EntryKind fromWire(String wire) {
        for (EntryKind kind : values()) {
            if (kind.wire().equals(wire)) {
                return kind;
            }
        }
        throw new LomiException(ErrorCode.INVALID_ARGUMENT, "kind must be 'file' or 'directory'");
    }
}
