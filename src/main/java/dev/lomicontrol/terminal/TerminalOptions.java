package dev.lomicontrol.terminal;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * How the terminal engine is sized.
 *
 * @param integrationDirectory where the generated shell-integration files live (made 0700, files 0600)
 * @param ringBytes size of each of a terminal's two output rings (text and raw), 4 KiB..64 MiB
 * @param maxTerminals how many terminals (live, or exited and still readable) are kept at once
 */
public record TerminalOptions(Path integrationDirectory, int ringBytes, int maxTerminals) {

    /** The reference's sizes: two 512 KiB rings per terminal. */
    public static final int DEFAULT_RING_BYTES = 512 * 1024;

    /** The reference's cap on terminals. */
    public static final int DEFAULT_MAX_TERMINALS = 32;

    public TerminalOptions {
        Objects.requireNonNull(integrationDirectory, "integrationDirectory");
        if (ringBytes < 4096 || ringBytes > 64 * 1024 * 1024) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "ringBytes must be 4 KiB..64 MiB, not " + ringBytes);
        }
        if (maxTerminals < 1 || maxTerminals > 4096) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "maxTerminals must be 1..4096, not " + maxTerminals);
        }
    }

    /** 512 KiB rings and at most 32 terminals. */
    public static TerminalOptions defaults(Path integrationDirectory) {
        return new TerminalOptions(integrationDirectory, DEFAULT_RING_BYTES, DEFAULT_MAX_TERMINALS);
    }
}
