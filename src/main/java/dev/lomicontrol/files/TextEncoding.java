package dev.lomicontrol.files;

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
}
