package dev.lomicontrol.files;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;

/** The encodings a text file may use; detected by BOM, defaulting to UTF-8 without one. */
public enum TextEncoding {
    UTF_8("utf-8"),
    UTF_8_BOM("utf-8-bom"),
    UTF_16LE("utf-16le"),
    UTF_16BE("utf-16be");

    private final String wire;

    TextEncoding(String wire) {
        this.wire = wire;
    }

    /** The wire form, e.g. {@code "utf-8-bom"}. */
    public String wire() {
        return wire;
    }

    /** Parses the wire form; anything else is {@code INVALID_ARGUMENT}. */
    public static TextEncoding fromWire(String wire) {
        for (TextEncoding encoding : values()) {
            if (encoding.wire.equals(wire)) {
                return encoding;
            }
        }
        throw new LomiException(ErrorCode.INVALID_ARGUMENT, "unknown encoding: " + wire);
    }
}
