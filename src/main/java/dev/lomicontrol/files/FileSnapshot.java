package dev.lomicontrol.files;

import java.util.Arrays;
import java.util.Objects;

/** The exact bytes of a file as read, their SHA-256 revision (hex) and the file's POSIX mode bits. */
public record FileSnapshot(byte[] bytes, String diskRevision, int mode) {
    public FileSnapshot {
        Objects.requireNonNull(bytes, "bytes");
        Objects.requireNonNull(diskRevision, "diskRevision");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FileSnapshot s
                && Arrays.equals(bytes, s.bytes)
                && diskRevision.equals(s.diskRevision)
                && mode == s.mode;
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(bytes), diskRevision, mode);
    }

    @Override
    public String toString() {
        return "FileSnapshot[" + bytes.length + " bytes, " + diskRevision + ", mode=" + Integer.toOctalString(mode)
                + "]";
    }
}
